#include "ui/dialogs/privacy_audit_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/audit/audit_export.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_ledger.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/number_list.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/support/worker_priority.h"

namespace pfa::ui {

namespace {

constexpr int kSyntheticRows = 2000;
const QColor kClaimedColor(0x6b, 0x6b, 0x6b);    // neutral grey: what is promised
const QColor kBoundColor(0x00, 0x72, 0xb2);      // blue: what the attack proved
const QColor kViolationColor(0xd5, 0x5e, 0x00);  // vermilion: a proof the claim is false

QString number(double value, int digits = 3) {
    return QString::fromStdString(pfa::formatNumber(value, digits));
}

QTableWidgetItem* cell(const QString& text, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (!tip.isEmpty()) item->setToolTip(tip);
    return item;
}

}  // namespace

PrivacyAuditDialog::PrivacyAuditDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("privacyAuditDialog"));
    setWindowTitle(tr("Privacy audit"));
    setAttribute(Qt::WA_DeleteOnClose, false);

    auto* intro = new QLabel(
        tr("Does a private algorithm keep its promise? The audit trains with and without "
           "<i>canaries</i> (records, or gradients, that the attack looks for) and tries to tell "
           "from what was released which canaries were in. How well that works proves a "
           "<b>lower bound</b> on ε; the accountant's ε is an <b>upper bound</b>. A lower bound "
           "above the claim proves the claim false; one below it is consistent with the claim "
           "but never proves privacy."));
    intro->setWordWrap(true);

    m_target = new QLabel;
    m_target->setObjectName(QStringLiteral("auditTarget"));
    m_target->setWordWrap(true);
    m_target->setTextFormat(Qt::RichText);
    m_builtIn = new QPushButton(tr("Use the built-in data instead"));
    m_builtIn->setToolTip(
        tr("Audit settings chosen here on the built-in synthetic lending data (quick)"));
    connect(m_builtIn, &QPushButton::clicked, this, &PrivacyAuditDialog::clearAuditedRun);

    m_method = new QComboBox;
    m_method->setObjectName(QStringLiteral("auditMethod"));
    const std::pair<pfa::audit::AuditMethod, QString> methods[] = {
        {pfa::audit::AuditMethod::OneRunGradient,
         tr("White box: the run sees gradient canaries; the attack sees every noisy step. The "
            "strongest test of the mechanism (clip bound, sampling, noise, accountant), in "
            "seconds. The rows' own gradients are removed: the data on which the claim is "
            "hardest to keep.")},
        {pfa::audit::AuditMethod::OneRunInput,
         tr("Black box, one run: many records far outside the data, each put in by a coin "
            "flip; the attack sees only the released model(s). Realistic, weaker.")},
        {pfa::audit::AuditMethod::ManyModels,
         tr("Black box, many models: M models with and M without one canary record. The "
            "classic audit; needs thousands of models for a bound near a small ε.")},
    };
    for (const auto& [method, tip] : methods) {
        QString name = QString::fromStdString(pfa::audit::auditMethodName(method));
        name[0] = name[0].toUpper();
        m_method->addItem(name, static_cast<int>(method));
        m_method->setItemData(m_method->count() - 1, tip, Qt::ToolTipRole);
    }
    m_method->setToolTip(
        tr("How the audit attacks (Steinke, Nasr and Jagielski 2023 for the one-run designs); "
           "hover an entry for what it tests"));
    connect(m_method, &QComboBox::currentIndexChanged, this,
            &PrivacyAuditDialog::updateMethodControls);

    m_canaries = new QSpinBox;
    m_canaries->setRange(10, 1000000);
    m_canaries->setSingleStep(1000);
    m_canaries->setValue(10000);
    m_canaries->setGroupSeparatorShown(true);
    m_canaries->setToolTip(
        tr("Canaries in all, each put in with probability ½. The run holds as many as it can "
           "(white box: one per model coordinate; black box: one per 20 training rows); more "
           "canaries take more runs and give a tighter bound."));

    m_algorithm = new QComboBox;
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        const pfa::AlgorithmCapabilities can = algorithm->capabilities();
        if (!can.privacy || can.unit != pfa::PrivacyUnit::Record ||
            can.task != pfa::Task::Classification) {
            continue;
        }
        m_algorithm->addItem(QString::fromStdString(algorithm->name()),
                             QString::fromStdString(algorithm->name()));
        m_algorithm->setItemData(m_algorithm->count() - 1,
                                 QString::fromStdString(algorithm->description()), Qt::ToolTipRole);
    }
    m_algorithm->setCurrentIndex(
        std::max(0, m_algorithm->findData(QString::fromUtf8(audit::kAuditedAlgorithm))));
    m_algorithm->setToolTip(
        tr("The private algorithm to audit (record-level ones only: the audit "
           "adds or removes one record)"));

    // Long method names are elided in the closed box (the list shows them whole).
    for (QComboBox* box : {m_method, m_algorithm}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(16);
    }

    m_epsilons = new QLineEdit(QStringLiteral("1, 4, 16"));
    m_epsilons->setToolTip(tr("Target ε values, separated by commas: each is audited on its own"));

    m_models = new QSpinBox;
    m_models->setRange(4, 100000);
    m_models->setValue(100);
    m_models->setToolTip(
        tr("Models trained per world and per ε: this many without the canary and "
           "as many with it. Half choose the attack's threshold, half measure it; "
           "more models give a tighter bound and take longer."));

    m_epochs = new QSpinBox;
    m_epochs->setRange(1, 1000);
    m_epochs->setValue(40);
    m_epochs->setToolTip(tr("Epochs of every trained model (batch 64)"));

    m_clip = new QDoubleSpinBox;
    m_clip->setRange(0.1, 100.0);
    m_clip->setDecimals(1);
    m_clip->setValue(10.0);
    m_clip->setToolTip(
        tr("Per-example clip norm C: a large clip lets one record move the model, a "
           "sharper test of the claim (the noise grows with it)"));

    m_confidence = new QDoubleSpinBox;
    m_confidence->setRange(0.5, 0.999);
    m_confidence->setDecimals(3);
    m_confidence->setSingleStep(0.01);
    m_confidence->setValue(0.95);
    m_confidence->setToolTip(
        tr("Confidence of the lower bound (Clopper–Pearson, split between the "
           "true- and the false-positive rate)"));

    m_broken = new QCheckBox(tr("Deliberately broken: noise ÷"));
    m_broken->setToolTip(
        tr("For demonstration only: DP-SGD that claims the target ε but adds its "
           "noise divided by this factor. Never available as a normal algorithm."));
    m_divisor = new QDoubleSpinBox;
    m_divisor->setRange(1.5, 1000.0);
    m_divisor->setDecimals(1);
    m_divisor->setValue(10.0);
    m_divisor->setEnabled(false);
    m_divisor->setToolTip(m_broken->toolTip());
    connect(m_broken, &QCheckBox::toggled, this, [this](bool on) {
        m_divisor->setEnabled(on);
        if (on)
            m_algorithm->setCurrentIndex(
                m_algorithm->findData(QString::fromUtf8(audit::kAuditedAlgorithm)));
        m_algorithm->setEnabled(!on && !m_auditedRun);
    });
    auto* brokenRow = new QHBoxLayout;
    brokenRow->addWidget(m_broken);
    brokenRow->addWidget(m_divisor);
    brokenRow->addStretch();

    auto* form = new QFormLayout;
    form->addRow(tr("Method"), m_method);
    form->addRow(tr("Canaries"), m_canaries);
    form->addRow(tr("Algorithm"), m_algorithm);
    form->addRow(tr("Target ε"), m_epsilons);
    form->addRow(tr("Models per world"), m_models);
    form->addRow(tr("Epochs"), m_epochs);
    form->addRow(tr("Clip norm"), m_clip);
    form->addRow(tr("Confidence"), m_confidence);
    form->addRow(brokenRow);

    m_run = new QPushButton(tr("Run audit"));
    m_run->setToolTip(tr("Train the models in the background (all cores); click again to stop"));
    connect(m_run, &QPushButton::clicked, this, &PrivacyAuditDialog::toggleRun);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_status = new QLabel(tr("No audit yet."));
    m_status->setWordWrap(true);

    m_exportCsv = new QPushButton(tr("Export CSV…"));
    m_exportCsv->setToolTip(tr("Save the table's numbers as CSV"));
    m_exportJson = new QPushButton(tr("Export JSON…"));
    m_exportJson->setToolTip(tr("Save the audit (numbers and every canary score) as JSON"));
    m_exportChart = new QPushButton(tr("Export chart…"));
    m_exportChart->setToolTip(tr("Save the chart as PNG, SVG or PDF"));
    for (QPushButton* button : {m_exportCsv, m_exportJson, m_exportChart})
        button->setEnabled(false);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] { exportNumbers(false); });
    connect(m_exportJson, &QPushButton::clicked, this, [this] { exportNumbers(true); });

    auto* left = new QVBoxLayout;
    left->addWidget(intro);
    left->addWidget(m_target);
    left->addWidget(m_builtIn);
    left->addLayout(form);
    left->addWidget(m_run);
    left->addWidget(m_progress);
    left->addWidget(m_status);
    auto* exports = new QHBoxLayout;
    exports->addWidget(m_exportCsv);
    exports->addWidget(m_exportJson);
    exports->addWidget(m_exportChart);
    left->addLayout(exports);
    left->addStretch();

    auto* chart = new QChart;
    chart_style::apply(chart);
    chart->setTitle(tr("Claimed ε and what the attack proved"));
    auto* series = new QBarSeries;
    m_claimedSet = new QBarSet(tr("claimed ε (accountant)"));
    m_claimedSet->setColor(kClaimedColor);
    m_claimedSet->setBorderColor(kClaimedColor);
    m_boundSet = new QBarSet(tr("audit lower bound"));
    m_boundSet->setColor(kBoundColor);
    m_boundSet->setBorderColor(kBoundColor);
    m_boundSet->setSelectedColor(kViolationColor);
    series->append(m_claimedSet);
    series->append(m_boundSet);
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsPrecision(3);
    series->setLabelsFormat(QStringLiteral("@value"));
    for (QBarSet* set : {m_claimedSet, m_boundSet}) {
        set->setLabelColor(Qt::black);
        set->setLabelFont(chart_style::labelFont());
    }
    chart->addSeries(series);
    m_categories = new QBarCategoryAxis;
    chart_style::addAxis(chart, m_categories, Qt::AlignBottom, tr("target ε"));
    m_valueAxis = new QValueAxis;
    chart_style::addAxis(chart, m_valueAxis, Qt::AlignLeft, tr("ε"));
    series->attachAxis(m_categories);
    series->attachAxis(m_valueAxis);
    chart_style::setNiceRange(m_valueAxis, 0.0, 1.0);
    m_view = new ChartView(chart);
    m_view->setEmptyMessage(
        tr("Run the audit to compare the claimed ε with the proved lower bound"));
    m_view->setMinimumSize(520, 340);
    m_view->setToolTip(
        tr("Per target ε: the ε the accountant certifies (grey) and the lower bound "
           "the attack proves at the chosen confidence (blue; orange when it "
           "exceeds the claim)"));
    connect(m_exportChart, &QPushButton::clicked, m_view, &ChartView::exportWithDialog);

    m_table = new QTableWidget(0, 9);
    m_table->setHorizontalHeaderLabels({tr("target ε"), tr("claimed ε"), tr("lower bound"),
                                        tr("TPR"), tr("TPR ≥"), tr("FPR"), tr("FPR ≤"),
                                        tr("models"), tr("seconds")});
    m_table->horizontalHeaderItem(1)->setToolTip(
        tr("The ε the privacy accountant certifies for "
           "exactly the trained configuration"));
    m_table->horizontalHeaderItem(2)->setToolTip(
        tr("ε is at least this, with the chosen confidence, if the mechanism is (ε, δ)-DP"));
    m_table->horizontalHeaderItem(4)->setToolTip(
        tr("One-sided Clopper–Pearson lower bound on TPR"));
    m_table->horizontalHeaderItem(6)->setToolTip(
        tr("One-sided Clopper–Pearson upper bound on FPR"));
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setMinimumHeight(100);

    m_explanation = new QLabel;
    m_explanation->setWordWrap(true);
    m_explanation->setTextFormat(Qt::RichText);

    auto* right = new QVBoxLayout;
    right->addWidget(m_view, 3);
    right->addWidget(m_table, 1);
    // The verdicts and the fine print scroll rather than being cut on a 720-pixel screen.
    auto* explanationScroll = new QScrollArea;
    explanationScroll->setWidget(m_explanation);
    explanationScroll->setWidgetResizable(true);
    explanationScroll->setFrameShape(QFrame::NoFrame);
    explanationScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    explanationScroll->setMinimumHeight(110);
    right->addWidget(explanationScroll);

    auto* layout = new QHBoxLayout(this);
    auto* leftWidget = new QWidget;
    leftWidget->setLayout(left);
    // The controls keep their height on a 720-pixel screen; the column scrolls instead.
    auto* leftScroll = new QScrollArea;
    leftScroll->setWidget(leftWidget);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setFixedWidth(410);
    layout->addWidget(leftScroll);
    layout->addLayout(right, 1);
    resize(1180, 720);
    updateMethodControls();
    updateTarget();
}

