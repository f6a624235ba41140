#include "ui/charts/tradeoff_chart.h"

#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/sweep/tradeoff_model.h"
#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/tradeoff_datasets.h"
#include "ui/charts/tradeoff_legend.h"
#include "ui/charts/tradeoff_points.h"
#include "ui/runs/run_variants.h"

namespace pfa::ui {

namespace {

constexpr pfa::FairnessNotion kNotions[] = {pfa::FairnessNotion::DemographicParity,
                                            pfa::FairnessNotion::EqualizedOdds,
                                            pfa::FairnessNotion::EqualOpportunity};

/// Algorithms without a fairness term are baselines for every notion: their test metrics
/// hold every notion's violation.
QString notionName(pfa::FairnessNotion notion) {
    return QString::fromStdString(pfa::fairnessName(notion));
}

/// The constant classifier's level: grey, dotted (the Pareto front is dashed).
QPen constantPen() { return QPen(QColor(110, 110, 110), 1.6, Qt::DotLine); }

/// Within this many pixels of a point, the pointer is "on" it (tooltips).
constexpr double kHitRadius = 10.0;

}  // namespace

TradeoffChart::TradeoffChart(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart();
    m_chart->setTitle(tr("Accuracy–fairness tradeoff"));
    chart_style::apply(m_chart);
    // Qt's legend elides labels when space runs out; ours wraps them onto more rows.
    m_chart->legend()->hide();
    m_x = new QValueAxis();
    m_y = new QValueAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, tr("fairness violation (test set)"));
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, tr("test error"));

    m_drawn = new TradeoffPoints(m_chart, m_x, m_y, this);
    m_live = new QScatterSeries();
    m_live->setName(tr("running"));
    m_live->setMarkerSize(16);
    m_live->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_live->setColor(Qt::white);
    m_chart->addSeries(m_live);
    m_live->attachAxis(m_x);
    m_live->attachAxis(m_y);

    m_constant = new QLineSeries();
    m_constant->setName(tr("constant classifier"));
    m_constant->setPen(constantPen());
    m_chart->addSeries(m_constant);
    m_constant->attachAxis(m_x);
    m_constant->attachAxis(m_y);
    // Its point, at violation 0: on the plot's edge, where a fair run's point would be.
    m_constantPoint = new QScatterSeries();
    m_constantPoint->setName(tr("constant classifier (point)"));
    m_constantPoint->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_constantPoint->setMarkerSize(12);
    m_constantPoint->setColor(Qt::white);
    m_constantPoint->setBorderColor(QColor(110, 110, 110));
    m_constantPoint->setPen(QPen(QColor(110, 110, 110), 2.0));
    m_chart->addSeries(m_constantPoint);
    m_constantPoint->attachAxis(m_x);
    m_constantPoint->attachAxis(m_y);

    m_legend = new TradeoffLegend(m_chart, this);
    // A click on an algorithm's legend entry hides its points, and the axes fit the rest;
    // another click shows them again.
    connect(m_legend, &TradeoffLegend::algorithmClicked, this, [this](const QString& name) {
        const std::string algorithm = name.toStdString();
        if (!m_hiddenAlgorithms.erase(algorithm)) m_hiddenAlgorithms.insert(algorithm);
        rebuild();
    });
    // A hovered point shows its settings at once; the view's tooltip event (eventFilter)
    // shows the same text, so the generic chart tooltip never replaces it.
    connect(m_drawn, &TradeoffPoints::pointHovered, this, [this](int id, bool entered) {
        if (!entered) {
            QToolTip::hideText();
            return;
        }
        for (const TradeoffPoints::Point& point : m_drawn->points()) {
            if (point.id == id)
                QToolTip::showText(QCursor::pos(), point.tooltip, m_view->viewport());
        }
    });
    connect(m_drawn, &TradeoffPoints::pointClicked, this, &TradeoffChart::runClicked);

    m_view = new ChartView(m_chart, this);
    m_view->setToolTip(
        tr("One point per finished run of the data set and notion chosen above: "
           "colour = ε (see the colour bar), marker = algorithm. Dashed: Pareto "
           "front (lower-left is better). Hover a point for its settings, click "
           "to select. Right-click to export."));
    m_view->viewport()->installEventFilter(this);
    // Right-click on a point: run it again with more seeds (one run is one draw of the noise).
    m_view->setMenuExtender([this](QMenu* menu, const QPoint& position) {
        if (const int id = runAt(position)) fillPointMenu(menu, id);
    });

    // Which runs are shown: one data set and one notion, so that one front compares like
    // with like.
    m_datasetBox = new QComboBox();
    m_datasetBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_datasetBox->setMinimumContentsLength(9);  // longer names end in "…" (full in the tooltip)
    m_datasetBox->setToolTip(
        tr("The data set whose runs are shown (runs on different data are not "
           "comparable). Follows the experiment panel."));
    m_notionBox = new QComboBox();
    // Narrow enough for the dock at 1280 pixels: "demographic parity" may end in "…".
    m_notionBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_notionBox->setMinimumContentsLength(9);
    for (pfa::FairnessNotion notion : kNotions)
        m_notionBox->addItem(notionName(notion), static_cast<int>(notion));
    m_notionBox->setToolTip(
        tr("The fairness notion shown: runs trained for it, and baselines "
           "without a fairness term measured by it. Follows the experiment panel."));
    m_clearTrail = new QToolButton();
    m_clearTrail->setText(tr("Clear trail"));
    m_clearTrail->setToolTip(
        tr("Remove the trail of live-mode runs from this chart (the runs stay "
           "in the run history)"));
    m_clearTrail->setEnabled(false);
    connect(m_clearTrail, &QToolButton::clicked, this, &TradeoffChart::clearTrail);
    auto choose = [this] {
        const pfa::FairnessNotion notion =
            static_cast<pfa::FairnessNotion>(m_notionBox->currentData().toInt());
        showDataset(m_datasetBox->currentData().toString(), notion);
    };
    connect(m_datasetBox, qOverload<int>(&QComboBox::activated), this, choose);
    connect(m_notionBox, qOverload<int>(&QComboBox::activated), this, choose);

    auto* header = new QHBoxLayout();
    header->setContentsMargins(6, 2, 6, 0);
    auto* showing = new QLabel(tr("Showing"));
    showing->setToolTip(m_datasetBox->toolTip());
    header->addWidget(showing);
    header->addWidget(m_datasetBox, 1);
    header->addWidget(m_notionBox, 1);  // whole when there is room, "…" when narrow
    header->addWidget(m_clearTrail);

    m_protection = new QLabel();
    m_protection->setObjectName(QStringLiteral("tradeoffProtection"));
    m_protection->setWordWrap(true);
    m_protection->setContentsMargins(6, 0, 6, 0);
    m_protection->setVisible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(m_protection);
    layout->addWidget(m_view, 1);

    refillBoxes();
    rebuild();
}

