#include "ui/dialogs/sweep_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <utility>

#include "core/algorithms/registry.h"
#include "core/sweep/parameter_json.h"
#include "core/util/cpu_count.h"
#include "core/util/json_value.h"
#include "ui/dialogs/sweep_axis_editor.h"
#include "ui/dialogs/sweep_check.h"
#include "ui/dialogs/sweep_values.h"

namespace pfa::ui {

using sweep_values::joinNumbers;
using sweep_values::logSpaced;

SweepDialog::SweepDialog(const pfa::TrainConfig& base, const QString& datasetTitle, long trainRows,
                         long features, double secondsPerEpoch, QWidget* parent)
    : QDialog(parent),
      m_base(base),
      m_trainRows(trainRows),
      m_features(features),
      m_secondsPerEpoch(secondsPerEpoch) {
    setWindowTitle(tr("New sweep — %1").arg(datasetTitle));
    m_algorithms = new QListWidget();
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        auto* item = new QListWidgetItem(QString::fromStdString(algorithm->name()), m_algorithms);
        item->setToolTip(QString::fromStdString(algorithm->description()));
        item->setCheckState(algorithm->name() == base.algorithm ? Qt::Checked : Qt::Unchecked);
    }
    m_algorithms->setMaximumHeight(110);
    m_algorithms->setToolTip(
        tr("Each checked algorithm runs on the whole grid (non-private ones once "
           "at ε = ∞, ones without a fairness term once at λ = 0)"));
    const char* notionNames[] = {"demographic parity", "equalized odds", "equal opportunity"};
    auto* notionRow = new QHBoxLayout();
    for (int i = 0; i < 3; ++i) {
        m_notions[i] = new QCheckBox(tr(notionNames[i]));
        m_notions[i]->setChecked(static_cast<int>(base.fairness) == i);
        notionRow->addWidget(m_notions[i]);
    }
    m_epsilons = new QLineEdit(joinNumbers({0.5, 1, 3, 9}));
    m_epsilons->setToolTip(
        tr("Privacy budgets, comma-separated; log:FROM:TO:COUNT adds COUNT "
           "log-spaced values from FROM to TO"));
    m_infinity = new QCheckBox(tr("also ε = ∞ (no privacy)"));
    auto* paper = new QPushButton(tr("Paper"));
    paper->setToolTip(tr("0.5, 1, 3, 9: the budgets of the published experiments"));
    auto* log5 = new QPushButton(tr("0.1 … 10 (log)"));
    auto* log8 = new QPushButton(tr("0.05 … 100 (log)"));
    connect(paper, &QPushButton::clicked, this, [this] {
        m_epsilons->setText(joinNumbers({0.5, 1, 3, 9}));
    });
    connect(log5, &QPushButton::clicked, this,
            [this] { m_epsilons->setText(joinNumbers(logSpaced(0.1, 10, 5))); });
    connect(log8, &QPushButton::clicked, this,
            [this] { m_epsilons->setText(joinNumbers(logSpaced(0.05, 100, 8))); });
    auto* epsilonRow = new QHBoxLayout();
    epsilonRow->addWidget(m_epsilons, 1);
    epsilonRow->addWidget(paper);
    epsilonRow->addWidget(log5);
    epsilonRow->addWidget(log8);
    m_lambdas = new QLineEdit(joinNumbers({0, 0.5, 1, 2, 4, 8}));
    m_lambdas->setToolTip(
        tr("Fairness weights, comma-separated. log:FROM:TO:COUNT adds COUNT "
           "values log-spaced from FROM to TO (e.g. 0, log:0.01:1000:11), "
           "lin:FROM:TO:COUNT evenly spaced ones; generated values have 4 "
           "significant digits."));
    // λ presets: useful weights span decades (Credit Card equalized odds needs hundreds), so
    // two log-spaced grids beside the published one. They are written as generators, which
    // shows the syntax; the line under the field spells the values out.
    auto* lambdaPaper = new QPushButton(tr("Paper"));
    lambdaPaper->setToolTip(
        tr("0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5: the λ values of the published "
           "demographic-parity experiments"));
    auto* lambdaLog2 = new QPushButton(tr("0.01 … 100 (log)"));
    lambdaLog2->setToolTip(tr("0 and nine values log-spaced from 0.01 to 100 (two per decade)"));
    auto* lambdaLog7 = new QPushButton(tr("10⁻³ … 10⁴ (log)"));
    lambdaLog7->setToolTip(
        tr("0 and one value per decade from 0.001 to 10000: a first look at a "
           "new data set or fairness notion"));
    connect(lambdaPaper, &QPushButton::clicked, this, [this] {
        m_lambdas->setText(joinNumbers({0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5}));
    });
    connect(lambdaLog2, &QPushButton::clicked, this,
            [this] { m_lambdas->setText(QStringLiteral("0, log:0.01:100:9")); });
    connect(lambdaLog7, &QPushButton::clicked, this,
            [this] { m_lambdas->setText(QStringLiteral("0, log:0.001:10000:8")); });
    // The ε and λ preset buttons line up in columns, and so do the ends of the two fields.
    for (const auto& column : {std::pair{paper, lambdaPaper}, std::pair{log5, lambdaLog2},
                               std::pair{log8, lambdaLog7}}) {
        const int width =
            std::max(column.first->sizeHint().width(), column.second->sizeHint().width());
        column.first->setMinimumWidth(width);
        column.second->setMinimumWidth(width);
    }
    auto* lambdaRow = new QHBoxLayout();
    lambdaRow->addWidget(m_lambdas, 1);
    lambdaRow->addWidget(lambdaPaper);
    lambdaRow->addWidget(lambdaLog2);
    lambdaRow->addWidget(lambdaLog7);
    m_lambdaValues = new QLabel();
    m_lambdaValues->setTextFormat(Qt::PlainText);
    m_lambdaValues->setForegroundRole(QPalette::PlaceholderText);
    m_seedFrom = new QSpinBox();
    m_seedTo = new QSpinBox();
    for (QSpinBox* box : {m_seedFrom, m_seedTo}) box->setRange(0, 100000);
    m_seedTo->setValue(4);
    m_seedFrom->setToolTip(
        tr("Every cell of the grid runs once per seed; the views show the mean "
           "and ± one standard deviation over seeds"));
    auto* seedRow = new QHBoxLayout();
    seedRow->addWidget(m_seedFrom);
    seedRow->addWidget(new QLabel(tr("to")));
    seedRow->addWidget(m_seedTo);
    seedRow->addStretch(1);
    m_axis = new SweepAxisEditor();
    m_tuning = new QComboBox();
    m_tuning->addItem(tr("Not covered — each run spends the full ε"),
                      QString::fromStdString(pfa::tuningName(pfa::Tuning::NotCovered)));
    m_tuning->addItem(tr("Split budget — the grid shares each ε"),
                      QString::fromStdString(pfa::tuningName(pfa::Tuning::SplitBudget)));
    m_tuning->addItem(tr("Auto-tune the step — keep the best candidate (not covered)"),
                      QStringLiteral("auto-tune"));
    m_tuning->setToolTip(tr(
        "Every λ value and every extra-axis value is a separate training run on the same "
        "rows, so picking the best of them is not free.\n"
        "Not covered: each run spends the full ε; a model picked among K candidates is only "
        "covered by their composed cost (the privacy ledger's total), and its statement says "
        "so.\n"
        "Split budget: each of the K candidates runs at ε/K, so the whole grid spends ε on the "
        "training rows; views show the grid's ε.\n"
        "Auto-tune (algorithms with a step size gd-step, e.g. diff2, dp-gd): for each ε and seed "
        "the extra axis' values are candidates; each one's step is halved from 1 on a validation "
        "split of the training rows until one survives every round, and the candidate with the "
        "lowest training loss is run on all training rows — one result per ε and seed. Not "
        "covered: its statement gives the ε all the trials compose to."));
    m_epochs = new QSpinBox();
    m_epochs->setRange(1, 100000);
    m_epochs->setValue(base.epochs);
    m_threads = new QSpinBox();
    // The CPUs this process may use (a job's allocation, a taskset), not every core.
    const int cores = pfa::availableCpus();
    m_threads->setRange(1, std::max(64, cores));
    m_threads->setValue(cores);
    m_threads->setToolTip(tr("Runs trained at the same time (one per core is fastest)"));
    m_file = new QLineEdit(sweep_values::newResultsFile(QStringLiteral("sweep")));
    m_file->setToolTip(
        tr("Every finished run is appended here at once; starting a sweep on a file "
           "that already holds some of its runs resumes it"));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Results file"), m_file->text(),
                                                          tr("JSON lines (*.jsonl)"), nullptr,
                                                          QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) m_file->setText(path);
    });
    auto* fileRow = new QHBoxLayout();
    fileRow->addWidget(m_file, 1);
    fileRow->addWidget(browse);
    m_summary = new QLabel();
    m_summary->setTextFormat(Qt::RichText);  // problems are escaped: they quote typed text
    m_summary->setWordWrap(true);

    auto* form = new QFormLayout();
    form->addRow(tr("Algorithms"), m_algorithms);
    form->addRow(tr("Fairness"), notionRow);
    form->addRow(tr("ε values"), epsilonRow);
    form->addRow(QString(), m_infinity);
    form->addRow(tr("λ values"), lambdaRow);
    form->addRow(QString(), m_lambdaValues);
    form->addRow(tr("Seeds"), seedRow);
    form->addRow(tr("Extra axis"), m_axis);
    form->addRow(tr("Tuning cost"), m_tuning);
    form->addRow(tr("Epochs"), m_epochs);
    form->addRow(tr("Threads"), m_threads);
    form->addRow(tr("Results file"), fileRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_start = buttons->addButton(tr("Start sweep"), QDialogButtonBox::AcceptRole);
    m_cluster = buttons->addButton(tr("Run on a cluster…"), QDialogButtonBox::ActionRole);
    connect(m_cluster, &QPushButton::clicked, this, [this] {
        saveGrid();
        emit clusterRequested();
    });
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    for (QLineEdit* edit : {m_epsilons, m_lambdas, m_file}) {
        connect(edit, &QLineEdit::textChanged, this, &SweepDialog::updateSummary);
    }
    for (QSpinBox* box : {m_seedFrom, m_seedTo, m_epochs, m_threads}) {
        connect(box, &QSpinBox::valueChanged, this, &SweepDialog::updateSummary);
    }
    connect(m_infinity, &QCheckBox::toggled, this, &SweepDialog::updateSummary);
    connect(m_axis, &SweepAxisEditor::changed, this, &SweepDialog::updateSummary);
    connect(m_tuning, &QComboBox::currentIndexChanged, this, &SweepDialog::updateSummary);
    connect(m_algorithms, &QListWidget::itemChanged, this, &SweepDialog::updateSummary);
    for (QCheckBox* box : m_notions)
        connect(box, &QCheckBox::toggled, this, &SweepDialog::updateSummary);
    resize(720, sizeHint().height());
    // The grid of the last sweep started here comes back (a preset, applied after, replaces it).
    restoreGrid();
    connect(this, &QDialog::accepted, this, &SweepDialog::saveGrid);
    updateSummary();
}

