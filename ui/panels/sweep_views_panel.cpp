#include "ui/panels/sweep_views_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "core/fairness/fairness_notion.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_spec.h"
#include "core/sweep/theory_rates.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/error_setting_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/charts/unit_spread_view.h"

namespace pfa::ui {

namespace {

using FilterItems = std::vector<std::pair<QString, QVariant>>;

/// Whether a run on data `identity` is shown when the data filter holds `selected`: that data
/// set, or the family of variants it belongs to.
bool showsDataset(const std::string& identity, const std::string& selected) {
    return identity == selected ||
           (pfa::datasetFamilyKey(identity) == selected && selected != identity &&
            selected.find("(*)") != std::string::npos);
}

QVariant itemData(const std::string& value) { return QString::fromStdString(value); }
QVariant itemData(double value) { return value; }

/// Filter-box items for `values`: each one's `label`, with the value itself as the item data.
template <typename T, typename Label>
FilterItems itemsOf(const std::set<T>& values, Label label) {
    FilterItems items;
    for (const T& value : values) items.emplace_back(label(value), itemData(value));
    return items;
}

QString notionLabel(const std::string& code) {
    return QString::fromStdString(pfa::fairnessName(pfa::parseFairnessNotion(code)));
}

/// Refills `box`, keeping the current choice when it is still there (and `keepChoice`), else
/// `fallback`.
void fill(QComboBox* box, const FilterItems& items, int fallback = 0, bool keepChoice = true) {
    const QVariant keep = keepChoice ? box->currentData() : QVariant();
    const QSignalBlocker block(box);
    box->clear();
    for (const auto& [label, data] : items) box->addItem(label, data);
    const int index = keep.isValid() ? box->findData(keep) : -1;
    box->setCurrentIndex(index >= 0 ? index
                                    : std::min(fallback, static_cast<int>(items.size()) - 1));
}

}  // namespace

SweepViewsPanel::SweepViewsPanel(QWidget* parent) : QWidget(parent) {
    m_dataset = new QComboBox();
    m_dataset->setToolTip(tr("Which data set's runs to show"));
    m_notion = new QComboBox();
    m_notion->setToolTip(tr("Which fairness notion's runs to show"));
    m_algorithm = new QComboBox();
    m_algorithm->setToolTip(
        tr("Algorithm shown in the heat map (runs that differ in other "
           "settings than ε, λ and the seed are separate entries)"));
    m_lambda = new QComboBox();
    m_lambda->setToolTip(tr("λ at which the price of privacy is shown"));
    m_metric = new QComboBox();
    m_metric->addItem(tr("test error"), 0);
    m_metric->addItem(tr("violation"), 1);
    m_metric->setToolTip(tr("Quantity shown in the heat map"));
    // Names can be long (own files, "dp-fermi (protects: record, add/remove-one)"): each box
    // is shown at a bounded width, so the panel fits the dock at 1280×720 (the open list is as
    // wide as its longest name).
    for (auto [box, characters] :
         {std::pair{m_dataset, 10}, std::pair{m_notion, 8}, std::pair{m_algorithm, 10},
          std::pair{m_lambda, 4}, std::pair{m_metric, 8}}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(characters);
    }
    auto* references = new QPushButton(tr("Reference points…"));
    references->setToolTip(
        tr("Load published results from a CSV with the columns dataset, method, "
           "fairness, epsilon, lambda, error, violation; they are drawn as hollow "
           "markers next to the curves"));
    connect(references, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Reference points"), QString(),
                                                          tr("CSV files (*.csv);;All files (*)"));
        if (path.isEmpty()) return;
        QString error;
        if (!loadReferencePoints(path, &error))
            QMessageBox::warning(this, tr("Reference points"),
                                 Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
    });
    m_status = new QLabel();
    m_status->setWordWrap(true);  // a long count never sets the panel's width
    // Three short rows of two, so the panel fits a narrow dock (a laptop or a projector).
    auto* filters = new QGridLayout();
    filters->setHorizontalSpacing(6);
    filters->setVerticalSpacing(2);
    const std::pair<QString, QComboBox*> rows[3][2] = {
        {{tr("Data"), m_dataset}, {tr("Notion"), m_notion}},
        {{tr("Algorithm"), m_algorithm}, {tr("λ"), m_lambda}},
        {{tr("Heat map"), m_metric}, {QString(), nullptr}}};
    for (int row = 0; row < 3; ++row) {
        for (int column = 0; column < 2; ++column) {
            const auto& [label, box] = rows[row][column];
            if (!box) continue;
            filters->addWidget(new QLabel(label), row, 2 * column, Qt::AlignRight);
            filters->addWidget(box, row, 2 * column + 1);
        }
    }
    filters->addWidget(references, 2, 2, 1, 2, Qt::AlignRight);
    filters->setColumnStretch(1, 1);
    filters->setColumnStretch(3, 1);
    m_tabs = new QTabWidget();
    m_tradeoff = new TradeoffCurvesView();
    m_price = new PrivacyPriceView();
    m_heat = new HeatMapView();
    m_errorEpsilon = new ErrorEpsilonView();
    m_errorSetting = new ErrorSettingView();
    m_spread = new UnitSpreadView();
    m_tabs->addTab(m_tradeoff, tr("Tradeoff curves"));
    m_tabs->addTab(m_price, tr("Price of privacy"));
    m_tabs->addTab(m_heat, tr("Heat map"));
    m_tabs->addTab(m_errorEpsilon, tr("Error vs ε"));
    m_tabs->addTab(m_errorSetting, tr("Error vs setting"));
    m_tabs->addTab(m_spread, tr("Per-unit spread"));
    m_tabs->setTabToolTip(
        3, tr("Test error (or excess risk) against ε for every algorithm and variant, with the "
              "theory's rate shapes dashed (one constant fitted)"));
    m_tabs->setTabToolTip(
        4, tr("A final metric (test error, excess risk, train loss, gradient norm, …) against any "
              "numeric setting or data knob the sweep varies, with the theory's rate dashed"));
    m_tabs->setTabToolTip(
        5, tr("Test error per silo or per user at each ε (box: middle half of the units, "
              "whiskers: best and worst unit)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_protection = new QLabel();
    m_protection->setObjectName(QStringLiteral("sweepProtection"));
    m_protection->setWordWrap(true);
    m_protection->setVisible(false);
    m_protection->setToolTip(
        tr("The unit of privacy and the adjacency of the runs' guarantees. Runs that differ here "
           "bound different things: their ε are not comparable, and each curve's name says what "
           "its runs protect."));
    layout->addLayout(filters);
    layout->addWidget(m_protection);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_errorSetting) bringUpToDate();
    });
    m_throttle.setSingleShot(true);
    m_throttle.setInterval(300);
    connect(&m_throttle, &QTimer::timeout, this, &SweepViewsPanel::refresh);
    for (QComboBox* box : {m_dataset, m_notion, m_algorithm, m_lambda, m_metric}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] { m_throttle.start(0); });
    }
    // A λ the user picked stays; until then the middle of the grid follows the streaming runs.
    connect(m_lambda, &QComboBox::activated, this, [this] { m_lambdaChosen = true; });
    connect(m_algorithm, &QComboBox::activated, this, [this] { m_mapChosen = true; });
    // A data set or notion the user picked stays until the next sweep starts; until then the
    // views follow the sweep (or the latest run).
    for (QComboBox* box : {m_dataset, m_notion}) {
        connect(box, &QComboBox::activated, this, [this] { m_filterChosen = true; });
    }
    refresh();
}