QString TradeoffChart::datasetKeyOf(const RunEntry& run) { return tradeoff_datasets::keyOf(run); }

QString TradeoffChart::datasetLabel(const QString& datasetKey) {
    return tradeoff_datasets::label(datasetKey);
}

void TradeoffChart::setRuns(const std::vector<RunEntryPtr>& runs) {
    m_runs.clear();
    for (const RunEntryPtr& run : runs) {
        if (run->isComplete() && !run->stoppedByUser) m_runs.push_back(run);
    }
    // Deleted runs leave the trail (and an undone deletion brings them back as points).
    const auto gone = [this](int id) {
        return std::none_of(m_runs.begin(), m_runs.end(),
                            [id](const RunEntryPtr& r) { return r->id == id; });
    };
    std::erase_if(m_trail, gone);
    std::erase_if(m_cleared, gone);
    if (m_shownDataset.isEmpty() && !m_runs.empty()) {
        // Nothing chosen yet (a chart on its own): the newest run's data set and notion.
        m_shownDataset = datasetKeyOf(*m_runs.back());
        m_shownNotion = m_runs.back()->result.config.fairness;
    }
    refillBoxes();
    rebuild();
}

void TradeoffChart::followExperiment(const QString& datasetKey, pfa::FairnessNotion notion) {
    if (datasetKey == m_followedDataset && notion == m_followedNotion) return;
    m_followedDataset = datasetKey;
    m_followedNotion = notion;
    showDataset(datasetKey, notion);
}

void TradeoffChart::showDataset(const QString& datasetKey, pfa::FairnessNotion notion) {
    if (datasetKey == m_shownDataset && notion == m_shownNotion) return;
    m_shownDataset = datasetKey;
    m_shownNotion = notion;
    refillBoxes();
    rebuild();
}

