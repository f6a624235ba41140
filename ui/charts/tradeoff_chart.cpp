#include "ui/charts/tradeoff_chart.h"

#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QRegularExpression>
#include <QTextDocument>
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
#include <tuple>

#include "core/algorithms/registry.h"
#include "core/sweep/run_protection.h"
#include "core/sweep/tradeoff_model.h"
#include "core/util/format.h"
#include "ui/charts/chart_legend.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/epsilon_color_bar.h"

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

/// Within this many pixels of a point, the pointer is "on" it (tooltips).
constexpr double kHitRadius = 10.0;

/// The outline of the points (and legend entries) of every protection after the first, when
/// the chart mixes runs of different protection.
const QColor kProtectionOutline(150, 0, 24);

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

    auto attach = [this](QXYSeries* series) {
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    };
    m_frontLine = new QLineSeries();
    m_frontLine->setName(tr("Pareto front"));
    m_frontLine->setPen(chart_style::paretoFrontPen());
    attach(m_frontLine);

    m_trailLine = new QLineSeries();
    m_trailLine->setName(tr("live-mode trail"));
    m_trailLine->setPen(QPen(QColor(120, 120, 120), 1.2));
    attach(m_trailLine);

    m_selection = new QScatterSeries();
    m_selection->setName(tr("selected"));
    m_selection->setMarkerSize(22);
    m_selection->setColor(Qt::transparent);
    m_selection->setBorderColor(QColor(220, 30, 30));
    m_selection->setPen(QPen(QColor(220, 30, 30), 2.5));
    attach(m_selection);

    m_live = new QScatterSeries();
    m_live->setName(tr("running"));
    m_live->setMarkerSize(16);
    m_live->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_live->setColor(Qt::white);
    attach(m_live);

    m_legend = new ChartLegend(m_chart);
    m_colorBar = new EpsilonColorBar(m_chart);
    connect(m_chart, &QChart::geometryChanged, this, &TradeoffChart::layoutOverlays);
    connect(m_chart, &QChart::plotAreaChanged, this, &TradeoffChart::layoutOverlays);

    m_view = new ChartView(m_chart, this);
    m_view->setToolTip(
        tr("One point per finished run of the data set and notion chosen above: "
           "colour = ε (see the colour bar), marker = algorithm. Dashed: Pareto "
           "front (lower-left is better). Hover a point for its settings, click "
           "to select. Right-click to export."));
    m_view->viewport()->installEventFilter(this);

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

void TradeoffChart::addPointSeries(QScatterSeries* series) {
    m_chart->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_pointSeries.push_back(series);
    m_seriesRuns[series] = {};
    // A hovered point shows its settings at once; the view's tooltip event (eventFilter)
    // shows the same text, so the generic chart tooltip never replaces it.
    connect(series, &QScatterSeries::hovered, this, [this, series](const QPointF& p, bool state) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const int id = runAt(series, p);
        for (const Point& point : m_points) {
            if (point.id == id)
                QToolTip::showText(QCursor::pos(), point.tooltip, m_view->viewport());
        }
    });
    connect(series, &QScatterSeries::clicked, this, [this, series](const QPointF& p) {
        if (const int id = runAt(series, p)) emit runClicked(id);
    });
}

QString TradeoffChart::datasetKeyOf(const RunEntry& run) {
    const std::string& key = run.context.runKey;
    const std::string prefix = "dataset=";
    if (key.rfind(prefix, 0) == 0) {
        // The data-set key ends with its split ("|split=…"), the settings follow after ';'.
        const std::size_t split = key.find("|split=");
        const std::size_t end = key.find(';', split == std::string::npos ? prefix.size() : split);
        return QString::fromStdString(key.substr(
            prefix.size(), end == std::string::npos ? std::string::npos : end - prefix.size()));
    }
    if (!run.context.ledgerKey.empty()) return QString::fromStdString(run.context.ledgerKey);
    if (!run.context.datasetDescription.empty())
        return QString::fromStdString(run.context.datasetDescription);
    return QString::fromStdString(run.result.dataset);
}