void SweepViewsPanel::setEntries(const std::vector<RunEntryPtr>& entries) {
    m_points.clear();
    m_pointEntries.clear();
    for (const RunEntryPtr& entry : entries) {
        if (entry->isComplete() && !entry->stoppedByUser) {
            // A run with a curve (post-processing's γ-curve) gives one point per curve value.
            for (pfa::SweepPoint& point :
                 pfa::expandCurvePoints(pfa::sweepPointFromRun(entry->result, entry->context.runKey,
                                                               entry->certifiedEpsilon()),
                                        entry->result.curve, entry->result.config.fairness)) {
                m_points.push_back(std::move(point));
                m_pointEntries.push_back(entry);
            }
        }
    }
    if (!m_throttle.isActive()) m_throttle.start();
}

bool SweepViewsPanel::loadReferencePoints(const QString& path, QString* error) {
    try {
        m_references = pfa::readReferencePoints(path.toStdString());
    } catch (const pfa::InputError& problem) {
        if (error) *error = QString::fromStdString(problem.what());
        return false;
    }
    refreshNow();
    return true;
}

void SweepViewsPanel::followSweep(const QString& datasetKey, const QString& notion) {
    m_followDataset = datasetKey.toStdString();
    m_followNotion = notion.toStdString();
    m_filterChosen = false;
    m_lambdaChosen = false;  // a new grid: its middle λ and largest heat map again
    m_mapChosen = false;
    refreshNow();
}

void SweepViewsPanel::followLatest() {
    m_followDataset.clear();
    m_followNotion.clear();
    m_filterChosen = false;
    refreshNow();
}