bool TradeoffChart::isShown(const RunEntry& run) const {
    if (datasetKeyOf(run) != m_shownDataset) return false;
    return run.result.config.fairness == m_shownNotion ||
           !pfa::trainsForNotion(run.result.config.algorithm);
}

bool TradeoffChart::isNamed(const RunEntry& run) const {
    return isShown(run) && !m_cleared.count(run.id) &&
           std::find(m_trail.begin(), m_trail.end(), run.id) == m_trail.end();
}

void TradeoffChart::refillBoxes() {
    // Every data set with runs, and the one shown (possibly without runs yet).
    const QSignalBlocker blockData(m_datasetBox);
    m_datasetBox->clear();
    for (const tradeoff_datasets::BoxItem& item :
         tradeoff_datasets::boxItems(m_runs, m_shownDataset)) {
        m_datasetBox->addItem(item.label, item.key);
        m_datasetBox->setItemData(m_datasetBox->count() - 1, item.toolTip, Qt::ToolTipRole);
    }
    m_datasetBox->setCurrentIndex(m_datasetBox->findData(m_shownDataset));
    m_datasetBox->setEnabled(m_datasetBox->count() > 0);
    const QSignalBlocker blockNotion(m_notionBox);
    m_notionBox->setCurrentIndex(m_notionBox->findData(static_cast<int>(m_shownNotion)));
}

void TradeoffChart::setSelectedRun(int id) {
    m_selectedId = id;
    m_drawn->select(id);
}

void TradeoffChart::setLivePoint(int runId, const QString& datasetKey,
                                 const pfa::TrainConfig& config, double violation, double error) {
    if (!std::isfinite(violation) || !std::isfinite(error)) return;  // never draw NaN/Inf
    const bool wasShown = m_live->count() > 0;
    const bool labelChanged = runId != m_liveRunId || config.lambda != m_liveConfig.lambda ||
                              !(config.epsilon == m_liveConfig.epsilon);
    m_liveRunId = runId;
    m_liveDataset = datasetKey;
    m_liveConfig = config;
    m_livePos = QPointF(violation, error);
    if (datasetKey != m_shownDataset || config.fairness != m_shownNotion) {
        if (wasShown) {
            m_live->clear();
            updateLegend();
        }
        return;
    }
    const QPen ring(m_drawn->palette().color(config.epsilon), 3.0);
    if (m_live->pen() != ring) m_live->setPen(ring);
    m_live->replace(QList<QPointF>{m_livePos});
    if (!wasShown || labelChanged) updateLegend();
    // Keep the live point inside the axes without re-fitting on every epoch.
    if (violation > m_x->max() || error > m_y->max() || error < m_y->min()) rebuild();
    m_view->setEmpty(false);
}

void TradeoffChart::clearLivePoint() {
    m_liveRunId = 0;
    m_live->clear();
    updateLegend();
    m_view->setEmpty(m_drawn->points().empty());
}

void TradeoffChart::setExportMode(bool exporting) {
    if (exporting) {
        m_drawn->hideSelection();
        // A one-column figure with the ε colour bar beside the plot has no room for
        // "… violation (test set)": the axis says what is measured, the caption line names the
        // data set, and every point of this chart is a test-set value.
        m_x->setTitleText(tr("%1 violation").arg(notionName(m_shownNotion)));
    } else {
        m_x->setTitleText(tr("%1 violation (test set)").arg(notionName(m_shownNotion)));
        setSelectedRun(m_selectedId);
    }
}

ExportContext TradeoffChart::exportContext() const {
    // The chart shows one data set and notion at a time: name the ones shown.
    if (m_shownDataset.isEmpty() || m_datasetBox->currentIndex() < 0) return {};
    const QString dataset = m_datasetBox->currentText();
    return {dataset + QStringLiteral(" · ") +
                QString::fromStdString(pfa::fairnessName(m_shownNotion)) +
                m_protections.captionNote(),
            dataset + QLatin1Char('-') + QString::fromStdString(pfa::fairnessCode(m_shownNotion))};
}

bool TradeoffChart::hasLivePoint() const { return m_live->count() > 0; }

void TradeoffChart::addToTrail(int id) {
    if (std::find(m_trail.begin(), m_trail.end(), id) == m_trail.end()) m_trail.push_back(id);
}

void TradeoffChart::clearTrail() {
    if (m_trail.empty()) return;
    m_cleared.insert(m_trail.begin(), m_trail.end());
    m_trail.clear();
    rebuild();
}

