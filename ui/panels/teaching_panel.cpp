#include "ui/panels/teaching_panel.h"

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QLineEdit>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/algorithms/registry.h"
#include "core/sweep/sweep_spec.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/lambda_control.h"

namespace pfa::ui {

namespace {

constexpr TeachingPanel::Topic kTopics[] = {
    TeachingPanel::Topic::Algorithm, TeachingPanel::Topic::Privacy, TeachingPanel::Topic::Lambda,
    TeachingPanel::Topic::Fairness, TeachingPanel::Topic::Data};

/// A number for reading: three significant digits, exponents without padding ("1e-5").
QString num(double value, int digits = 3) {
    if (std::isnan(value)) return QStringLiteral("–");
    if (std::isinf(value)) return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    QString text = QString::number(value, 'g', digits);
    text.replace(QStringLiteral("e-0"), QStringLiteral("e-"))
        .replace(QStringLiteral("e+0"), QStringLiteral("e+"));
    text.replace(QStringLiteral("e+"), QStringLiteral("e"));
    return text;
}

/// A small probability as a student reads it: "1.8 × 10<sup>−8</sup>" (plain "0.01" from 10⁻³ up).
QString probability(double value) {
    if (!(value > 0) || value >= 1e-3) return num(value, 2);
    const int exponent = static_cast<int>(std::floor(std::log10(value)));
    double mantissa = value / std::pow(10.0, exponent);
    QString text = QStringLiteral("10<sup>−%1</sup>").arg(-exponent);
    if (std::abs(mantissa - 1.0) > 0.05) text = num(mantissa, 2) + QStringLiteral(" × ") + text;
    return text;
}

/// A rate or gap in [0, 1], to two decimals (what a class reads off a projector).
QString rate(double value) {
    return std::isnan(value) ? QStringLiteral("–") : QString::number(value, 'f', 2);
}

/// e^ε, the factor by which an attacker's odds may change.
QString oddsFactor(double epsilon) {
    const double factor = std::exp(epsilon);
    if (std::isinf(factor)) return QStringLiteral("∞");
    return factor < 1000 ? QString::number(factor, 'f', 2) : num(factor);
}

const pfa::Algorithm* algorithmNamed(const std::string& name) {
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        if (algorithm->name() == name) return algorithm.get();
    }
    return nullptr;
}

QString unitWords(pfa::PrivacyUnit unit, const QString& rowName) {
    switch (unit) {
        case pfa::PrivacyUnit::User:
            return QObject::tr("one <b>user</b> (all of a user's rows together)");
        case pfa::PrivacyUnit::Silo:
            return QObject::tr("one <b>silo</b> (an institution's whole share of the data)");
        case pfa::PrivacyUnit::Record:
            break;
    }
    return QObject::tr("one <b>row</b> (a %1: one person's features, label and group)")
        .arg(rowName);
}

/// The rate(s) behind the chosen notion's gap, per group.
struct RateLine {
    QString name;
    std::function<double(const pfa::GroupRow&)> of;
};

std::vector<RateLine> ratesOf(pfa::FairnessNotion notion) {
    const auto selection = [](const pfa::GroupRow& g) { return g.selectionRate; };
    const auto tpr = [](const pfa::GroupRow& g) { return g.truePositiveRate; };
    const auto fpr = [](const pfa::GroupRow& g) { return g.falsePositiveRate; };
    switch (notion) {
        case pfa::FairnessNotion::DemographicParity:
            return {{QObject::tr("selection rate"), selection}};
        case pfa::FairnessNotion::EqualizedOdds:
            return {{QObject::tr("true-positive rate"), tpr},
                    {QObject::tr("false-positive rate"), fpr}};
        case pfa::FairnessNotion::EqualOpportunity:
            return {{QObject::tr("true-positive rate"), tpr}};
    }
    return {};
}

QString notionMeaning(pfa::FairnessNotion notion) {
    switch (notion) {
        case pfa::FairnessNotion::DemographicParity:
            return QObject::tr(
                "<b>Demographic parity</b> asks that every group is <i>selected</i> (predicted "
                "positive) at the same rate, whatever the labels. The gap is the largest "
                "difference in selection rate between two groups.");
        case pfa::FairnessNotion::EqualizedOdds:
            return QObject::tr(
                "<b>Equalized odds</b> asks that the model is equally right and equally wrong "
                "for every group: the same true-positive rate among the positives and the same "
                "false-positive rate among the negatives. The gap is the larger of the two "
                "differences.");
        case pfa::FairnessNotion::EqualOpportunity:
            return QObject::tr(
                "<b>Equal opportunity</b> asks that the qualified (those whose true label is the "
                "positive one) are selected at the same rate in every group: equal true-positive "
                "rates. The gap is the largest difference.");
    }
    return {};
}

}  // namespace