QString SweepViewsPanel::shownDataset() const { return m_dataset->currentData().toString(); }
QString SweepViewsPanel::shownNotion() const { return m_notion->currentData().toString(); }

ExportContext SweepViewsPanel::exportContext() const {
    const QString dataset = m_dataset->currentText(), notion = m_notion->currentText();
    ExportContext context;
    QStringList caption{dataset, notion, m_protectionCaption},
        suffix{dataset, m_notion->currentData().toString()};
    caption.removeAll(QString());
    suffix.removeAll(QString());
    context.caption = caption.join(QStringLiteral(" · "));
    context.fileNameSuffix = suffix.join(QLatin1Char('-'));
    return context;
}

double SweepViewsPanel::priceLambda() const { return m_lambda->currentData().toDouble(); }

void SweepViewsPanel::refreshNow() {
    m_throttle.stop();
    refresh();
}

void SweepViewsPanel::refillFilters() {
    // The data set shown: the followed sweep's, else the latest run's, unless the user chose.
    std::string wantedDataset = m_followDataset, wantedNotion = m_followNotion;
    if (wantedDataset.empty() && !m_points.empty()) {
        wantedDataset = m_points.back().datasetKey();
        wantedNotion = m_points.back().fairness;
    }
    // One entry per data-set identity: runs of one name may differ in its options or split,
    // and each gets a front of its own. The name labels it unless two identities share it.
    std::map<std::string, std::string> datasets;  // identity → name
    std::map<std::string, int> names;
    for (const pfa::SweepPoint& p : m_points) {
        if (datasets.emplace(p.datasetKey(), p.dataset).second) ++names[p.dataset];
    }
    FilterItems datasetItems;
    // Data sets that differ only in their generator's knobs (a preset's data axes) are also
    // offered together, so that a view can plot against the knob.
    std::map<std::string, std::pair<std::string, int>> families;  // family → (name, members)
    for (const auto& [identity, name] : datasets) {
        const QString label = names[name] > 1
                                  ? QString::fromStdString(pfa::ledgerTitle(identity))
                                  : QString::fromStdString(name.empty() ? identity : name);
        datasetItems.emplace_back(label, QString::fromStdString(identity));
        auto& family = families[pfa::datasetFamilyKey(identity)];
        family.first = name;
        ++family.second;
    }
    for (const auto& [family, member] : families) {
        if (member.second < 2) continue;
        datasetItems.emplace_back(
            tr("%1 — all %2 variants").arg(QString::fromStdString(member.first)).arg(member.second),
            QString::fromStdString(family));
    }
    const bool follow =
        !m_filterChosen &&
        (datasets.count(wantedDataset) > 0 ||
         (families.count(wantedDataset) > 0 && families.at(wantedDataset).second > 1));
    fill(m_dataset, datasetItems, 0, !follow);
    if (follow) {
        const QSignalBlocker block(m_dataset);
        m_dataset->setCurrentIndex(m_dataset->findData(QString::fromStdString(wantedDataset)));
    }
    for (int i = 0; i < m_dataset->count(); ++i) {
        m_dataset->setItemData(i, m_dataset->itemData(i), Qt::ToolTipRole);
    }
    // Notions of the data set shown.
    const std::string dataset = m_dataset->currentData().toString().toStdString();
    std::set<std::string> notions;
    for (const pfa::SweepPoint& p : m_points) {
        if (showsDataset(p.datasetKey(), dataset)) notions.insert(p.fairness);
    }
    const bool followNotion = !m_filterChosen && notions.count(wantedNotion) > 0;
    fill(m_notion, itemsOf(notions, notionLabel), 0, !followNotion);
    if (followNotion) {
        const QSignalBlocker block(m_notion);
        m_notion->setCurrentIndex(m_notion->findData(QString::fromStdString(wantedNotion)));
    }
}