namespace {
const QString kGridGroup = QStringLiteral("sweepDialog");
const char* const kNotionCodes[] = {"dp", "eo", "eopp"};  // the order of the notion boxes
}  // namespace

void SweepDialog::saveGrid() const {
    QSettings settings;
    settings.beginGroup(kGridGroup);
    QStringList algorithms, notions;
    for (int i = 0; i < m_algorithms->count(); ++i) {
        if (m_algorithms->item(i)->checkState() == Qt::Checked)
            algorithms << m_algorithms->item(i)->text();
    }
    for (int i = 0; i < 3; ++i) {
        if (m_notions[i]->isChecked()) notions << QString::fromLatin1(kNotionCodes[i]);
    }
    settings.setValue(QStringLiteral("algorithms"), algorithms);
    settings.setValue(QStringLiteral("notions"), notions);
    settings.setValue(QStringLiteral("epsilons"), m_epsilons->text());
    settings.setValue(QStringLiteral("infinity"), m_infinity->isChecked());
    settings.setValue(QStringLiteral("lambdas"), m_lambdas->text());
    settings.setValue(QStringLiteral("seedFrom"), m_seedFrom->value());
    settings.setValue(QStringLiteral("seedTo"), m_seedTo->value());
    settings.setValue(QStringLiteral("axis"), m_axis->parameter());
    settings.setValue(QStringLiteral("axisValues"), m_axis->valuesEdit()->text());
    settings.setValue(QStringLiteral("tuning"), m_tuning->currentData().toString());
}