TeachingPanel::TeachingPanel(QWidget* parent) : QWidget(parent) {
    m_browser = new QTextBrowser();
    m_browser->setObjectName(QStringLiteral("teachingText"));
    m_browser->setOpenLinks(false);
    m_browser->setFrameShape(QFrame::NoFrame);
    m_browser->setToolTip(
        tr("Plain-words explanations with the numbers of the current run; the "
           "control you are on in the experiment panel comes first"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_hoverDelay = new QTimer(this);
    m_hoverDelay->setSingleShot(true);
    m_hoverDelay->setInterval(250);  // passing over a control on the way elsewhere changes nothing
    connect(m_hoverDelay, &QTimer::timeout, this, [this] {
        if (m_hoverTopic) setTopic(*m_hoverTopic);
    });
    refresh();
}

void TeachingPanel::offerDataset(const pfa::PreparedDatasetPtr& data) {
    if (data && m_panel && data->key == pfa::datasetKey(m_panel->datasetRequest()))
        setDataset(data);
}

void TeachingPanel::failRun(int runId) {
    if (runId != m_runId) return;
    m_running = false;
    refresh();
}

void TeachingPanel::follow(ExperimentPanel* panel) {
    m_panel = panel;
    setConfig(panel->config());
    connect(panel, &ExperimentPanel::configChanged, this,
            [this, panel] { setConfig(panel->config()); });
    connect(panel, &ExperimentPanel::datasetRequestChanged, this, [this] { setDataset(nullptr); });

    watch(panel->algorithmBox(), Topic::Algorithm);
    watch(panel->epsilonControl(), Topic::Privacy);
    if (QLineEdit* delta = panel->deltaEdit()) watch(delta, Topic::Privacy);
    watch(panel->lambdaControl(), Topic::Lambda);
    watch(panel->fairnessBox(), Topic::Fairness);
    watch(panel->datasetBox(), Topic::Data);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (const auto topic = topicOf(now)) setTopic(*topic);
    });
}

void TeachingPanel::watch(QWidget* widget, Topic topic) {
    if (!widget) return;
    m_watched.emplace_back(widget, topic);
    // Enter and Leave reach every widget the mouse enters, the control as well as its parts.
    widget->installEventFilter(this);
}

std::optional<TeachingPanel::Topic> TeachingPanel::topicOf(const QWidget* widget) const {
    for (; widget; widget = widget->parentWidget()) {
        for (const auto& [watched, topic] : m_watched) {
            if (watched == widget) return topic;
        }
    }
    return std::nullopt;
}

bool TeachingPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Enter) {
        m_hoverTopic = topicOf(qobject_cast<QWidget*>(watched));
        if (m_hoverTopic) m_hoverDelay->start();
    } else if (event->type() == QEvent::Leave) {
        m_hoverDelay->stop();
        m_hoverTopic.reset();
    }
    return QWidget::eventFilter(watched, event);
}

void TeachingPanel::setTopic(Topic topic) {
    if (topic == m_topic) return;
    m_topic = topic;
    refresh();
}

void TeachingPanel::setConfig(const pfa::TrainConfig& config) {
    m_config = config;
    refresh();
}

void TeachingPanel::setDataset(const pfa::PreparedDatasetPtr& data) {
    m_data = data;
    refresh();
}

void TeachingPanel::beginRun(int runId, const pfa::TrainConfig& config) {
    m_runId = runId;
    m_running = true;
    m_runConfig = config;
    m_latest.reset();
    m_finished.reset();
    refresh();
}