void PrivacyAuditDialog::setAuditedRun(const AuditedRun& run) {
    if (m_task.isRunning()) return;
    m_auditedRun = run;
    const pfa::TrainConfig& config = run.config;
    const int index = m_algorithm->findData(QString::fromStdString(config.algorithm));
    if (index >= 0) m_algorithm->setCurrentIndex(index);
    m_epochs->setValue(std::clamp(config.epochs, m_epochs->minimum(), m_epochs->maximum()));
    m_clip->setValue(config.clipTheta);
    m_broken->setChecked(false);
    m_epsilons->setText(QString::fromStdString(pfa::formatNumber(config.epsilon)));
    updateTarget();
}

void PrivacyAuditDialog::clearAuditedRun() {
    if (m_task.isRunning()) return;
    m_auditedRun.reset();
    m_epochs->setValue(40);
    m_clip->setValue(10.0);
    m_algorithm->setCurrentIndex(
        std::max(0, m_algorithm->findData(QString::fromUtf8(audit::kAuditedAlgorithm))));
    updateTarget();
}

void PrivacyAuditDialog::updateTarget() {
    const bool run = m_auditedRun.has_value();
    if (run) {
        const pfa::TrainConfig& config = m_auditedRun->config;
        const pfa::PreparedDataset& data = *m_auditedRun->data;
        m_target->setText(
            tr("<b>Audited:</b> the settings of %1 (%2: %3 epochs, batch %4, clip %5, δ %6) on "
               "its data, %7 (%8 training rows), with canaries added.")
                .arg(m_auditedRun->name.toHtmlEscaped(), QString::fromStdString(config.algorithm),
                     QString::number(config.epochs), QString::number(config.batchSize),
                     number(config.clipTheta), number(config.delta),
                     QString::fromStdString(data.context.datasetDescription).toHtmlEscaped(),
                     QString::number(data.split.train.rows())));
    } else {
        m_target->setText(tr("<b>Audited:</b> the settings below (batch 64) on the built-in "
                             "synthetic lending data, %1 rows (%2 for training). To audit one "
                             "of your runs, right-click its point on the tradeoff chart.")
                              .arg(kSyntheticRows)
                              .arg(kSyntheticRows * 3 / 4));
    }
    m_builtIn->setVisible(run);
    // A run's settings are the run's: shown, not edited.
    m_algorithm->setEnabled(!run && !m_broken->isChecked());
    m_epochs->setEnabled(!run);
    m_clip->setEnabled(!run);
    m_broken->setEnabled(!run);
}