void TradeoffChart::forgetTrail() {
    m_trail.clear();
    m_cleared.clear();
    rebuild();
}

int TradeoffChart::trailCount() const { return m_drawn->trailCount(); }

int TradeoffChart::trailLineCount() const { return m_drawn->trailLineCount(); }

int TradeoffChart::pointCount() const {
    return static_cast<int>(m_drawn->points().size()) - trailCount();
}

int TradeoffChart::curveCount() const { return m_drawn->curveCount(); }

QColor TradeoffChart::pointColor(int id) const { return m_drawn->colorOf(id); }

const ChartLegend* TradeoffChart::legend() const { return m_legend->legend(); }

const EpsilonColorBar* TradeoffChart::colorBar() const { return m_legend->colorBar(); }

QPoint TradeoffChart::viewportPosOf(int id) const {
    for (const TradeoffPoints::Point& p : m_drawn->points()) {
        if (p.id != id) continue;
        const QPointF inChart = m_chart->mapToPosition(QPointF(p.x, p.y), m_drawn->frontLine());
        return m_view->mapFromScene(m_chart->mapToScene(inChart));
    }
    return QPoint(-1, -1);
}

QString TradeoffChart::toolTipAt(const QPoint& viewportPos) const {
    QString best;
    double bestDistance = kHitRadius;
    auto consider = [&](const QPointF& value, const QString& text) {
        const QPointF inChart = m_chart->mapToPosition(value, m_drawn->frontLine());
        const QPointF inView = m_view->mapFromScene(m_chart->mapToScene(inChart));
        const double d = std::hypot(inView.x() - viewportPos.x(), inView.y() - viewportPos.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = text;
        }
    };
    for (const TradeoffPoints::Point& p : m_drawn->points()) consider(QPointF(p.x, p.y), p.tooltip);
    if (m_live->count() > 0) {
        consider(m_livePos,
                 tr("Run %1, running — %2, %3, %4\ntest error %5, violation %6 (latest epoch)")
                     .arg(m_liveRunId)
                     .arg(QString::fromStdString(m_liveConfig.algorithm),
                          chart_style::curvePointText(m_liveConfig),
                          chart_style::epsilonLabel(m_liveConfig.epsilon),
                          QString::fromStdString(pfa::formatNumber(m_livePos.y(), 4)),
                          QString::fromStdString(pfa::formatNumber(m_livePos.x(), 4))));
    }
    return best;
}

int TradeoffChart::runAt(const QPoint& viewportPos) const {
    int best = 0;
    double bestDistance = kHitRadius;
    for (const TradeoffPoints::Point& p : m_drawn->points()) {
        const QPointF inChart = m_chart->mapToPosition(QPointF(p.x, p.y), m_drawn->frontLine());
        const QPointF inView = m_view->mapFromScene(m_chart->mapToScene(inChart));
        const double d = std::hypot(inView.x() - viewportPos.x(), inView.y() - viewportPos.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = p.id;
        }
    }
    return best;
}

void TradeoffChart::fillPointMenu(QMenu* menu, int id) {
    QAction* seeds = menu->addAction(tr("Run this point with 4 more seeds"), this,
                                     [this, id] { emit moreSeedsRequested(id); });
    seeds->setObjectName(QStringLiteral("moreSeeds"));
    seeds->setToolTip(
        tr("One run is one draw of the privacy noise (and of the split): the same "
           "settings with seeds +1 … +4 show how far its point moves"));
    QAction* audit = menu->addAction(tr("Audit this run's privacy claim…"), this,
                                     [this, id] { emit auditRequested(id); });
    audit->setObjectName(QStringLiteral("auditRun"));
    audit->setToolTip(
        tr("Test the ε this run claims: the privacy audit trains with its settings on its "
           "data, with canaries added, and proves a lower bound on ε"));
}

