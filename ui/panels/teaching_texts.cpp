#include "ui/panels/teaching_texts.h"

#include <QObject>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/sweep/sweep_spec.h"
#include "ui/panels/experiment_panel.h"

namespace pfa::ui::teaching_texts {

namespace {

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

QString heading(const QString& title) {
    return QStringLiteral("<h3 style=\"margin-bottom:4px; color:#1f4e79;\">%1</h3>").arg(title);
}
QString para(const QString& text) {
    return QStringLiteral("<p style=\"margin-top:2px; margin-bottom:6px;\">%1</p>").arg(text);
}

}  // namespace

QString algorithmHtml(const TeachingFacts& f) {
    const pfa::Algorithm* algorithm = algorithmNamed(f.config.algorithm);
    const QString name = QString::fromStdString(f.config.algorithm);
    QString html = heading(QObject::tr("The algorithm: %1").arg(name));
    if (!algorithm) return html + para(QObject::tr("No algorithm of this name is known."));
    const QString words = QString::fromStdString(algorithm->presentation().plainWords);
    html += para(words.isEmpty() ? QString::fromStdString(algorithm->description()).toHtmlEscaped()
                                 : words);
    const pfa::AlgorithmCapabilities caps = algorithm->capabilities();
    QStringList traits;
    traits << (caps.privacy ? QObject::tr("private (ε, δ)") : QObject::tr("not private"))
           << (caps.fairness ? QObject::tr("fairness term λ·ERMI")
                             : QObject::tr("no fairness term"))
           << (caps.training == pfa::TrainingStyle::Steps
                   ? QObject::tr("trains in steps (live curves)")
                   : QObject::tr("fits in one go"));
    html += para(QObject::tr("<i>In short:</i> %1.").arg(traits.join(QStringLiteral(" · "))));
    return html;
}

namespace {
/// Who adds the noise (a trust model) and how much each user keeps to themselves
/// (personalisation), for the algorithms that declare them: the same ε means different things.
QString trustHtml(const pfa::Algorithm& algorithm, const pfa::TrainConfig& config) {
    QString html;
    for (const pfa::ParamSpec& spec : algorithm.parameters()) {
        const auto chosen = config.extra.find(spec.name);
        const std::string value = chosen != config.extra.end() ? chosen->second : spec.defaultValue;
        if (spec.name == "trust") {
            QStringList others;
            QString mine;
            for (const pfa::ParamChoice& choice : spec.choices) {
                const QString label = QString::fromStdString(choice.label).toHtmlEscaped();
                if (choice.value == value) {
                    mine = QObject::tr("<b>%1</b> — %2")
                               .arg(label, QString::fromStdString(choice.help).toHtmlEscaped());
                } else {
                    others << label;
                }
            }
            html += para(
                QObject::tr("<i>Who is trusted:</i> %1. The same ε costs more accuracy the less "
                            "is trusted: a trusted server noises the average once; each silo "
                            "noising its own update adds noise at every silo; local DP noises "
                            "every record. Compare them with the setting <i>Trust model</i> "
                            "(also as a sweep axis): %2.")
                    .arg(mine, others.join(QStringLiteral(", "))));
        } else if (spec.name == "personalisation") {
            html += para(
                QObject::tr("<i>Personalisation</i> a = %1: each user keeps a personal model "
                            "that never leaves them and shares a global one, noised. a = 0: "
                            "every user learns alone (nothing released, ε = 0); a = ∞: one "
                            "shared model. In between, the global part carries what users have "
                            "in common, and its noise is all that privacy costs.")
                    .arg(QString::fromStdString(pfa::shortValueText(value)).toHtmlEscaped()));
        }
    }
    return html;
}
}  // namespace

QString privacyHtml(const TeachingFacts& f) {
    QString html = heading(QObject::tr("ε and δ: the privacy promise"));
    const pfa::Algorithm* algorithm = algorithmNamed(f.config.algorithm);
    const bool privateAlgorithm = algorithm && algorithm->supportsPrivacy();
    if (!privateAlgorithm || !f.config.isPrivate()) {
        html += para(
            privateAlgorithm
                ? QObject::tr("ε = ∞: this run makes <b>no privacy promise</b>. The model may "
                              "reveal whether a given person's row was in the training data.")
                : QObject::tr("%1 is <b>not private</b>: it makes no promise about what the model "
                              "reveals of the people in the training data. Choose DP-FERMI or "
                              "DP-SGD for a guarantee.")
                      .arg(QString::fromStdString(f.config.algorithm)));
        return html;
    }
    const QString rowName =
        f.data ? QString::fromStdString(f.data->split.train.unitName) : QStringLiteral("record");
    const pfa::AlgorithmCapabilities caps = algorithm->capabilities();
    // δ: the run's resolved value once it started with these settings, else the chosen one.
    const bool runMatches = f.haveRun() && f.runConfig.algorithm == f.config.algorithm &&
                            f.runConfig.epsilon == f.config.epsilon;
    double delta = f.config.delta;
    if (delta <= 0 && runMatches) delta = f.runConfig.delta;
    const QString deltaText =
        delta > 0
            ? QObject::tr("δ = %1").arg(probability(delta))
            : QObject::tr("δ (automatic: 1/n² for n training units, fixed when the run starts)");
    // What the odds are about: presence (add/remove-one), which of two records (replace-one),
    // or a record's sensitive value (only the sensitive attribute protected).
    const bool sensitiveOnly = f.config.scope == pfa::ProtectionScope::SensitiveOnly &&
                               pfa::readsParameter(*algorithm, "scope");
    const QString forced = forcedAdjacencyReason(f.config);
    const bool replace =
        !forced.isEmpty() || f.config.adjacency == pfa::privacy::Adjacency::Replace;
    const QString question =
        sensitiveOnly ? QObject::tr(
                            "a given training %1's <b>sensitive attribute</b> (which group it is "
                            "in)")
                            .arg(rowName.toHtmlEscaped())
        : replace ? QObject::tr(
                        "which of two possible %1s a given person contributed (theirs, or any "
                        "other in its place)")
                        .arg(rowName.toHtmlEscaped())
                  : QObject::tr("whether a given person is in the training data");
    html += para(
        QObject::tr("Whatever an attacker sees of the model, their odds of telling %1 change by at "
                    "most a factor <b>e<sup>ε</sup> = %2</b> (target ε = %3), except with "
                    "probability %4.")
            .arg(question, oddsFactor(f.config.epsilon), num(f.config.epsilon), deltaText));
    // The spent ε: only what the accountant certified for the run shown.
    if (f.haveRun() && f.runConfig.isPrivate()) {
        const bool certifiedFinal = f.finished && f.finished->result.privacy.isPrivate;
        const double spent = certifiedFinal ? f.finished->result.privacy.epsilonSpent
                             : f.latest     ? f.latest->epsilonSpent
                                            : std::numeric_limits<double>::quiet_NaN();
        if (std::isfinite(spent)) {
            const QString when = certifiedFinal ? QObject::tr("run %1, finished").arg(f.runId)
                                 : f.latest     ? QObject::tr("run %1, after epoch %2, %3 steps")
                                                  .arg(f.runId)
                                                  .arg(f.latest->epoch)
                                                  .arg(f.latest->step)
                                            : QString();
            html +=
                para(QObject::tr("<b>Spent</b> (certified by the accountant, %1): ε = <b>%2</b> → "
                                 "factor e<sup>ε</sup> = %3, at δ = %4.")
                         .arg(when, num(spent), oddsFactor(spent),
                              probability(certifiedFinal ? f.finished->result.privacy.delta
                                                         : f.runConfig.delta)));
        } else if (f.running) {
            html += para(
                QObject::tr("<b>Spent</b>: the accountant reports the ε of run %1 after its first "
                            "epoch.")
                    .arg(f.runId));
        }
    }
    QString unit = unitWords(caps.unit, rowName.toHtmlEscaped());
    if (sensitiveOnly) {
        unit += QObject::tr(
            " — but only its <b>sensitive attribute</b>: features and labels are treated as "
            "public");
    }
    html += para(QObject::tr("<i>Protected unit:</i> %1.").arg(unit));
    html += trustHtml(*algorithm, f.config);
    html += para(
        replace
            ? QObject::tr("<i>Neighbouring data sets:</i> <b>replace one</b> — %1")
                  .arg(sensitiveOnly
                           ? QObject::tr("they differ in one %1's sensitive value. A replacement "
                                         "moves a sum up to twice as far as adding or removing a "
                                         "%1, so it needs about twice the noise at the same ε.")
                                 .arg(rowName.toHtmlEscaped())
                       : forced.isEmpty()
                           ? QObject::tr("they differ in the values of one %1 (chosen in "
                                         "Advanced).")
                                 .arg(rowName.toHtmlEscaped())
                           : forced.toHtmlEscaped())
            : QObject::tr(
                  "<i>Neighbouring data sets:</i> <b>add or remove one</b> %1 (its presence "
                  "or absence is what is protected).")
                  .arg(rowName.toHtmlEscaped()));
    if (f.finished && f.finished->id == f.runId && f.finished->result.privacy.isPrivate) {
        // What the run's statement says it protects (e.g. DP-FERMI's conservative calibration
        // noises whole records, also under the sensitive-only scope).
        html += para(QObject::tr("<i>Run %1 protects:</i> %2 (its privacy statement says so).")
                         .arg(f.finished->id)
                         .arg(f.finished->protectionText().toHtmlEscaped()));
    }
    html +=
        para(QObject::tr("<i>Not protected:</i> the test rows behind the displayed test error, "
                         "violation and group rates; preprocessing statistics; the training "
                         "diagnostics. Every further run on the same data spends more: the privacy "
                         "ledger adds them up."));
    return html;
}

QString lambdaHtml(const TeachingFacts& f) {
    QString html = heading(QObject::tr("λ: accuracy against fairness"));
    const pfa::Algorithm* algorithm = algorithmNamed(f.config.algorithm);
    if (!algorithm || !algorithm->usesFairness()) {
        html += para(
            QObject::tr("%1 has no fairness term, so λ is not used. FERMI and DP-FERMI minimise "
                        "<i>loss + λ·ERMI</i>: there λ sets how much fairness counts against "
                        "accuracy.")
                .arg(QString::fromStdString(f.config.algorithm)));
    } else {
        html += para(
            QObject::tr("The model minimises <i>loss + λ·ERMI</i>. At λ = 0 only accuracy "
                        "counts; a larger λ pushes the gap between the groups down, usually at "
                        "the price of a higher test error. Now: <b>λ = %1</b>.")
                .arg(num(f.config.lambda)));
    }
    if (f.latest && std::isfinite(f.latest->testError)) {
        const QString source =
            f.running ? QObject::tr("run %1, epoch %2").arg(f.runId).arg(f.latest->epoch)
                      : QObject::tr("run %1, final").arg(f.runId);
        // A finished run's final model (it may be an average of the iterates), else the epoch.
        const double error = f.finished ? f.finished->result.test.error : f.latest->testError;
        const double violation = f.finished ? f.finished->violation() : f.latest->violation;
        html +=
            para(QObject::tr("Right now (%1, λ = %2): test error <b>%3</b>, violation <b>%4</b>.")
                     .arg(source, num(f.runConfig.lambda), rate(error), rate(violation)));
    } else {
        html +=
            para(QObject::tr("Press Run to see the test error and the violation this λ gives."));
    }
    return html;
}

QString fairnessHtml(const TeachingFacts& f) {
    const pfa::FairnessNotion notion = f.config.fairness;
    QString html =
        heading(QObject::tr("Fairness: %1").arg(QString::fromStdString(pfa::fairnessName(notion))));
    html += para(notionMeaning(notion));
    // The rates behind the gap come from a finished run's test table (the epochs report only
    // the gaps): the run shown once it ended, during a run the last one that finished.
    const bool sameNotion = f.haveRun() && f.runConfig.fairness == notion;
    if (f.running && f.latest && sameNotion) {
        html += para(QObject::tr("Right now (run %1, epoch %2): gap <b>%3</b>.")
                         .arg(f.runId)
                         .arg(f.latest->epoch)
                         .arg(rate(f.latest->violation)));
    }
    const RunEntryPtr& table = f.lastFinished;
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
                    label +=
                        g.n == largest ? QObject::tr(" (majority)") : QObject::tr(" (minority)");
                }
                const double value = line.of(g);
                parts << QObject::tr("%1 <b>%2</b>").arg(label, rate(value));
                if (!std::isnan(value)) {
                    low = std::min(low, value);
                    high = std::max(high, value);
                }
            }
            const double lineGap = high >= low ? high - low : std::nan("");
            lines += QStringLiteral("<br>") +
                     QObject::tr("%1: %2 → gap <b>%3</b>")
                         .arg(line.name, parts.join(QStringLiteral(", ")), rate(lineGap));
        }
        const QString source =
            table->id == f.runId && !f.running
                ? QObject::tr("On these groups right now (run %1, test rows):").arg(table->id)
                : QObject::tr("At the end of run %1 (the last finished, λ = %2, test rows):")
                      .arg(table->id)
                      .arg(num(table->result.config.lambda));
        html += para(source + lines);
        html += para(QObject::tr("Violation of run %1: <b>%2</b>.")
                         .arg(table->id)
                         .arg(rate(table->violation())));
    } else if (f.running && f.latest && sameNotion) {
        html +=
            para(QObject::tr("The rate of each group behind the gap is shown when the run ends."));
    } else if (!(f.running && f.latest && sameNotion)) {
        html += para(QObject::tr("Run once to see each group's rate and the gap between them."));
    }
    QString ermi = QObject::tr(
        "<b>ERMI</b> (exponential Rényi mutual information) measures how much the "
        "predictions depend on the group; it is 0 exactly when they do not depend "
        "on it (for equalized odds and equal opportunity: given the label). FERMI "
        "and DP-FERMI penalise a smooth version of it, which bounds the gap.");
    const double ermiNow = f.finished && sameNotion ? f.finished->result.test.ermiHard(notion)
                           : f.latest && sameNotion ? f.latest->ermiHard
                                                    : std::nan("");
    if (std::isfinite(ermiNow)) ermi += QObject::tr(" Now: ERMI = %1.").arg(num(ermiNow));
    html += para(ermi);
    return html;
}