void PrivacyAuditDialog::updateMethodControls() {
    const auto method = static_cast<pfa::audit::AuditMethod>(m_method->currentData().toInt());
    const bool oneRun = pfa::audit::isOneRun(method);
    m_canaries->setEnabled(oneRun);
    m_models->setEnabled(!oneRun);
    // Each design's default: white-box runs are cheap (one holds a canary per coordinate),
    // black-box runs train on the rows (one holds at most one canary per 20 rows).
    m_canaries->setValue(method == pfa::audit::AuditMethod::OneRunInput ? 1000 : 10000);
}

PrivacyAuditDialog::~PrivacyAuditDialog() {
    // The work captures nothing of the dialog but posts to it; stop it and wait, so that no
    // training thread outlives the window it reports to.
    m_task.cancel();
    m_task.waitForFinished();
}

pfa::audit::AuditOptions PrivacyAuditDialog::options() const {
    pfa::audit::AuditOptions options;
    if (m_auditedRun) {
        options.config = m_auditedRun->config;
    } else {
        const std::string algorithm = m_algorithm->currentData().toString().toStdString();
        options.config.algorithm = algorithm.empty() ? audit::kAuditedAlgorithm : algorithm;
        if (!pfa::findAlgorithm(options.config.algorithm).usesFairness())
            options.config.lambda = 0.0;
        options.config.epochs = m_epochs->value();
        options.config.batchSize = 64;
        options.config.clipTheta = m_clip->value();
    }
    options.method = static_cast<pfa::audit::AuditMethod>(m_method->currentData().toInt());
    options.canaries = m_canaries->value();
    options.epsilons = pfa::parseNumberList(m_epsilons->text().toStdString(), false);
    options.modelsPerWorld = m_models->value();
    options.confidence = m_confidence->value();
    options.brokenNoiseDivisor = m_broken->isChecked() ? m_divisor->value() : 1.0;
    options.threads = 0;
    options.seed = 1;
    return options;
}

