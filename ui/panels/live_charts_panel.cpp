#include "ui/panels/live_charts_panel.h"

#include <QGraphicsSimpleTextItem>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QPen>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"

namespace pfa::ui {

namespace {

constexpr int kRefreshIntervalMs = 33;  // ≤ 30 Hz
constexpr int kLoss = 0, kError = 1, kFairness = 2, kPrivacy = 3;

QString runDescription(int id, const pfa::TrainConfig& c) {
    return QStringLiteral("run %1: %2, λ = %3, %4")
        .arg(id)
        .arg(QString::fromStdString(c.algorithm))
        .arg(QString::fromStdString(pfa::formatNumber(c.lambda, 3)))
        .arg(chart_style::epsilonLabel(c.epsilon));
}

Qt::PenStyle lineStyle(std::size_t index) {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashDotLine, Qt::DotLine};
    return styles[index % 3];
}

// A text sample of a line style for the shared legend.
QString styleSample(std::size_t index) {
    static const char* const samples[] = {"━━━", "━ · ━", "┅┅┅"};
    return QString::fromUtf8(samples[index % 3]);
}

double valueFor(int chart, const pfa::EpochMetrics& m) {
    switch (chart) {
        case kLoss: return m.trainLoss;
        case kError: return m.testError;
        case kFairness: return m.violation;
        default: return m.epsilonSpent;
    }
}

// "Nice" upper bound for an axis: 1, 2 or 5 times a power of ten above `value`.
double niceCeiling(double value) {
    if (!(value > 0) || !std::isfinite(value)) return 1.0;
    const double power = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (step * power >= value) return step * power;
    }
    return 10 * power;
}

}  // namespace

LiveChartsPanel::LiveChartsPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(2, 2, 2, 2);
    m_legend = new QLabel();
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_legend->setToolTip(tr("The curves shown in the four charts: the running run and the runs "
                            "selected in the history. Colour = ε, line style = which run."));
    outer->addWidget(m_legend);
    auto* grid = new QGridLayout();
    grid->setSpacing(4);
    outer->addLayout(grid, 1);
    const QString titles[] = {tr("Training loss"), tr("Test error"), tr("Fairness violation"),
                              tr("Privacy spent (ε)")};
    const QString yTitles[] = {tr("cross-entropy"), tr("error rate"), tr("violation / ERMI"),
                               tr("ε (accountant)")};
    for (int i = 0; i < 4; ++i) {
        auto* chart = new QChart();
        chart->setTitle(titles[i]);
        chart_style::apply(chart);
        auto* x = new QValueAxis();
        auto* y = new QValueAxis();
        chart_style::addAxis(chart, x, Qt::AlignBottom, tr("epoch"));
        chart_style::addAxis(chart, y, Qt::AlignLeft, yTitles[i]);
        m_parts[i] = {chart, x, y, {}, {}};
        m_views[i] = new ChartView(chart, this);
        m_views[i]->setEmptyMessage(tr("Press Run to train your first model"));
        grid->addWidget(m_views[i], i / 2, i % 2);
    }
    m_views[kPrivacy]->setToolTip(
        tr("ε spent so far as certified by the Rényi-DP accountant; the dashed line is the "
           "run's target ε. Right-click to export."));
    // Inside the plot area, so it takes no room from the axes of a small chart and is part of
    // every export of it.
    m_diagnosticTag = new QGraphicsSimpleTextItem(tr("diagnostic — not private"), m_parts[kLoss].chart);
    QFont tagFont = m_diagnosticTag->font();
    tagFont.setPointSizeF(tagFont.pointSizeF() * 0.85);
    tagFont.setBold(true);
    m_diagnosticTag->setFont(tagFont);
    m_diagnosticTag->setBrush(QColor(154, 52, 18));
    m_diagnosticTag->setZValue(20);
    m_diagnosticTag->setVisible(false);
    connect(m_parts[kLoss].chart, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
        m_diagnosticTag->setPos(area.right() - m_diagnosticTag->boundingRect().width() - 4, area.top() + 2);
    });
    m_views[kLoss]->setToolTip(
        tr("Mean cross-entropy on all training rows after each epoch. For private runs this is "
           "a diagnostic computed exactly on the private rows: it is not covered by the privacy "
           "guarantee (it can be switched off under Advanced). Right-click to export."));
    m_views[kFairness]->setToolTip(
        tr("Solid: the chosen fairness violation on the test set. Dashed: ERMI (exponential "
           "Rényi mutual information) of the same notion. Right-click to export."));
    refresh();
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &LiveChartsPanel::refresh);
}