void SweepViewsPanel::refresh() {
    refillFilters();
    const std::string dataset = m_dataset->currentData().toString().toStdString();
    const std::string notion = m_notion->currentData().toString().toStdString();
    std::vector<pfa::SweepPoint> selected;
    std::vector<RunEntryPtr> selectedEntries;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const pfa::SweepPoint& p = m_points[i];
        if (showsDataset(p.datasetKey(), dataset) && p.fairness == notion) {
            selected.push_back(p);
            selectedEntries.push_back(m_pointEntries[i]);
        }
    }
    m_cells = pfa::summarizePoints(selected);
    // The heat map shows one group: one algorithm's cells equal in every setting but ε and λ.
    const std::vector<pfa::SweepGroup> maps =
        pfa::groupCells(m_cells, {"epsilon", "lambda"}, {"algorithm"});
    // Until the user picks one, the largest group (the sweep's grid rather than a stray run).
    std::vector<std::pair<QString, const pfa::SweepGroup*>> mapGroups;
    for (const pfa::SweepGroup& group : maps) {
        QString label = QString::fromStdString(m_cells[group.cells.front()].algorithm);
        if (!group.distinction.empty())
            label += QStringLiteral(" (%1)").arg(QString::fromStdString(group.distinction));
        mapGroups.emplace_back(label, &group);
    }
    std::stable_sort(mapGroups.begin(), mapGroups.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    FilterItems mapItems;
    int largest = 0;
    for (std::size_t i = 0; i < mapGroups.size(); ++i) {
        mapItems.emplace_back(mapGroups[i].first, QString::fromStdString(mapGroups[i].second->key));
        if (mapGroups[i].second->cells.size() >
            mapGroups[static_cast<std::size_t>(largest)].second->cells.size()) {
            largest = static_cast<int>(i);
        }
    }
    fill(m_algorithm, mapItems, largest, m_mapChosen);
    std::vector<pfa::SweepCell> mapCells;
    for (const pfa::SweepGroup& group : maps) {
        if (QString::fromStdString(group.key) != m_algorithm->currentData().toString()) continue;
        for (std::size_t index : group.cells) mapCells.push_back(m_cells[index]);
    }
    std::set<double> lambdas;
    for (const pfa::SweepCell& c : m_cells) lambdas.insert(c.lambda);
    // Until the user picks one, the price of privacy is shown at the middle λ of the grid
    // (λ = 0 alone would hide the fairness term's cost).
    fill(
        m_lambda,
        itemsOf(lambdas,
                [](double lambda) { return QString::fromStdString(pfa::formatNumber(lambda, 4)); }),
        static_cast<int>(lambdas.size()) / 2, m_lambdaChosen);

    const QString notionName = notion.empty() ? QString() : notionLabel(notion);
    std::vector<pfa::ReferencePoint> references;
    // Reference points name the data set (e.g. "adult"), not its identity.
    const std::string datasetName = m_cells.empty() ? std::string() : m_cells.front().dataset;
    for (const pfa::ReferencePoint& r : m_references) {
        if (datasetName.empty() || r.dataset == datasetName) references.push_back(r);
    }
    m_tradeoff->setReferencePoints(references);
    m_tradeoff->setCells(m_cells, notionName);
    m_price->setCells(m_cells, m_lambda->currentData().toDouble(), notionName);
    updateErrorViews(selectedEntries);
    m_heat->setCells(mapCells, m_algorithm->currentText(),
                     m_metric->currentData().toInt() == 0 ? HeatMapView::Metric::TestError
                                                          : HeatMapView::Metric::Violation,
                     notionName);
    // What the runs shown protect: one line, or a warning when they differ.
    // One per run (a run with a curve gives several points).
    std::vector<pfa::RunProtection> protections;
    std::set<const RunEntry*> counted;
    for (const RunEntryPtr& entry : selectedEntries) {
        if (entry && counted.insert(entry.get()).second)
            protections.push_back(pfa::runProtection(entry->result));
    }
    const std::string mixed = pfa::mixedProtectionWarning(protections);
    const std::string shared = pfa::sharedProtectionLabel(protections);
    if (!mixed.empty()) {
        m_protection->setText(tr("⚠ %1 Each curve's name says what its runs protect.")
                                  .arg(QString::fromStdString(mixed)));
        m_protection->setStyleSheet(QStringLiteral("color: #8a1c00; font-weight: 600;"));
    } else {
        m_protection->setText(
            tr("Protects: %1 (every private run shown).").arg(QString::fromStdString(shared)));
        m_protection->setStyleSheet(QStringLiteral("color: #555;"));
    }
    m_protection->setVisible(!mixed.empty() || !shared.empty());
    // A figure says what its private runs protect (as the tradeoff chart's does).
    m_protectionCaption = !mixed.empty()    ? tr("runs of different protection (see the legend)")
                          : !shared.empty() ? tr("protects: %1").arg(QString::fromStdString(shared))
                                            : QString();
    // Runs, not points: a run that traces its own curve (post-processing over γ) gives a point
    // per value but is one run.
    std::size_t points = 0;
    for (const pfa::SweepCell& c : m_cells) points += c.runs;
    const std::size_t runs = counted.size();
    const QString runsText =
        points > runs ? tr("%1 run(s), %2 points (runs that trace a curve give one per value)")
                            .arg(runs)
                            .arg(points)
                      : tr("%1 run(s)").arg(runs);
    m_status->setText(m_cells.empty()
                          ? tr("No finished runs yet.")
                          : tr("%1 in %2 cell(s) (settings that differ only in the seed); "
                               "%3 reference point(s)")
                                .arg(runsText)
                                .arg(m_cells.size())
                                .arg(m_tradeoff->referenceCount()));
}