void PrivacyAuditDialog::toggleRun() {
    if (m_task.isRunning()) {
        m_task.cancel();
        m_status->setText(tr("Stopping…"));
        return;
    }
    pfa::audit::AuditOptions audit;
    try {
        audit = options();
    } catch (const pfa::InputError& error) {
        m_status->setText(tr("Target ε: %1").arg(QString::fromUtf8(error.what())));
        return;
    }
    m_run->setText(tr("Stop audit"));
    m_progress->setValue(0);
    m_status->setText(
        !pfa::audit::isOneRun(audit.method)
            ? tr("Training %1 models…")
                  .arg(2L * audit.modelsPerWorld * static_cast<long>(audit.epsilons.size()))
            : tr("Training with %1 canaries…").arg(audit.canaries));
    const pfa::PreparedDatasetPtr runData = m_auditedRun ? m_auditedRun->data : nullptr;
    m_resultDataset = runData ? QString::fromStdString(runData->context.datasetDescription)
                              : QStringLiteral("synthetic(n=%1)").arg(kSyntheticRows);
    struct Outcome {
        std::optional<pfa::audit::AuditResult> result;
        QString error;
    };
    auto work = [audit, runData, charge = m_charge, this](TaskContext& context) mutable {
        Outcome outcome;
        // The audit's training threads inherit this: they use every core, the GUI still comes
        // first.
        const BelowGuiPriority belowGui;
        try {
            pfa::PreparedDatasetPtr data = runData;
            if (!data) {
                pfa::DatasetRequest request;
                request.knobs<pfa::SyntheticOptions>().rows = kSyntheticRows;
                data = pfa::prepareDataset(request);
            }
            // Every model trained is a private run on the audit's rows: charged to their ledger,
            // in batches (also when the audit stops or fails).
            std::optional<pfa::LedgerChargeBatch> charges;
            if (charge) {
                charges.emplace([charge, data](const std::vector<pfa::privacy::LedgerEntry>& all) {
                    charge(data->context, all);
                });
                audit.onModelTrained = [&charges, data](const pfa::RunResult& model, bool) {
                    charges->add(model, data->context, pfa::runLabel(model.config));
                };
            }
            outcome.result = pfa::audit::runPrivacyAudit(
                audit, data->split, context.cancelToken(), [&](long done, long total) {
                    if (context.progressDue()) {
                        const bool models = !pfa::audit::isOneRun(audit.method);
                        context.post([this, done, total, models] {
                            m_progress->setValue(
                                static_cast<int>(100 * done / std::max(1L, total)));
                            m_status->setText(tr("Trained %1 of %2 %3…")
                                                  .arg(done)
                                                  .arg(total)
                                                  .arg(models ? tr("models") : tr("runs")));
                        });
                    }
                });
            if (charges) charges->flush();
        } catch (const std::exception& error) {
            outcome.error = QString::fromUtf8(error.what());
        }
        return outcome;
    };
    m_task = runInBackground(this, std::move(work), [this](const Outcome& outcome) {
        m_run->setText(tr("Run audit"));
        if (!outcome.error.isEmpty()) {
            m_status->setText(tr("The audit failed: %1").arg(outcome.error));
        } else if (outcome.result) {
            showResult(*outcome.result);
        }
        emit auditFinished();
    });
}