void LiveChartsPanel::beginLiveRun(int runId, const pfa::TrainConfig& config) {
    m_liveRunId = runId;
    m_hasLive = true;
    m_live = Curve{};
    m_live.shortLabel = tr("run %1").arg(runId);
    m_live.description = runDescription(runId, config);
    m_live.state = tr("running");
    m_live.epsilonTarget = config.epsilon;
    m_live.isPrivate = config.isPrivate();
    m_live.epochs = std::max(1, config.epochs);
    m_live.live = true;
    scheduleRefresh();
}

void LiveChartsPanel::appendLive(int runId, const std::vector<pfa::EpochMetrics>& metrics) {
    if (!m_hasLive || runId != m_liveRunId) return;  // a late result of an older run
    m_live.metrics.insert(m_live.metrics.end(), metrics.begin(), metrics.end());
    scheduleRefresh();
}

void LiveChartsPanel::endLiveRun(int runId, bool diverged) {
    if (!m_hasLive || runId != m_liveRunId) return;
    m_live.state = diverged ? tr("diverged") : QString();
    m_liveRunId = 0;  // no more appends for it
    scheduleRefresh();
}

void LiveChartsPanel::detachLive() {
    m_liveRunId = 0;
    if (m_hasLive) m_live.state = tr("stopped");
    scheduleRefresh();
}

void LiveChartsPanel::showRuns(const std::vector<RunEntryPtr>& runs) {
    m_selected.clear();
    for (const RunEntryPtr& run : runs) {
        if (m_selected.size() >= 2) break;
        Curve curve;
        curve.shortLabel = tr("run %1").arg(run->id);
        curve.description = runDescription(run->id, run->result.config);
        if (run->stoppedByUser) curve.state = tr("stopped");
        if (run->result.status == pfa::RunStatus::Diverged) curve.state = tr("diverged");
        curve.metrics = run->result.history;
        curve.epsilonTarget = run->result.config.epsilon;
        curve.isPrivate = run->result.privacy.isPrivate;
        curve.epochs = std::max(1, run->result.config.epochs);
        m_selected.push_back(std::move(curve));
    }
    scheduleRefresh();
}

void LiveChartsPanel::clear() {
    m_hasLive = false;
    m_liveRunId = 0;
    m_live = Curve{};
    m_selected.clear();
    refreshNow();
}

int LiveChartsPanel::livePointCount() const {
    const ChartParts& parts = m_parts[kError];
    if (!m_hasLive || parts.lines.empty()) return 0;
    return static_cast<int>(parts.lines.front()->count());
}

void LiveChartsPanel::scheduleRefresh() {
    if (!m_refreshTimer.isActive()) m_refreshTimer.start();
}

void LiveChartsPanel::refreshNow() {
    m_refreshTimer.stop();
    refresh();
}

std::vector<const LiveChartsPanel::Curve*> LiveChartsPanel::curves() const {
    std::vector<const Curve*> shown;
    if (m_hasLive) shown.push_back(&m_live);
    for (const Curve& curve : m_selected) shown.push_back(&curve);
    return shown;
}

void LiveChartsPanel::refresh() {
    const std::vector<const Curve*> shown = curves();
    for (int i = 0; i < 4; ++i) updateChart(i, shown);
    // One legend line for all four charts, with the full settings of every curve.
    QStringList entries;
    for (std::size_t c = 0; c < shown.size(); ++c) {
        const QString state =
            shown[c]->state.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(shown[c]->state);
        entries << QStringLiteral("<span style=\"color:%1; font-weight:bold\">%2</span>&nbsp;%3%4")
                       .arg(chart_style::colorForEpsilon(shown[c]->epsilonTarget).name(),
                            styleSample(c), shown[c]->description.toHtmlEscaped(), state);
    }
    const QString text = entries.isEmpty()
                             ? tr("<i>No run yet.</i> Dashed lines: ERMI in the fairness chart, the "
                                  "target ε in the privacy chart.")
                             : entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp;"));
    if (m_legend->text() != text) m_legend->setText(text);
}

void LiveChartsPanel::dropLive() {
    m_hasLive = false;
    m_liveRunId = 0;
    m_live = Curve{};
    scheduleRefresh();
}