void TeachingPanel::addEpochs(int runId, const std::vector<pfa::EpochMetrics>& metrics) {
    if (runId != m_runId || metrics.empty()) return;
    m_latest = metrics.back();
    refresh();
}

void TeachingPanel::finishRun(const RunEntryPtr& entry) {
    if (!entry) return;
    m_runId = entry->id;
    m_running = false;
    m_runConfig = entry->result.config;
    m_finished = entry;
    m_lastFinished = entry;
    if (!entry->result.history.empty()) m_latest = entry->result.history.back();
    refresh();
}

QString TeachingPanel::text() const { return m_browser->toPlainText(); }

QString TeachingPanel::topicText(Topic topic) const {
    QTextDocument document;
    document.setHtml(topicHtml(topic));
    return document.toPlainText();
}

void TeachingPanel::refresh() {
    // The focused topic first, in a highlighted box; the others after it in their usual order.
    QString html = QStringLiteral("<html><body>");
    const auto box = [](const QString& content, bool focused) {
        return focused ? QStringLiteral(
                             "<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\" "
                             "border=\"1\" style=\"border-color:#d9a400; "
                             "border-style:solid;\" bgcolor=\"#fff5cc\"><tr><td>") +
                             content + QStringLiteral("</td></tr></table>")
                       : QStringLiteral(
                             "<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\" "
                             "border=\"0\"><tr><td>") +
                             content + QStringLiteral("</td></tr></table>");
    };
    html += box(topicHtml(m_topic), true);
    for (Topic topic : kTopics) {
        if (topic != m_topic) html += box(topicHtml(topic), false);
    }
    html += QStringLiteral("</body></html>");
    // New numbers keep the reader's place; a new topic is read from the top.
    const bool sameTopic = m_shownTopic == m_topic;
    const int scroll = m_browser->verticalScrollBar()->value();
    m_browser->setHtml(html);
    m_browser->verticalScrollBar()->setValue(sameTopic ? scroll : 0);
    m_shownTopic = m_topic;
}

QString TeachingPanel::topicHtml(Topic topic) const {
    switch (topic) {
        case Topic::Algorithm:
            return algorithmHtml();
        case Topic::Privacy:
            return privacyHtml();
        case Topic::Lambda:
            return lambdaHtml();
        case Topic::Fairness:
            return fairnessHtml();
        case Topic::Data:
            return dataHtml();
    }
    return {};
}

namespace {
QString heading(const QString& title) {
    return QStringLiteral("<h3 style=\"margin-bottom:4px; color:#1f4e79;\">%1</h3>").arg(title);
}
QString para(const QString& text) {
    return QStringLiteral("<p style=\"margin-top:2px; margin-bottom:6px;\">%1</p>").arg(text);
}
}  // namespace

QString TeachingPanel::algorithmHtml() const {
    const pfa::Algorithm* algorithm = algorithmNamed(m_config.algorithm);
    const QString name = QString::fromStdString(m_config.algorithm);
    QString html = heading(tr("The algorithm: %1").arg(name));
    if (!algorithm) return html + para(tr("No algorithm of this name is known."));
    const QString words = QString::fromStdString(algorithm->presentation().plainWords);
    html += para(words.isEmpty() ? QString::fromStdString(algorithm->description()).toHtmlEscaped()
                                 : words);
    const pfa::AlgorithmCapabilities caps = algorithm->capabilities();
    QStringList traits;
    traits << (caps.privacy ? tr("private (ε, δ)") : tr("not private"))
           << (caps.fairness ? tr("fairness term λ·ERMI") : tr("no fairness term"))
           << (caps.training == pfa::TrainingStyle::Steps ? tr("trains in steps (live curves)")
                                                          : tr("fits in one go"));
    html += para(tr("<i>In short:</i> %1.").arg(traits.join(QStringLiteral(" · "))));
    return html;
}