QString dataHtml(const TeachingFacts& f) {
    QString html = heading(QObject::tr("The data"));
    if (!f.data)
        return html + para(QObject::tr("The data set is loading (or could not be loaded)."));
    const pfa::Dataset& train = f.data->split.train;
    html += para(QString::fromStdString(f.data->context.datasetDescription).toHtmlEscaped());
    QStringList sizes;
    const int k = train.numGroups();
    std::vector<long> counts(static_cast<std::size_t>(std::max(k, 0)), 0);
    for (Eigen::Index i = 0; i < train.s.size(); ++i) {
        const int g = train.s(i);
        if (g >= 0 && g < k) ++counts[static_cast<std::size_t>(g)];
    }
    for (int g = 0; g < k; ++g) {
        sizes << QObject::tr("%1 (%2 rows)")
                     .arg(QString::fromStdString(train.groupNames[static_cast<std::size_t>(g)])
                              .toHtmlEscaped())
                     .arg(counts[static_cast<std::size_t>(g)]);
    }
    html += para(
        QObject::tr("%1 training rows and %2 test rows. Fairness is measured across the groups "
                    "of %3: %4.")
            .arg(f.data->context.trainRows)
            .arg(f.data->context.testRows)
            .arg(QString::fromStdString(train.sensitiveDescription).toHtmlEscaped(),
                 sizes.join(QStringLiteral(", "))));
    return html;
}

}  // namespace pfa::ui::teaching_texts