void LiveChartsPanel::updateChart(int which, const std::vector<const Curve*>& shown) {
    ChartParts& parts = m_parts[which];
    QChart* chart = parts.chart;
    // One main series and one extra series (ERMI or target line) per curve; created lazily and
    // never hidden (toggling a series' visibility resets its legend marker): unused ones are
    // simply empty.
    while (parts.lines.size() < shown.size()) {
        auto* line = new QLineSeries();
        auto* extra = new QLineSeries();
        chart->addSeries(line);
        chart->addSeries(extra);
        for (QLineSeries* series : {line, extra}) {
            series->attachAxis(parts.x);
            series->attachAxis(parts.y);
        }
        extra->setName(which == kFairness ? tr("ERMI") : tr("target ε"));
        for (QLegendMarker* marker : chart->legend()->markers(extra)) marker->setVisible(false);
        parts.lines.push_back(line);
        parts.extras.push_back(extra);
    }
    double xMax = 1.0, yMax = 0.0;
    bool anyPoint = false;
    for (std::size_t c = 0; c < parts.lines.size(); ++c) {
        QLineSeries* line = parts.lines[c];
        QLineSeries* extra = parts.extras[c];
        const bool used = c < shown.size();
        for (QLegendMarker* marker : chart->legend()->markers(line)) {
            if (marker->isVisible() != used) marker->setVisible(used);
        }
        if (!used) {
            line->clear();
            extra->clear();
            continue;
        }
        const Curve& curve = *shown[c];
        // The same ε has the same colour in every chart; curves of equal ε are told apart by
        // their line style (solid, dash-dot, dotted in the order shown).
        const QColor color = chart_style::colorForEpsilon(curve.epsilonTarget);
        // Setting a pen or a name re-lays out the legend: only do it when something changed.
        QPen pen(color, curve.live ? 2.6 : 2.2, lineStyle(c));
        pen.setCapStyle(Qt::RoundCap);
        if (line->pen() != pen) line->setPen(pen);
        if (line->name() != curve.shortLabel) line->setName(curve.shortLabel);
        QList<QPointF> points, extraPoints;
        points.reserve(static_cast<int>(curve.metrics.size()));
        for (const pfa::EpochMetrics& m : curve.metrics) {
            const double v = valueFor(which, m);
            if (std::isfinite(v)) points.append(QPointF(m.epoch, v));  // never draw NaN/Inf
            if (which == kFairness && std::isfinite(m.ermiHard)) {
                extraPoints.append(QPointF(m.epoch, m.ermiHard));
            }
        }
        xMax = std::max(xMax, static_cast<double>(curve.epochs));
        for (const QPointF& p : points) yMax = std::max(yMax, p.y());
        for (const QPointF& p : extraPoints) yMax = std::max(yMax, p.y());
        if (which == kPrivacy && curve.isPrivate && std::isfinite(curve.epsilonTarget)) {
            extraPoints = {QPointF(1, curve.epsilonTarget), QPointF(curve.epochs, curve.epsilonTarget)};
            yMax = std::max(yMax, curve.epsilonTarget);
        }
        anyPoint = anyPoint || !points.isEmpty();
        line->replace(points);
        extra->replace(extraPoints);
        QColor light = color;
        light.setAlphaF(0.7f);
        const QPen dashed(light, 1.5, Qt::DashLine);
        if (extra->pen() != dashed) extra->setPen(dashed);
    }
    // Axis changes re-lay out the whole chart; the ranges only move in "nice" steps.
    chart_style::setNiceRange(parts.x, 0.0, std::max(2.0, xMax), 5);
    double top = niceCeiling(yMax * 1.08);
    if (which == kError) top = std::min(1.0, top);
    chart_style::setNiceRange(parts.y, 0.0, top, 4);

    ChartView* view = m_views[which];
    const bool anyPrivate = std::any_of(shown.begin(), shown.end(),
                                        [](const Curve* c) { return c->isPrivate; });
    const bool nonPrivateOnly = which == kPrivacy && !shown.empty() && !anyPrivate;
    QString message = nonPrivateOnly ? tr("Not private: ε = ∞ (no privacy accounting)")
                                     : tr("Press Run to train your first model");
    if (which == kLoss) {
        // Exact on the private training rows: say so on the chart itself, where it is read
        // (and where an exported figure carries it).
        if (m_diagnosticTag->isVisible() != anyPrivate) m_diagnosticTag->setVisible(anyPrivate);
        const bool anyMetrics = std::any_of(shown.begin(), shown.end(),
                                            [](const Curve* c) { return !c->metrics.empty(); });
        if (anyPrivate && anyMetrics && !anyPoint) {
            message = tr("Not recorded: training diagnostics are off for this private run");
        }
    }
    view->setEmptyMessage(message);
    view->setEmpty(!anyPoint || nonPrivateOnly);
}

QString LiveChartsPanel::lossChartTag() const {
    return m_diagnosticTag->isVisible() ? m_diagnosticTag->text() : QString();
}

}  // namespace pfa::ui