QString TeachingPanel::privacyHtml() const {
    QString html = heading(tr("ε and δ: the privacy promise"));
    const pfa::Algorithm* algorithm = algorithmNamed(m_config.algorithm);
    const bool privateAlgorithm = algorithm && algorithm->supportsPrivacy();
    if (!privateAlgorithm || !m_config.isPrivate()) {
        html += para(privateAlgorithm
                         ? tr("ε = ∞: this run makes <b>no privacy promise</b>. The model may "
                              "reveal whether a given person's row was in the training data.")
                         : tr("%1 is <b>not private</b>: it makes no promise about what the model "
                              "reveals of the people in the training data. Choose DP-FERMI or "
                              "DP-SGD for a guarantee.")
                               .arg(QString::fromStdString(m_config.algorithm)));
        return html;
    }
    const QString rowName =
        m_data ? QString::fromStdString(m_data->split.train.unitName) : QStringLiteral("record");
    const pfa::AlgorithmCapabilities caps = algorithm->capabilities();
    // δ: the run's resolved value once it started with these settings, else the chosen one.
    const bool runMatches = haveRun() && m_runConfig.algorithm == m_config.algorithm &&
                            m_runConfig.epsilon == m_config.epsilon;
    double delta = m_config.delta;
    if (delta <= 0 && runMatches) delta = m_runConfig.delta;
    const QString deltaText =
        delta > 0 ? tr("δ = %1").arg(probability(delta))
                  : tr("δ (automatic: 1/n² for n training units, fixed when the run starts)");
    // What the odds are about: presence (add/remove-one), which of two records (replace-one),
    // or a record's sensitive value (only the sensitive attribute protected).
    const bool sensitiveOnly = m_config.scope == pfa::ProtectionScope::SensitiveOnly &&
                               pfa::readsParameter(*algorithm, "scope");
    const QString forced = forcedAdjacencyReason(m_config);
    const bool replace =
        !forced.isEmpty() || m_config.adjacency == pfa::privacy::Adjacency::Replace;
    const QString question =
        sensitiveOnly ? tr("a given training %1's <b>sensitive attribute</b> (which group it is "
                           "in)")
                            .arg(rowName.toHtmlEscaped())
        : replace ? tr("which of two possible %1s a given person contributed (theirs, or any "
                       "other in its place)")
                        .arg(rowName.toHtmlEscaped())
                  : tr("whether a given person is in the training data");
    html +=
        para(tr("Whatever an attacker sees of the model, their odds of telling %1 change by at "
                "most a factor <b>e<sup>ε</sup> = %2</b> (target ε = %3), except with "
                "probability %4.")
                 .arg(question, oddsFactor(m_config.epsilon), num(m_config.epsilon), deltaText));
    // The spent ε: only what the accountant certified for the run shown.
    if (haveRun() && m_runConfig.isPrivate()) {
        const bool certifiedFinal = m_finished && m_finished->result.privacy.isPrivate;
        const double spent = certifiedFinal ? m_finished->result.privacy.epsilonSpent
                             : m_latest     ? m_latest->epsilonSpent
                                            : std::numeric_limits<double>::quiet_NaN();
        if (std::isfinite(spent)) {
            const QString when = certifiedFinal ? tr("run %1, finished").arg(m_runId)
                                 : m_latest     ? tr("run %1, after epoch %2, %3 steps")
                                                  .arg(m_runId)
                                                  .arg(m_latest->epoch)
                                                  .arg(m_latest->step)
                                            : QString();
            html += para(tr("<b>Spent</b> (certified by the accountant, %1): ε = <b>%2</b> → "
                            "factor e<sup>ε</sup> = %3, at δ = %4.")
                             .arg(when, num(spent), oddsFactor(spent),
                                  probability(certifiedFinal ? m_finished->result.privacy.delta
                                                             : m_runConfig.delta)));
        } else if (m_running) {
            html += para(tr("<b>Spent</b>: the accountant reports the ε of run %1 after its first "
                            "epoch.")
                             .arg(m_runId));
        }
    }
    QString unit = unitWords(caps.unit, rowName.toHtmlEscaped());
    if (sensitiveOnly) {
        unit +=
            tr(" — but only its <b>sensitive attribute</b>: features and labels are treated as "
               "public");
    }
    html += para(tr("<i>Protected unit:</i> %1.").arg(unit));
    html += para(
        replace
            ? tr("<i>Neighbouring data sets:</i> <b>replace one</b> — %1")
                  .arg(sensitiveOnly ? tr("they differ in one %1's sensitive value. A replacement "
                                          "moves a sum up to twice as far as adding or removing a "
                                          "%1, so it needs about twice the noise at the same ε.")
                                           .arg(rowName.toHtmlEscaped())
                       : forced.isEmpty() ? tr("they differ in the values of one %1 (chosen in "
                                               "Advanced).")
                                                .arg(rowName.toHtmlEscaped())
                                          : forced.toHtmlEscaped())
            : tr("<i>Neighbouring data sets:</i> <b>add or remove one</b> %1 (its presence "
                 "or absence is what is protected).")
                  .arg(rowName.toHtmlEscaped()));
    if (m_finished && m_finished->id == m_runId && m_finished->result.privacy.isPrivate) {
        // What the run's statement says it protects (e.g. DP-FERMI's conservative calibration
        // noises whole records, also under the sensitive-only scope).
        html += para(tr("<i>Run %1 protects:</i> %2 (its privacy statement says so).")
                         .arg(m_finished->id)
                         .arg(m_finished->protectionText().toHtmlEscaped()));
    }
    html +=
        para(tr("<i>Not protected:</i> the test rows behind the displayed test error, "
                "violation and group rates; preprocessing statistics; the training "
                "diagnostics. Every further run on the same data spends more: the privacy "
                "ledger adds them up."));
    return html;
}