QString TradeoffChart::datasetLabel(const QString& datasetKey) {
    const QString base = datasetKey.section(QStringLiteral("|split="), 0, 0);
    const int nameEnd = base.indexOf(QRegularExpression(QStringLiteral("[/(:]")));
    const QString name = nameEnd < 0 ? base : base.left(nameEnd);
    QString label = name;
    if (name == QLatin1String("file")) {
        const int colon = base.indexOf(QLatin1Char(':'));
        if (colon >= 0) label = base.mid(colon + 1).section(QLatin1Char(','), 0, 0);
    }
    if (nameEnd >= 0 && base[nameEnd] == QLatin1Char('/')) {
        const QString rest = base.mid(nameEnd + 1);
        const int end = rest.indexOf(QRegularExpression(QStringLiteral("[(:]")));
        label += QStringLiteral(" (%1)").arg(end < 0 ? rest : rest.left(end));
    }
    // Silos dealt out after the split: the same rows, but other runs ("|silos=dirichlet/n=8/…").
    if (const QString silos = datasetKey.section(QStringLiteral("|silos="), 1); !silos.isEmpty())
        label += tr(", silos %1").arg(silos.section(QLatin1Char('/'), 0, 1));
    return label.isEmpty() ? datasetKey : label;
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

void TradeoffChart::refillBoxes() {
    // Every data set with runs, and the one shown (possibly without runs yet).
    std::map<QString, int> counts;
    std::map<QString, QString> descriptions;
    for (const RunEntryPtr& run : m_runs) {
        const QString key = datasetKeyOf(*run);
        ++counts[key];
        if (!run->context.datasetDescription.empty())
            descriptions[key] = QString::fromStdString(run->context.datasetDescription);
    }
    if (!m_shownDataset.isEmpty()) counts.emplace(m_shownDataset, 0);
    // Same name on different splits: name the split; still the same (other knobs): number
    // them. The tooltip tells them apart in full.
    std::map<QString, QString> labels;
    std::map<QString, int> uses;
    for (const auto& [key, count] : counts) ++uses[labels[key] = datasetLabel(key)];
    for (auto& [key, label] : labels) {
        const QStringList split = key.section(QStringLiteral("|split="), 1)
                                      .section(QLatin1Char('|'), 0, 0)
                                      .split(QLatin1Char(','));
        if (uses[label] > 1 && split.size() >= 2)
            label = tr("%1, split %2 (test %3)").arg(label, split[0], split[1]);
    }
    uses.clear();
    for (const auto& [key, label] : labels) ++uses[label];

    const QSignalBlocker blockData(m_datasetBox);
    m_datasetBox->clear();
    std::map<QString, int> labelSeen;
    for (const auto& [key, count] : counts) {
        QString label = labels[key];
        if (uses[label] > 1) label += QStringLiteral(" #%1").arg(++labelSeen[label]);
        m_datasetBox->addItem(label, key);
        const QString description = descriptions.count(key) ? descriptions[key] : key;
        m_datasetBox->setItemData(
            m_datasetBox->count() - 1,
            description + QLatin1Char('\n') +
                (count == 1 ? tr("1 finished run") : tr("%1 finished runs").arg(count)),
            Qt::ToolTipRole);
    }
    m_datasetBox->setCurrentIndex(m_datasetBox->findData(m_shownDataset));
    m_datasetBox->setEnabled(m_datasetBox->count() > 0);
    const QSignalBlocker blockNotion(m_notionBox);
    m_notionBox->setCurrentIndex(m_notionBox->findData(static_cast<int>(m_shownNotion)));
}

void TradeoffChart::setSelectedRun(int id) {
    m_selectedId = id;
    QList<QPointF> points;
    for (const Point& p : m_points) {
        if (p.id == id) points.append(QPointF(p.x, p.y));
    }
    m_selection->replace(points);
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
    const QPen ring(chart_style::colorForEpsilon(config.epsilon), 3.0);
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
    m_view->setEmpty(m_points.empty());
}

void TradeoffChart::setExportMode(bool exporting) {
    // Clearing the ring's points (not hiding the series) keeps its legend entry hidden.
    if (exporting) {
        m_selection->clear();
        // A one-column figure with the ε colour bar beside the plot has no room for
        // "… violation (test set)": the axis says what is measured, the caption line names the
        // data set, and every point of this chart is a test-set value.
        m_x->setTitleText(tr("%1 violation").arg(notionName(m_shownNotion)));
    } else {
        m_x->setTitleText(tr("%1 violation (test set)").arg(notionName(m_shownNotion)));
        setSelectedRun(m_selectedId);
    }
}

int TradeoffChart::protectionKind(const RunEntry& run) const {
    const pfa::RunProtection protection = pfa::runProtection(run.result);
    if (!protection.isPrivate) return -1;
    const auto it =
        std::find(m_protectionKinds.begin(), m_protectionKinds.end(), protection.label());
    return it == m_protectionKinds.end() ? -1 : static_cast<int>(it - m_protectionKinds.begin());
}

ExportContext TradeoffChart::exportContext() const {
    // The chart shows one data set and notion at a time: name the ones shown.
    if (m_shownDataset.isEmpty() || m_datasetBox->currentIndex() < 0) return {};
    const QString dataset = m_datasetBox->currentText();
    // A figure says what its private runs protect (or that they differ).
    QString protection;
    if (mixesProtection()) {
        protection = tr(" · runs of different protection (see the legend)");
    } else if (!m_protectionKinds.empty()) {
        protection = tr(" · protects: %1").arg(QString::fromStdString(m_protectionKinds.front()));
    }
    return {dataset + QStringLiteral(" · ") +
                QString::fromStdString(pfa::fairnessName(m_shownNotion)) + protection,
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

int TradeoffChart::trailCount() const {
    return static_cast<int>(
        std::count_if(m_points.begin(), m_points.end(), [](const Point& p) { return p.trail; }));
}

int TradeoffChart::pointCount() const { return static_cast<int>(m_points.size()) - trailCount(); }

QColor TradeoffChart::pointColor(int id) const {
    for (const Point& p : m_points) {
        if (p.id == id) return p.color;
    }
    return QColor();
}

QPoint TradeoffChart::viewportPosOf(int id) const {
    for (const Point& p : m_points) {
        if (p.id != id) continue;
        const QPointF inChart = m_chart->mapToPosition(QPointF(p.x, p.y), m_frontLine);
        return m_view->mapFromScene(m_chart->mapToScene(inChart));
    }
    return QPoint(-1, -1);
}

QString TradeoffChart::toolTipAt(const QPoint& viewportPos) const {
    QString best;
    double bestDistance = kHitRadius;
    auto consider = [&](const QPointF& value, const QString& text) {
        const QPointF inChart = m_chart->mapToPosition(value, m_frontLine);
        const QPointF inView = m_view->mapFromScene(m_chart->mapToScene(inChart));
        const double d = std::hypot(inView.x() - viewportPos.x(), inView.y() - viewportPos.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = text;
        }
    };
    for (const Point& p : m_points) consider(QPointF(p.x, p.y), p.tooltip);
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

int TradeoffChart::runAt(const QScatterSeries* series, const QPointF& point) const {
    const auto it = m_seriesRuns.find(series);
    if (it == m_seriesRuns.end()) return 0;
    const QList<QPointF> points = series->points();
    int best = 0;
    double bestDistance = INFINITY;
    for (int i = 0; i < points.size() && i < static_cast<int>(it->second.size()); ++i) {
        const double d = std::hypot(points[i].x() - point.x(), points[i].y() - point.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = it->second[static_cast<std::size_t>(i)];
        }
    }
    return best;
}

void TradeoffChart::rebuild() {
    // Drop the previous point series (the fixed series stay).
    for (QScatterSeries* series : m_pointSeries) {
        m_seriesRuns.erase(series);
        m_chart->removeSeries(series);
        delete series;
    }
    m_pointSeries.clear();
    for (QLineSeries* line : m_curveLines) {
        m_chart->removeSeries(line);
        delete line;
    }
    m_curveLines.clear();
    m_curvesDrawn = 0;
    m_points.clear();

    // What to draw, from the Qt-free model (core/sweep/tradeoff_model.h).
    pfa::TradeoffInput input;
    std::map<int, const RunEntry*> entryOf;
    for (const RunEntryPtr& run : m_runs) {
        input.runs.push_back({run->id, &run->result, isShown(*run)});
        entryOf[run->id] = run.get();
    }
    input.trail = m_trail;
    input.cleared = m_cleared;
    input.notion = m_shownNotion;
    const bool liveShown = m_liveRunId != 0 && m_liveDataset == m_shownDataset &&
                           m_liveConfig.fairness == m_shownNotion;
    if (liveShown) input.live = std::make_pair(m_livePos.x(), m_livePos.y());
    const pfa::TradeoffModel model = pfa::buildTradeoff(input);
    std::vector<const RunEntry*> pointRuns;
    for (const pfa::TradeoffDot& dot : model.points) {
        const RunEntry* run = entryOf.at(dot.id);
        m_points.push_back({dot.id, dot.x, dot.y, run->summary(), false, QColor()});
        pointRuns.push_back(run);
    }
    // What the private runs drawn (points and trail) protect: one line, or a warning.
    m_protectionKinds.clear();
    std::vector<pfa::RunProtection> protections;
    for (const RunEntryPtr& run : m_runs) {
        if (!isShown(*run) || m_cleared.count(run->id)) continue;
        const pfa::RunProtection protection = pfa::runProtection(run->result);
        protections.push_back(protection);
        if (protection.isPrivate && std::find(m_protectionKinds.begin(), m_protectionKinds.end(),
                                              protection.label()) == m_protectionKinds.end())
            m_protectionKinds.push_back(protection.label());
    }
    const std::string mixed = pfa::mixedProtectionWarning(protections);
    if (!mixed.empty()) {
        QStringList outlined;
        for (std::size_t k = 1; k < m_protectionKinds.size(); ++k)
            outlined << QString::fromStdString(m_protectionKinds[k]);
        m_protection->setText(
            tr("⚠ %1 Dark red outline: %2.")
                .arg(QString::fromStdString(mixed), outlined.join(QStringLiteral("; "))));
        m_protection->setStyleSheet(QStringLiteral("color: #8a1c00; font-weight: 600;"));
    } else if (!m_protectionKinds.empty()) {
        m_protection->setText(tr("Protects: %1 (every private run shown).")
                                  .arg(QString::fromStdString(m_protectionKinds.front())));
        m_protection->setStyleSheet(QStringLiteral("color: #555;"));
    }
    m_protection->setToolTip(
        tr("The unit of privacy and the adjacency of each run's guarantee. Runs that differ "
           "here bound different things, so their ε and points are not comparable one to one."));
    m_protection->setVisible(!m_protectionKinds.empty());

    std::vector<bool> onFront;
    for (const pfa::TradeoffDot& dot : model.points) onFront.push_back(dot.onFront);
    m_front = model.front;

    // One scatter series per (algorithm, ε, on front?) so each point gets its colour/marker.
    struct Key {
        std::string algorithm;
        double epsilon;
        bool front;
        int protection;  ///< its kind when the chart mixes protections, else 0
        bool operator<(const Key& o) const {
            return std::tie(algorithm, epsilon, front, protection) <
                   std::tie(o.algorithm, o.epsilon, o.front, o.protection);
        }
    };
    std::map<Key, QScatterSeries*> seriesFor;
    for (std::size_t i = 0; i < m_points.size(); ++i) {
        const pfa::TrainConfig& c = pointRuns[i]->result.config;
        QColor color = chart_style::colorForEpsilon(c.epsilon);
        if (!onFront[i]) color.setAlphaF(0.35f);  // dominated: faded
        m_points[i].color = color;
        const int kind = mixesProtection() ? std::max(0, protectionKind(*pointRuns[i])) : 0;
        QScatterSeries*& series = seriesFor[Key{c.algorithm, c.epsilon, onFront[i], kind}];
        if (!series) {
            series = new QScatterSeries();
            series->setColor(color);
            series->setBorderColor(onFront[i] ? QColor(30, 30, 30) : QColor(0, 0, 0, 60));
            series->setMarkerShape(
                chart_style::markerForAlgorithm(QString::fromStdString(c.algorithm)));
            series->setMarkerSize(onFront[i] ? 15 : 12);
            QString name = QStringLiteral("%1, %2").arg(QString::fromStdString(c.algorithm),
                                                        chart_style::epsilonLabel(c.epsilon));
            if (mixesProtection()) {
                name += QStringLiteral(" — ") + pointRuns[i]->protectionText();
                if (kind > 0) series->setPen(QPen(kProtectionOutline, 2.5));
            }
            series->setName(name);
            addPointSeries(series);
        }
        series->append(m_points[i].x, m_points[i].y);
        m_seriesRuns[series].push_back(m_points[i].id);
    }

    // A run that traces a curve itself (post-processing solves its whole γ-curve from one
    // noisy table, for one ε) is drawn as that curve: a line in its ε's colour through every
    // point, its headline point marked as usual.
    for (const auto& [id, points] : model.curves) {
        auto* line = new QLineSeries();
        line->setPen(
            QPen(chart_style::colorForEpsilon(entryOf.at(id)->result.config.epsilon), 1.8));
        line->setPointsVisible(true);
        line->setMarkerSize(5);
        for (const auto& [x, y] : points) line->append(x, y);
        m_chart->addSeries(line);
        line->attachAxis(m_x);
        line->attachAxis(m_y);
        m_curveLines.push_back(line);
        ++m_curvesDrawn;
    }

    // The live-mode trail: the runs in the order they finished, joined by a thin line; small
    // dots in their ε's colour (one series per ε), the newest larger.
    QList<QPointF> trail;
    std::map<double, QScatterSeries*> trailSeries;
    for (const pfa::TradeoffDot& dot : model.trail) {
        const int id = dot.id;
        const double x = dot.x, y = dot.y;
        const double epsilon = dot.result->config.epsilon;
        const QColor color = chart_style::colorForEpsilon(epsilon);
        m_points.push_back({id, x, y, entryOf.at(id)->summary(), true, color});
        trail.append(QPointF(x, y));
        QScatterSeries*& series = trailSeries[epsilon];
        if (!series) {
            series = new QScatterSeries();
            series->setName(tr("live-mode trail"));
            series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            series->setMarkerSize(8);
            series->setColor(color);
            series->setBorderColor(QColor(40, 40, 40));
            addPointSeries(series);
        }
        series->append(x, y);
        m_seriesRuns[series].push_back(id);
    }
    if (!trail.isEmpty()) {
        // The newest: a larger dot over its small one, so the trail's head is clear.
        const Point& newest = m_points.back();
        auto* head = new QScatterSeries();
        head->setName(tr("live-mode trail, newest"));
        head->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        head->setMarkerSize(12);
        head->setColor(newest.color);
        head->setBorderColor(QColor(40, 40, 40));
        addPointSeries(head);
        head->append(newest.x, newest.y);
        m_seriesRuns[head] = {newest.id};
    }
    m_trailLine->replace(trail);
    m_clearTrail->setEnabled(!m_trail.empty());

    // Pareto front as a step line: right along the current error, then down to the next point.
    QList<QPointF> steps;
    for (const auto& [x, y] : model.frontSteps) steps.append(QPointF(x, y));
    m_frontLine->replace(steps);

    // The live point, if its run belongs to what is shown.
    if (liveShown) {
        m_live->setPen(QPen(chart_style::colorForEpsilon(m_liveConfig.epsilon), 3.0));
        m_live->replace(QList<QPointF>{m_livePos});
    } else if (m_live->count() > 0) {
        m_live->clear();
    }

    // Explicit axes with some room around the points.
    chart_style::setNiceRange(m_x, 0.0, model.xMax, 5);
    chart_style::setNiceRange(m_y, model.yMin, model.yMax, 5);
    m_x->setTitleText(tr("%1 violation (test set)").arg(notionName(m_shownNotion)));
    // The data set is named in the box above the chart (a long name would cut the title short
    // in a narrow dock) and in an export's caption line.
    m_chart->setTitle(tr("Accuracy–fairness tradeoff"));
    if (const int hidden = model.hidden; hidden > 0) {
        m_view->setEmptyMessage(tr("No finished runs on %1 for %2 yet (%3 on other data sets or "
                                   "notions: choose them above).")
                                    .arg(datasetLabel(m_shownDataset), notionName(m_shownNotion),
                                         hidden == 1 ? tr("1 run") : tr("%1 runs").arg(hidden)));
    } else {
        m_view->setEmptyMessage(
            tr("Finished runs appear here: press Run, then change λ or ε and "
               "run again"));
    }
    m_view->setEmpty(model.empty());
    updateLegend();
    setSelectedRun(m_selectedId);
}

void TradeoffChart::updateLegend() {
    using Entry = ChartLegend::Entry;
    std::vector<Entry> entries;
    // Marker = algorithm (drawn neutral: colour means ε, explained by the colour bar).
    // With runs of different protection: one entry per algorithm and protection, named.
    std::set<std::pair<std::string, int>> algorithms;
    for (const RunEntryPtr& run : m_runs) {
        const bool drawn = std::any_of(m_points.begin(), m_points.end(),
                                       [&](const Point& p) { return p.id == run->id; });
        if (drawn && !std::count(m_trail.begin(), m_trail.end(), run->id))
            algorithms.insert(
                {run->result.config.algorithm, mixesProtection() ? protectionKind(*run) : -2});
    }
    for (const auto& [algorithm, kind] : algorithms) {
        Entry entry;
        entry.text = QString::fromStdString(algorithm);
        entry.shape = chart_style::markerForAlgorithm(entry.text);
        entry.brush = QColor(235, 235, 235);
        entry.pen = QPen(QColor(40, 40, 40), 1.2);
        if (kind != -2) {
            entry.text +=
                QStringLiteral(" — ") +
                (kind < 0
                     ? tr("not private")
                     : QString::fromStdString(m_protectionKinds[static_cast<std::size_t>(kind)]));
            if (kind > 0) entry.pen = QPen(kProtectionOutline, 2.5);
        }
        entries.push_back(entry);
    }
    if (m_curvesDrawn > 0) {
        Entry entry;
        entry.text = m_curvesDrawn == 1
                         ? tr("one run's curve (e.g. post-processing over γ)")
                         : tr("%1 runs' curves (e.g. post-processing over γ)").arg(m_curvesDrawn);
        entry.symbol = Entry::Symbol::Trail;
        entry.brush = chart_style::viridis(0.3);
        entry.pen = QPen(QColor(120, 120, 120), 1.8);
        entries.push_back(entry);
    }
    if (m_front.size() > 1) {
        Entry entry;
        entry.text = tr("Pareto front");
        entry.symbol = Entry::Symbol::Line;
        entry.pen = chart_style::paretoFrontPen();
        entries.push_back(entry);
    }
    if (const int trail = trailCount(); trail > 0) {
        Entry entry;
        entry.text =
            trail == 1 ? tr("live-mode trail (1 run)") : tr("live-mode trail (%1 runs)").arg(trail);
        entry.symbol = Entry::Symbol::Trail;
        entry.brush = chart_style::viridis(0.3);
        entry.pen = QPen(QColor(120, 120, 120), 1.2);
        entries.push_back(entry);
    }
    if (m_live->count() > 0) {
        Entry entry;
        entry.text = tr("running: %1, %2")
                         .arg(chart_style::curvePointText(m_liveConfig),
                              chart_style::epsilonLabel(m_liveConfig.epsilon));
        entry.brush = QColor(Qt::white);
        entry.pen = m_live->pen();
        entries.push_back(entry);
    }
    m_legend->setEntries(std::move(entries));

    std::vector<double> epsilons;
    for (const Point& p : m_points) {
        const auto it = std::find_if(m_runs.begin(), m_runs.end(),
                                     [&](const RunEntryPtr& r) { return r->id == p.id; });
        if (it != m_runs.end()) epsilons.push_back((*it)->result.config.epsilon);
    }
    if (m_live->count() > 0) epsilons.push_back(m_liveConfig.epsilon);
    std::sort(epsilons.begin(), epsilons.end());
    epsilons.erase(std::unique(epsilons.begin(), epsilons.end()), epsilons.end());
    m_colorBar->setMarkedEpsilons(std::move(epsilons));
    layoutOverlays();
}

void TradeoffChart::layoutOverlays() {
    if (m_layingOut) return;
    m_layingOut = true;
    const QRectF area = m_chart->rect();
    constexpr int kEdge = 6;
    const qreal barWidth = m_colorBar->preferredWidth();
    const qreal legendHeight = m_legend->layoutForWidth(area.width() - 2 * kEdge);
    const QMargins wanted(
        kEdge, kEdge, kEdge + static_cast<int>(std::ceil(barWidth)) + 10,
        kEdge + static_cast<int>(std::ceil(legendHeight)) + (legendHeight > 0 ? 6 : 0));
    if (m_chart->margins() != wanted) m_chart->setMargins(wanted);  // plotAreaChanged follows
    m_legend->setPos(area.left() + kEdge, area.bottom() - kEdge - legendHeight);
    const QRectF plot = m_chart->plotArea();
    m_colorBar->setArea(
        QRectF(area.right() - kEdge - barWidth, plot.top() - 4, barWidth, plot.height() + 4));
    m_layingOut = false;
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