QString SweepViewsPanel::statusText() const { return m_status->text(); }

void SweepViewsPanel::bringUpToDate() {
    if (!m_settingStale) return;
    m_settingStale = false;
    m_errorSetting->setCells(m_cells, m_settingRates);
}

void SweepViewsPanel::updateErrorViews(const std::vector<RunEntryPtr>& entries) {
    // The theory rate of a cell from its first run (a cell's runs differ only in the seed).
    std::vector<std::optional<pfa::RateShape>> rates;
    for (const pfa::SweepCell& cell : m_cells) {
        const RunEntry& run = *entries[cell.recordIndices.front()];
        rates.push_back(pfa::theoryRate(
            pfa::rateInputsOf(run.result, static_cast<double>(run.context.trainRows))));
    }
    m_errorEpsilon->setCells(m_cells, rates);
    m_settingRates = rates;
    m_settingStale = true;
    if (m_tabs->currentWidget() == m_errorSetting) bringUpToDate();

    // Per-unit spread: one box series per line over ε (as in the error view), one box per ε,
    // the units of all seeds of a cell pooled.
    const std::vector<pfa::SweepGroup> groups =
        pfa::groupCells(m_cells, {"epsilon"}, {"algorithm"});
    std::set<double> epsilons;
    QString kind;
    for (const pfa::SweepCell& cell : m_cells) {
        for (std::size_t index : cell.recordIndices) {
            const pfa::RunResult& r = entries[index]->result;
            if (r.units.empty()) continue;
            epsilons.insert(cell.shownEpsilon());
            const QString own = QString::fromStdString(r.unitKind);
            kind = kind.isEmpty() || kind == own ? own : QStringLiteral("unit");
        }
    }
    const std::vector<double> epsilonList(epsilons.begin(), epsilons.end());
    QStringList categories;
    for (double epsilon : epsilonList) categories << chart_style::epsilonLabel(epsilon);
    std::vector<UnitSpreadView::Series> series;
    int groupIndex = 0;
    for (const pfa::SweepGroup& group : groups) {
        const pfa::SweepCell& first = m_cells[group.cells.front()];
        std::string name = first.algorithm;
        if (!group.distinction.empty()) name += " (" + group.distinction + ")";
        // Colours follow the lines of the error view (same groups, same order).
        UnitSpreadView::Series s{QString::fromStdString(name), compare_palette::color(groupIndex++),
                                 std::vector<std::vector<double>>(epsilonList.size())};
        bool any = false;
        for (std::size_t c : group.cells) {
            const auto at =
                std::find(epsilonList.begin(), epsilonList.end(), m_cells[c].shownEpsilon());
            if (at == epsilonList.end()) continue;
            for (std::size_t index : m_cells[c].recordIndices) {
                for (const pfa::UnitMetrics& unit : entries[index]->result.units) {
                    s.values[static_cast<std::size_t>(at - epsilonList.begin())].push_back(
                        unit.testError);
                    any = true;
                }
            }
        }
        if (any) series.push_back(std::move(s));
    }
    m_spread->setSeries(
        kind, categories, series,
        tr("No per-unit results: these runs' data is not split into silos or users."));
}

std::vector<ChartExportEntry> SweepViewsPanel::exportEntries() {
    const auto entry = [this](QString name, ExportableView* view, const char* stem) {
        return ChartExportEntry{std::move(name), view, QString::fromLatin1(stem),
                                [this] { return exportContext(); },
                                // a view not shown since the last runs came in
                                [this] { bringUpToDate(); }, nullptr};
    };
    return {entry(tr("Sweep: tradeoff curves…"), tradeoffView()->view(), "tradeoff-curves"),
            entry(tr("Sweep: price of privacy, error…"), priceView()->errorView(),
                  "price-of-privacy-error"),
            entry(tr("Sweep: price of privacy, violation…"), priceView()->violationView(),
                  "price-of-privacy-violation"),
            entry(tr("Sweep: heat map…"), heatMap(), "heat-map"),
            entry(tr("Sweep: error vs ε…"), errorEpsilonView()->view(), "error-vs-epsilon"),
            entry(tr("Sweep: error vs setting…"), errorSettingView()->view(), "error-vs-setting"),
            entry(tr("Sweep: per-unit spread…"), unitSpreadView()->view(), "unit-spread")};
}

}  // namespace pfa::ui