void SweepDialog::restoreGrid() {
    QSettings settings;
    settings.beginGroup(kGridGroup);
    if (!settings.contains(QStringLiteral("epsilons"))) return;  // no sweep started yet
    // Names that no longer exist (an algorithm removed since) are skipped; when none is left,
    // the experiment panel's choice stays.
    const QStringList algorithms = settings.value(QStringLiteral("algorithms")).toStringList();
    bool anyAlgorithm = false;
    for (int i = 0; i < m_algorithms->count(); ++i)
        anyAlgorithm |= algorithms.contains(m_algorithms->item(i)->text());
    if (anyAlgorithm) {
        for (int i = 0; i < m_algorithms->count(); ++i) {
            QListWidgetItem* item = m_algorithms->item(i);
            item->setCheckState(algorithms.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    const QStringList notions = settings.value(QStringLiteral("notions")).toStringList();
    bool anyNotion = false;
    for (const char* code : kNotionCodes) anyNotion |= notions.contains(QString::fromLatin1(code));
    if (anyNotion) {
        for (int i = 0; i < 3; ++i)
            m_notions[i]->setChecked(notions.contains(QString::fromLatin1(kNotionCodes[i])));
    }
    m_epsilons->setText(settings.value(QStringLiteral("epsilons")).toString());
    m_infinity->setChecked(settings.value(QStringLiteral("infinity"), false).toBool());
    m_lambdas->setText(settings.value(QStringLiteral("lambdas"), m_lambdas->text()).toString());
    m_seedFrom->setValue(settings.value(QStringLiteral("seedFrom"), m_seedFrom->value()).toInt());
    m_seedTo->setValue(settings.value(QStringLiteral("seedTo"), m_seedTo->value()).toInt());
    m_axis->setAxis(settings.value(QStringLiteral("axis")).toString(),
                    settings.value(QStringLiteral("axisValues")).toString());
    const int tuning = m_tuning->findData(settings.value(QStringLiteral("tuning")).toString());
    if (tuning >= 0) m_tuning->setCurrentIndex(tuning);
}

void SweepDialog::applyPreset(const pfa::SweepPreset& preset) {
    setWindowTitle(tr("Preset — %1").arg(QString::fromStdString(preset.title)));
    for (int i = 0; i < m_algorithms->count(); ++i) {
        QListWidgetItem* item = m_algorithms->item(i);
        const bool chosen = std::find(preset.spec.algorithms.begin(), preset.spec.algorithms.end(),
                                      item->text().toStdString()) != preset.spec.algorithms.end();
        item->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
    }
    for (int i = 0; i < 3; ++i) {
        const auto notion = static_cast<pfa::FairnessNotion>(i);
        m_notions[i]->setChecked(std::find(preset.spec.notions.begin(), preset.spec.notions.end(),
                                           notion) != preset.spec.notions.end());
    }
    std::vector<double> finite;
    bool infinite = false;
    for (double e : preset.spec.epsilons) {
        if (std::isinf(e))
            infinite = true;
        else
            finite.push_back(e);
    }
    m_epsilons->setText(joinNumbers(finite));
    m_infinity->setChecked(infinite);
    m_lambdas->setText(joinNumbers(preset.spec.lambdas));
    m_seedFrom->setValue(static_cast<int>(preset.spec.seeds.front()));
    m_seedTo->setValue(static_cast<int>(preset.spec.seeds.back()));
    m_epochs->setValue(preset.spec.base.epochs);
    m_base = preset.spec.base;
    m_algorithmConfig = preset.spec.algorithmConfig;
    m_dataAxes = preset.dataAxes;
    m_dataVariants = preset.dataVariants;
    m_axis->applyPreset(preset.spec.axes);
    m_tuning->setCurrentIndex(
        m_tuning->findData(QString::fromStdString(pfa::tuningName(preset.spec.tuning))));
    m_summary->setToolTip(QString::fromStdString(preset.source));
    updateSummary();
}

pfa::SweepSpec SweepDialog::spec() const {
    pfa::SweepSpec spec;
    spec.datasets.clear();
    spec.base = m_base;
    spec.base.epochs = m_epochs->value();
    spec.algorithmConfig = m_algorithmConfig;
    spec.algorithms.clear();
    for (int i = 0; i < m_algorithms->count(); ++i) {
        if (m_algorithms->item(i)->checkState() == Qt::Checked)
            spec.algorithms.push_back(m_algorithms->item(i)->text().toStdString());
    }
    spec.notions.clear();
    for (int i = 0; i < 3; ++i) {
        if (m_notions[i]->isChecked()) spec.notions.push_back(static_cast<pfa::FairnessNotion>(i));
    }
    QString ignored;
    spec.epsilons = sweep_values::parseList(m_epsilons->text(), tr("ε"), true, &ignored);
    if (m_infinity->isChecked()) spec.epsilons.push_back(INFINITY);
    spec.lambdas = sweep_values::parseList(m_lambdas->text(), tr("λ"), false, &ignored);
    spec.seeds.clear();
    for (int s = m_seedFrom->value(); s <= m_seedTo->value(); ++s)
        spec.seeds.push_back(static_cast<std::uint64_t>(s));
    spec.axes = m_axis->axes(&ignored);
    const std::string tuning = m_tuning->currentData().toString().toStdString();
    spec.tuning = tuning == "auto-tune" ? pfa::Tuning::NotCovered : pfa::parseTuning(tuning);
    return spec;
}

bool SweepDialog::autoTune() const {
    return m_tuning->currentData().toString() == QLatin1String("auto-tune");
}

int SweepDialog::threads() const { return m_threads->value(); }
QLineEdit* SweepDialog::axisValuesEdit() const { return m_axis->valuesEdit(); }
QString SweepDialog::resultsFile() const { return m_file->text().trimmed(); }
void SweepDialog::setResultsFile(const QString& path) { m_file->setText(path); }

void SweepDialog::updateSummary() {
    QString problem;
    sweep_check::checkEpsilons(sweep_values::parseList(m_epsilons->text(), tr("ε"), true, &problem),
                               &problem);
    const std::vector<double> lambdas =
        sweep_values::parseList(m_lambdas->text(), tr("λ"), false, &problem);
    m_lambdaValues->setText(sweep_values::expansionText(m_lambdas->text(), lambdas));
    sweep_check::checkLambdas(lambdas, &problem);
    m_axis->axes(&problem);  // for the problems of the values typed
    pfa::SweepSpec spec = this->spec();
    // The caller's data set, or each data set of the preset's data axes: for counting.
    spec.datasets =
        std::vector<std::string>(std::max<std::size_t>(1, m_dataVariants.size()), "current");
    if (spec.algorithms.empty()) problem = tr("Choose at least one algorithm.");
    if (spec.notions.empty()) problem = tr("Choose at least one fairness notion.");
    if (m_seedTo->value() < m_seedFrom->value()) problem = tr("The last seed is below the first.");
    if (resultsFile().isEmpty()) problem = tr("Choose a results file.");
    // δ comes from the experiment panel; the private runs of the grid use it.
    const QString deltaWarning = sweep_check::checkDelta(spec, m_base, m_trainRows, &problem);
    sweep_check::GridSize size;
    if (problem.isEmpty()) size = sweep_check::sizeOf(spec, &problem);
    m_problem = problem;
    m_start->setEnabled(problem.isEmpty());
    m_cluster->setEnabled(problem.isEmpty() && !autoTune());
    m_cluster->setToolTip(
        autoTune() ? tr("Auto-tuned sweeps run here or with pfa-cli train: their trials cannot "
                        "be split into shards yet")
                   : tr("Write this sweep as a Slurm job array (one shard per task) and a merge "
                        "job, as pfa-cli cluster slurm does"));
    if (!problem.isEmpty()) {
        m_summary->setText(sweep_check::problemHtml(problem));
        return;
    }
    m_estimate = sweep_check::estimateSeconds(size.epochs, m_secondsPerEpoch, m_trainRows,
                                              m_features, m_threads->value());
    m_summary->setText(sweep_check::summaryHtml(size.runs, m_estimate, m_threads->value(),
                                                m_secondsPerEpoch > 0, autoTune(), deltaWarning) +
                       presetAxesNote());
}

QString SweepDialog::presetAxesNote() const {
    QStringList axes = m_axis->keptAxesText();
    if (!m_dataVariants.empty()) {
        QStringList knobs;
        for (const std::string& knob : m_dataAxes) knobs << QString::fromStdString(knob);
        axes << tr("the data set's %1 (%2 data sets, generated when the sweep needs them)")
                    .arg(knobs.join(QStringLiteral(", ")))
                    .arg(m_dataVariants.size());
    }
    // The preset's settings for one algorithm only (PF-LD's epochs, the reductions' rounds): not
    // in the form's fields, so named here.
    QStringList own;
    for (const auto& [algorithm, settings] : m_algorithmConfig) {
        if (!settings.isObject() || settings.members().empty()) continue;
        QStringList values;
        for (const auto& [name, value] : settings.members()) {
            // As the setting reads it (the preset was checked when it was read).
            const pfa::ParamSpec* spec = pfa::findParameter(name);
            const std::string text =
                spec ? pfa::shortValueText(pfa::parameterTextFromJson(*spec, value)) : "?";
            values << QStringLiteral("%1 %2").arg(QString::fromStdString(name),
                                                  QString::fromStdString(text));
        }
        own << QStringLiteral("%1 (%2)").arg(QString::fromStdString(algorithm),
                                             values.join(QStringLiteral(", ")));
    }
    QString note;
    if (!axes.isEmpty()) {
        note += QStringLiteral("<br>") + tr("Also swept, as the preset says: %1")
                                             .arg(axes.join(QStringLiteral("; ")))
                                             .toHtmlEscaped();
    }
    if (!own.isEmpty()) {
        note += QStringLiteral("<br>") + tr("Settings of one algorithm only, from the preset: %1")
                                             .arg(own.join(QStringLiteral("; ")))
                                             .toHtmlEscaped();
    }
    return note;
}

}  // namespace pfa::ui