bool TradeoffChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view->viewport() && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (!text.isEmpty()) {
            // The point's settings, not the chart's generic help.
            QToolTip::showText(help->globalPos(), text, m_view->viewport());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TradeoffChart::rebuild() {
    // Drop the previous run series (the fixed series stay).
    m_drawn->clear();

    // What to draw, from the Qt-free model (core/sweep/tradeoff_model.h).
    pfa::TradeoffInput input;
    std::map<int, const RunEntry*> entryOf;
    for (const RunEntryPtr& run : m_runs) {
        input.runs.push_back({run->id, &run->result, isShown(*run)});
        entryOf[run->id] = run.get();
    }
    input.trail = m_trail;
    input.cleared = m_cleared;
    // The runs the legend names (shown, neither trail nor cleared), and those of them whose
    // name a legend click hid: left out like cleared runs, so the front and the axes follow
    // what is drawn. Names come from all of them, so they stay put while some are hidden.
    std::vector<const RunEntry*> namedRuns;
    std::vector<const pfa::TrainConfig*> named;
    for (const RunEntryPtr& run : m_runs) {
        if (!isNamed(*run)) continue;
        namedRuns.push_back(run.get());
        named.push_back(&run->result.config);
    }
    const RunVariants names(named);
    std::set<std::string> present;
    for (const pfa::TrainConfig* config : named) present.insert(names.label(*config));
    // Never everything hidden: then the chart would look empty for no visible reason.
    if (std::all_of(present.begin(), present.end(),
                    [&](const std::string& name) { return m_hiddenAlgorithms.count(name); }))
        m_hiddenAlgorithms.clear();
    for (const RunEntry* run : namedRuns) {
        if (m_hiddenAlgorithms.count(names.label(run->result.config)))
            input.cleared.insert(run->id);
    }
    input.notion = m_shownNotion;
    const bool liveShown = m_liveRunId != 0 && m_liveDataset == m_shownDataset &&
                           m_liveConfig.fairness == m_shownNotion;
    if (liveShown) input.live = std::make_pair(m_livePos.x(), m_livePos.y());
    const pfa::TradeoffModel model = pfa::buildTradeoff(input);
    // What the private runs drawn (points and trail) protect: one line, or a warning.
    std::vector<pfa::RunProtection> protections;
    for (const RunEntryPtr& run : m_runs) {
        if (!isShown(*run) || m_cleared.count(run->id)) continue;
        protections.push_back(pfa::runProtection(run->result));
    }
    m_protections = TradeoffProtections(protections);
    m_protections.describeOn(m_protection);

    // Colours by rank among the budgets drawn (EpsilonPalette): neighbours stay apart.
    std::vector<double> budgets;
    for (const RunEntryPtr& run : m_runs) {
        if (isShown(*run) && !m_cleared.count(run->id))
            budgets.push_back(run->result.config.epsilon);
    }
    if (liveShown) budgets.push_back(m_liveConfig.epsilon);
    chart_style::EpsilonPalette palette(budgets);
    const bool newPalette = !(palette == m_drawn->palette());
    m_drawn->setPalette(std::move(palette));

    m_front = model.front;
    m_drawn->draw(model, entryOf, m_protections, named, names);
    m_clearTrail->setEnabled(!m_trail.empty());

    // The live point, if its run belongs to what is shown.
    if (liveShown) {
        m_live->setPen(QPen(m_drawn->palette().color(m_liveConfig.epsilon), 3.0));
        m_live->replace(QList<QPointF>{m_livePos});
    } else if (m_live->count() > 0) {
        m_live->clear();
    }

    // The constant classifier of the data shown (violation 0 under every notion): a point at
    // its level is no achievement, however small its violation.
    m_constantShown = pfa::ConstantBaseline{};
    for (const RunEntryPtr& run : m_runs) {
        if (isShown(*run) && !m_cleared.count(run->id) && run->result.constant.known &&
            !run->result.regression.known) {
            m_constantShown = run->result.constant;
            break;
        }
    }
    double yMin = model.yMin, yMax = model.yMax;
    m_constantAbove = false;
    if (m_constantShown.known && !model.empty()) {
        const double level = m_constantShown.error;
        m_constant->replace(QList<QPointF>{{0.0, level}, {std::max(model.xMax, 1e-3) * 2, level}});
        m_constantPoint->replace(QList<QPointF>{{0.0, level}});
        // Near the points, the range takes the level in; far above them (runs that learned a
        // lot) it would squash them to a line: the legend then gives its value instead.
        if (level <= yMax + 0.25 * (yMax - yMin)) {
            yMax = std::max(yMax, level + 0.01);
            yMin = std::min(yMin, level - 0.01);
        } else {
            m_constantAbove = true;
        }
    } else {
        m_constantShown.known = false;
        if (m_constant->count() > 0) m_constant->clear();
        if (m_constantPoint->count() > 0) m_constantPoint->clear();
    }

    // Explicit axes with some room around the points.
    chart_style::setNiceRange(m_x, 0.0, model.xMax, 5);
    chart_style::setNiceRange(m_y, yMin, yMax, 5);
    m_x->setTitleText(tr("%1 violation (test set)").arg(notionName(m_shownNotion)));
    // The data set is named in the box above the chart (a long name would cut the title short
    // in a narrow dock) and in an export's caption line.
    m_chart->setTitle(tr("Accuracy–fairness tradeoff"));
    if (const int hidden = model.hidden; hidden > 0) {
        m_view->setEmptyMessage(tr("No finished runs on %1 for %2 yet (%3 on other data sets or "
                                   "notions: choose them above).")
                                    .arg(datasetLabel(m_shownDataset), notionName(m_shownNotion),
                                         hidden == 1 ? tr("1 run") : tr("%1 runs").arg(hidden)));
    } else if (std::any_of(m_runs.begin(), m_runs.end(), [&](const RunEntryPtr& run) {
                   return isShown(*run) && run->result.regression.known;
               })) {
        // A regression run has a test MSE and no fairness violation: no point on this chart.
        m_view->setEmptyMessage(
            tr("Regression runs have no fairness violation to plot: their "
               "test MSE and excess risk are in the run details, and error "
               "against ε in the sweep views."));
    } else {
        m_view->setEmptyMessage(
            tr("Finished runs appear here: press Run, then change λ or ε and "
               "run again"));
    }
    m_view->setEmpty(model.empty());
    updateLegend();
    setSelectedRun(m_selectedId);
    if (newPalette) emit paletteChanged(m_drawn->palette());
}

void TradeoffChart::updateLegend() {
    TradeoffLegend::Contents contents;
    const std::vector<TradeoffPoints::Point>& points = m_drawn->points();
    for (const RunEntryPtr& run : m_runs) {
        const auto drawn =
            std::find_if(points.begin(), points.end(),
                         [&](const TradeoffPoints::Point& p) { return p.id == run->id; });
        if (drawn == points.end() || drawn->trail ||
            std::count(m_trail.begin(), m_trail.end(), run->id))
            continue;
        // The algorithm and the own settings that tell its runs apart, with their marker.
        const std::string label = drawn->label.toStdString();
        contents.algorithms.insert({label, mixesProtection() ? m_protections.kindOf(*run) : -2});
        contents.shapes[label] = drawn->shape;
    }
    // Hidden names keep their entry, faded: a click shows them again.
    for (const RunEntryPtr& run : m_runs) {
        if (!isNamed(*run)) continue;
        const std::string label = m_drawn->labelOf(run->result.config);
        if (!m_hiddenAlgorithms.count(label)) continue;
        contents.algorithms.insert({label, mixesProtection() ? m_protections.kindOf(*run) : -2});
        contents.shapes[label] = m_drawn->shapeOfLabel(label);
        contents.hidden.insert(label);
    }
    contents.curves = m_drawn->curveCount();
    contents.front = m_front.size() > 1;
    contents.trail = trailCount();
    if (m_live->count() > 0) {
        contents.live = &m_liveConfig;
        contents.livePen = m_live->pen();
    }
    for (const TradeoffPoints::Point& p : points) {
        const auto it = std::find_if(m_runs.begin(), m_runs.end(),
                                     [&](const RunEntryPtr& r) { return r->id == p.id; });
        if (it != m_runs.end()) contents.epsilons.push_back((*it)->result.config.epsilon);
    }
    if (m_live->count() > 0) contents.epsilons.push_back(m_liveConfig.epsilon);
    if (m_constantShown.known) {
        contents.constant =
            tr("always “%1”: error %2, violation 0")
                .arg(QString::fromStdString(m_constantShown.className),
                     QString::fromStdString(pfa::formatNumber(m_constantShown.error, 3)));
        if (m_constantAbove) contents.constant += tr(" (above the plot)");
        contents.constantPen = constantPen();
    }
    contents.palette = m_drawn->palette();
    m_legend->show(contents, m_protections);
}

std::vector<ChartExportEntry> TradeoffChart::exportEntries() {
    ChartExportEntry entry;
    entry.name = tr("Tradeoff…");
    entry.view = m_view;
    entry.stem = QStringLiteral("tradeoff");
    entry.context = [this] { return exportContext(); };
    entry.dialogParent = m_view;
    return {entry};
}

}  // namespace pfa::ui