void PrivacyAuditDialog::showResult(const pfa::audit::AuditResult& result) {
    m_result = result;
    m_progress->setValue(result.cancelled ? m_progress->value() : 100);
    const QString confidence = number(100.0 * result.confidence) + QStringLiteral(" %");
    m_status->setText(
        (result.cancelled
             ? tr("Stopped: %1 of the target ε values finished.").arg(result.points.size()) + " "
             : QString()) +
        tr("Canary: %1. The attack scores %2.")
            .arg(QString::fromStdString(result.canary.description),
                 QString::fromStdString(result.score)));

    QStringList categories;
    QList<qreal> claimed, bounds;
    double high = 0.0;
    bool anyViolation = false;
    const bool oneRun = pfa::audit::isOneRun(result.method);
    m_table->setHorizontalHeaderLabels(
        oneRun ? QStringList{tr("target ε"), tr("claimed ε"), tr("lower bound"), tr("guesses"),
                             tr("right"), tr("precision"), tr("canaries in"), tr("runs"),
                             tr("seconds")}
               : QStringList{tr("target ε"), tr("claimed ε"), tr("lower bound"), tr("TPR"),
                             tr("TPR ≥"), tr("FPR"), tr("FPR ≤"), tr("models"), tr("seconds")});
    m_table->setRowCount(static_cast<int>(result.points.size()));
    QStringList lines;
    int row = 0;
    for (const pfa::audit::AuditPoint& p : result.points) {
        categories << chart_style::epsilonLabel(p.targetEpsilon);
        claimed << p.claimedEpsilon;
        bounds << p.epsilonLower;
        high = std::max({high, p.claimedEpsilon, p.epsilonLower});
        anyViolation = anyViolation || p.contradictsClaim();
        m_table->setItem(row, 0, cell(number(p.targetEpsilon)));
        m_table->setItem(row, 1, cell(number(p.claimedEpsilon)));
        QTableWidgetItem* bound = cell(number(p.epsilonLower));
        if (p.contradictsClaim()) bound->setForeground(kViolationColor);
        m_table->setItem(row, 2, bound);
        if (oneRun) {
            m_table->setItem(row, 3,
                             cell(QString::number(p.guesses),
                                  tr("The attack called the %1 highest-scoring canaries members "
                                     "and the %2 lowest-scoring ones non-members (the best of %3 "
                                     "guesses fixed in advance)")
                                      .arg(p.guesses - p.guessedOut)
                                      .arg(p.guessedOut)
                                      .arg(p.guessOptions)));
            m_table->setItem(row, 4, cell(QString::number(p.correctGuesses)));
            m_table->setItem(row, 5,
                             cell(number(p.guesses > 0 ? static_cast<double>(p.correctGuesses) /
                                                             static_cast<double>(p.guesses)
                                                       : 0.0)));
            m_table->setItem(row, 6, cell(tr("%1 of %2").arg(p.canariesIncluded).arg(p.canaries)));
            m_table->setItem(row, 7, cell(QString::number(p.runs)));
        } else {
            m_table->setItem(row, 3,
                             cell(number(p.tpr), tr("%1 of %2 models with the canary flagged")
                                                     .arg(p.truePositives)
                                                     .arg(p.evaluationTrials)));
            m_table->setItem(row, 4, cell(number(p.tprLower)));
            m_table->setItem(row, 5,
                             cell(number(p.fpr), tr("%1 of %2 models without the canary flagged")
                                                     .arg(p.falsePositives)
                                                     .arg(p.evaluationTrials)));
            m_table->setItem(row, 6, cell(number(p.fprUpper)));
            m_table->setItem(row, 7, cell(QString::number(p.modelsTrained)));
        }
        m_table->setItem(row, 8, cell(number(p.seconds, 2)));
        ++row;
        if (p.contradictsClaim()) {
            QString line = tr("%1: the attack proves ε ≥ %2 &gt; claimed %3: this mechanism does "
                              "<b>not</b> deliver its claim.")
                               .arg(chart_style::epsilonLabel(p.targetEpsilon),
                                    number(p.epsilonLower, 2), number(p.claimedEpsilon, 3));
            if (result.broken) {
                line += tr(" (Told the noise it really adds, the accountant would say ε = %1.)")
                            .arg(number(p.actualEpsilon, 3));
            }
            lines << line;
        } else {
            lines << tr("%1: the attack could only prove ε ≥ %2; the accountant claims ε ≤ %3: "
                        "consistent.")
                         .arg(chart_style::epsilonLabel(p.targetEpsilon), number(p.epsilonLower, 2),
                              number(p.claimedEpsilon, 3));
        }
    }
    if (oneRun) {
        lines << tr("<i>Lower bounds at %1 confidence from %2 canaries, each in by a coin flip "
                    "(%3; Steinke, Nasr and Jagielski 2023): an (ε, δ)-private run cannot get "
                    "many more guesses right than randomised response with that ε. The error "
                    "is split over the guess counts tried. A bound below the claim does not "
                    "prove privacy: this attack just could not refute it.</i>")
                     .arg(confidence)
                     .arg(result.canaries)
                     .arg(QString::fromStdString(pfa::audit::auditMethodName(result.method)));
    } else {
        lines << tr("<i>Lower bounds at %1 confidence from %2 models per world (half chose the "
                    "threshold, half measured it). A bound below the claim does not prove "
                    "privacy: this attack just could not refute it.</i>")
                     .arg(confidence)
                     .arg(result.modelsPerWorld);
    }
    m_explanation->setText(lines.join(QStringLiteral("<br>")));

    m_categories->setCategories(categories);
    m_claimedSet->remove(0, m_claimedSet->count());
    m_claimedSet->append(claimed);
    m_boundSet->remove(0, m_boundSet->count());
    m_boundSet->append(bounds);
    // A bound above its claim is drawn in vermilion (the bar set's selected colour).
    m_boundSet->deselectAllBars();
    for (int i = 0; i < static_cast<int>(result.points.size()); ++i) {
        if (result.points[static_cast<std::size_t>(i)].contradictsClaim()) m_boundSet->selectBar(i);
    }
    m_boundSet->setLabel(
        anyViolation
            ? tr("audit lower bound (%1 confidence; orange: above the claim)").arg(confidence)
            : tr("audit lower bound (%1 confidence)").arg(confidence));
    m_view->chart()->setTitle(
        result.broken
            ? tr("DELIBERATELY BROKEN DP-SGD (noise ÷ %1)").arg(number(m_divisor->value()))
            : tr("%1: claimed ε vs. proved lower bound")
                  .arg(QString::fromStdString(result.algorithm)));
    // Room above the tallest bar for its label.
    chart_style::setNiceRange(m_valueAxis, 0.0, std::max(1.0, high * 1.15));
    m_view->setEmpty(result.points.empty());
    for (QPushButton* button : {m_exportCsv, m_exportJson, m_exportChart})
        button->setEnabled(!result.points.empty());
}

QString PrivacyAuditDialog::csvText() const {
    return m_result ? QString::fromStdString(pfa::audit::auditCsv(*m_result)) : QString();
}

QString PrivacyAuditDialog::jsonText() const {
    if (!m_result) return {};
    return QString::fromStdString(pfa::audit::auditJson(*m_result, m_resultDataset.toStdString()));
}

void PrivacyAuditDialog::exportNumbers(bool json) {
    const QString path = QFileDialog::getSaveFileName(
        this, json ? tr("Export audit as JSON") : tr("Export audit as CSV"),
        json ? QStringLiteral("privacy-audit.json") : QStringLiteral("privacy-audit.csv"),
        json ? tr("JSON (*.json)") : tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write((json ? jsonText() + QLatin1Char('\n') : csvText()).toUtf8()) < 0) {
        QMessageBox::warning(this, tr("Export audit"),
                             tr("Could not write %1: %2").arg(path, file.errorString()));
    }
}

}  // namespace pfa::ui