QString TeachingPanel::lambdaHtml() const {
    QString html = heading(tr("λ: accuracy against fairness"));
    const pfa::Algorithm* algorithm = algorithmNamed(m_config.algorithm);
    if (!algorithm || !algorithm->usesFairness()) {
        html += para(tr("%1 has no fairness term, so λ is not used. FERMI and DP-FERMI minimise "
                        "<i>loss + λ·ERMI</i>: there λ sets how much fairness counts against "
                        "accuracy.")
                         .arg(QString::fromStdString(m_config.algorithm)));
    } else {
        html += para(tr("The model minimises <i>loss + λ·ERMI</i>. At λ = 0 only accuracy "
                        "counts; a larger λ pushes the gap between the groups down, usually at "
                        "the price of a higher test error. Now: <b>λ = %1</b>.")
                         .arg(num(m_config.lambda)));
    }
    if (m_latest && std::isfinite(m_latest->testError)) {
        const QString source = m_running ? tr("run %1, epoch %2").arg(m_runId).arg(m_latest->epoch)
                                         : tr("run %1, final").arg(m_runId);
        // A finished run's final model (it may be an average of the iterates), else the epoch.
        const double error = m_finished ? m_finished->result.test.error : m_latest->testError;
        const double violation = m_finished ? m_finished->violation() : m_latest->violation;
        html += para(tr("Right now (%1, λ = %2): test error <b>%3</b>, violation <b>%4</b>.")
                         .arg(source, num(m_runConfig.lambda), rate(error), rate(violation)));
    } else {
        html += para(tr("Press Run to see the test error and the violation this λ gives."));
    }
    return html;
}

QString TeachingPanel::fairnessHtml() const {
    const pfa::FairnessNotion notion = m_config.fairness;
    QString html =
        heading(tr("Fairness: %1").arg(QString::fromStdString(pfa::fairnessName(notion))));
    html += para(notionMeaning(notion));
    // The rates behind the gap come from a finished run's test table (the epochs report only
    // the gaps): the run shown once it ended, during a run the last one that finished.
    const bool sameNotion = haveRun() && m_runConfig.fairness == notion;
    if (m_running && m_latest && sameNotion) {
        html += para(tr("Right now (run %1, epoch %2): gap <b>%3</b>.")
                         .arg(m_runId)
                         .arg(m_latest->epoch)
                         .arg(rate(m_latest->violation)));
    }
    const RunEntryPtr& table = m_lastFinished;
    if (table && table->result.config.fairness == notion && !table->result.test.groups.empty()) {
        const std::vector<pfa::GroupRow>& groups = table->result.test.groups;
        long largest = 0, smallest = groups.front().n;
        for (const pfa::GroupRow& g : groups) {
            largest = std::max(largest, g.n);
            smallest = std::min(smallest, g.n);
        }
        QString lines;
        for (const RateLine& line : ratesOf(notion)) {
            QStringList parts;
            double low = std::numeric_limits<double>::infinity(), high = -low;
            for (const pfa::GroupRow& g : groups) {
                QString label = QString::fromStdString(g.group).toHtmlEscaped();
                // Named by size, unless the data set's own group names already say it.
                const bool named = label.contains(QLatin1String("majority"), Qt::CaseInsensitive) ||
                                   label.contains(QLatin1String("minority"), Qt::CaseInsensitive);
                if (groups.size() == 2 && largest != smallest && !named) {
                    label += g.n == largest ? tr(" (majority)") : tr(" (minority)");
                }
                const double value = line.of(g);
                parts << tr("%1 <b>%2</b>").arg(label, rate(value));
                if (!std::isnan(value)) {
                    low = std::min(low, value);
                    high = std::max(high, value);
                }
            }
            const double lineGap = high >= low ? high - low : std::nan("");
            lines += QStringLiteral("<br>") +
                     tr("%1: %2 → gap <b>%3</b>")
                         .arg(line.name, parts.join(QStringLiteral(", ")), rate(lineGap));
        }
        const QString source =
            table->id == m_runId && !m_running
                ? tr("On these groups right now (run %1, test rows):").arg(table->id)
                : tr("At the end of run %1 (the last finished, λ = %2, test rows):")
                      .arg(table->id)
                      .arg(num(table->result.config.lambda));
        html += para(source + lines);
        html += para(
            tr("Violation of run %1: <b>%2</b>.").arg(table->id).arg(rate(table->violation())));
    } else if (m_running && m_latest && sameNotion) {
        html += para(tr("The rate of each group behind the gap is shown when the run ends."));
    } else if (!(m_running && m_latest && sameNotion)) {
        html += para(tr("Run once to see each group's rate and the gap between them."));
    }
    QString ermi =
        tr("<b>ERMI</b> (exponential Rényi mutual information) measures how much the "
           "predictions depend on the group; it is 0 exactly when they do not depend "
           "on it (for equalized odds and equal opportunity: given the label). FERMI "
           "and DP-FERMI penalise a smooth version of it, which bounds the gap.");
    const double ermiNow = m_finished && sameNotion ? m_finished->result.test.ermiHard(notion)
                           : m_latest && sameNotion ? m_latest->ermiHard
                                                    : std::nan("");
    if (std::isfinite(ermiNow)) ermi += tr(" Now: ERMI = %1.").arg(num(ermiNow));
    html += para(ermi);
    return html;
}

QString TeachingPanel::dataHtml() const {
    QString html = heading(tr("The data"));
    if (!m_data) return html + para(tr("The data set is loading (or could not be loaded)."));
    const pfa::Dataset& train = m_data->split.train;
    html += para(QString::fromStdString(m_data->context.datasetDescription).toHtmlEscaped());
    QStringList sizes;
    const int k = train.numGroups();
    std::vector<long> counts(static_cast<std::size_t>(std::max(k, 0)), 0);
    for (Eigen::Index i = 0; i < train.s.size(); ++i) {
        const int g = train.s(i);
        if (g >= 0 && g < k) ++counts[static_cast<std::size_t>(g)];
    }
    for (int g = 0; g < k; ++g) {
        sizes << tr("%1 (%2 rows)")
                     .arg(QString::fromStdString(train.groupNames[static_cast<std::size_t>(g)])
                              .toHtmlEscaped())
                     .arg(counts[static_cast<std::size_t>(g)]);
    }
    html += para(tr("%1 training rows and %2 test rows. Fairness is measured across the groups "
                    "of %3: %4.")
                     .arg(m_data->context.trainRows)
                     .arg(m_data->context.testRows)
                     .arg(QString::fromStdString(train.sensitiveDescription).toHtmlEscaped(),
                          sizes.join(QStringLiteral(", "))));
    return html;
}

}  // namespace pfa::ui
