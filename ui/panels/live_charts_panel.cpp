#include "ui/panels/live_charts_panel.h"

#include <QComboBox>
#include <QGraphicsSimpleTextItem>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPen>
#include <QSettings>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/util/format.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/series_reduction.h"

namespace pfa::ui {

namespace {

constexpr int kRefreshIntervalMs = 33;  // ≤ 30 Hz
constexpr int kLoss = 0, kError = 1, kFairness = 2, kPrivacy = 3;
/// Plot width assumed before the chart was laid out (hidden, offscreen).
constexpr double kUnlaidPlotWidth = 800.0;
const char* const kSmoothingKey = "liveCharts/smoothing";

/// Whether a run reports its exact excess risk (data whose optimum is known): its error chart
/// then shows that instead of the test error.
bool hasExcessRisk(const std::vector<pfa::EpochMetrics>& metrics) {
    return std::any_of(metrics.begin(), metrics.end(),
                       [](const pfa::EpochMetrics& m) { return std::isfinite(m.excessRisk); });
}

double valueFor(int chart, const pfa::EpochMetrics& m, bool excessRisk) {
    switch (chart) {
        case kLoss:
            return m.trainLoss;
        case kError:
            return excessRisk ? m.excessRisk : m.testError;
        case kFairness:
            return m.violation;
        default:
            return m.epsilonSpent;
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

// "DP-FERMI", "ERM": algorithm names as written in the papers.
QString algorithmLabel(const std::string& name) { return QString::fromStdString(name).toUpper(); }

// δ for a chart title: "1.1 × 10⁻⁹" (small values), "0.01".
QString deltaText(double delta) {
    if (!(delta > 0) || !std::isfinite(delta)) return QStringLiteral("–");
    if (delta >= 1e-3) return QString::fromStdString(pfa::formatNumber(delta, 2));
    int exponent = static_cast<int>(std::floor(std::log10(delta)));
    double mantissa = std::round(delta / std::pow(10.0, exponent) * 10.0) / 10.0;
    if (mantissa >= 10.0) {
        mantissa /= 10.0;
        ++exponent;
    }
    static const char16_t* const digits = u"⁰¹²³⁴⁵⁶⁷⁸⁹";
    QString power = QStringLiteral("10⁻");
    for (QChar c : QString::number(-exponent)) power += QChar(digits[c.digitValue()]);
    if (mantissa == 1.0) return power;
    return QStringLiteral("%1 × %2").arg(QString::number(mantissa, 'f', 1), power);
}

// Shows or hides the legend entry of `series`. What was asked is remembered on the series: a
// marker's isVisible() follows its graphics item, which the legend hides while it lays itself
// out, so it cannot tell whether the entry is shown.
void showInLegend(QChart* chart, QLineSeries* series, bool shown) {
    const char* const property = "pfaLegendShown";
    const QVariant asked = series->property(property);
    if (asked.isValid() && asked.toBool() == shown) return;
    series->setProperty(property, shown);
    for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(shown);
}

bool sameDelta(double a, double b) {
    return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

const std::vector<int>& LiveChartsPanel::smoothingWindows() {
    static const std::vector<int> windows = {0, 5, 25, 100};
    return windows;
}

LiveChartsPanel::LiveChartsPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(2, 2, 2, 2);
    outer->setSpacing(2);
    auto* top = new QHBoxLayout();
    m_legend = new QLabel();
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    // Wraps to the width it gets instead of widening the window.
    m_legend->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_legend->setToolTip(
        tr("The curves shown in the four charts: the running run and the runs "
           "selected in the history. One run is drawn in the colour of its ε; "
           "runs compared side by side each get their own colour."));
    top->addWidget(m_legend, 1);
    auto* smoothingLabel = new QLabel(tr("Smoothing:"));
    m_smoothingBox = new QComboBox();
    for (int window : smoothingWindows()) {
        m_smoothingBox->addItem(window == 0 ? tr("off") : tr("moving average %1").arg(window),
                                window);
    }
    m_smoothingBox->setToolTip(
        tr("Long runs draw noisy curves as a solid band. A moving average replaces each point by "
           "the mean of the N recorded points around it (fewer at the ends); the raw curve stays "
           "faintly behind. The privacy chart is never smoothed: it shows the ε the accountant "
           "certified."));
    smoothingLabel->setBuddy(m_smoothingBox);
    smoothingLabel->setToolTip(m_smoothingBox->toolTip());
    outer->addLayout(top);
    // Always on show (not only before the first run): the dashed and faint lines are read
    // while runs are on the charts.
    m_note =
        // One line at 1280 pixels: every line here is taken from the charts at 720 high.
        new QLabel(tr("Dashed: ERMI, target ε. Faint: raw values under smoothing."));
    m_note->setToolTip(
        tr("Dashed lines: ERMI of the chosen notion in the fairness chart, the "
           "run's target ε in the privacy chart. With smoothing on, the faint "
           "lines are the raw values behind each smoothed curve."));
    m_note->setWordWrap(true);
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_note->setStyleSheet(QStringLiteral("color: #555555"));
    // The smoothing choice shares the note's row (about the faint lines), so the run names
    // above get the full width: at 1280×720 every line above the charts is taken from them.
    auto* noteRow = new QHBoxLayout();
    noteRow->addWidget(m_note, 1);
    noteRow->addWidget(smoothingLabel);
    noteRow->addWidget(m_smoothingBox);
    outer->addLayout(noteRow);
    auto* grid = new QGridLayout();
    grid->setSpacing(4);
    outer->addLayout(grid, 1);
    const QString titles[] = {tr("Training loss"), tr("Test error"), tr("Fairness violation"),
                              tr("Privacy spent (ε)")};
    // Short: a vertical title sets how tall its chart must be (it is drawn whole), and at
    // 1280×720 the charts have no height to spare ("log loss" is the cross-entropy).
    const QString yTitles[] = {tr("log loss"), tr("error rate"), tr("violation / ERMI"),
                               tr("ε (accountant)")};
    for (int i = 0; i < 4; ++i) {
        auto* chart = new QChart();
        chart->setTitle(titles[i]);
        chart_style::apply(chart);
        // Legend entries drawn as line samples, so the dashed key looks like the dashed lines.
        chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
        chart->legend()->setShowToolTips(true);  // a name cut short in a narrow chart, in full
        auto* x = new QValueAxis();
        auto* y = new QValueAxis();
        chart_style::addAxis(chart, x, Qt::AlignBottom, tr("epoch"));
        chart_style::addAxis(chart, y, Qt::AlignLeft, yTitles[i]);
        m_parts[i].chart = chart;
        m_parts[i].x = x;
        m_parts[i].y = y;
        if (i == kError || i == kFairness || i == kPrivacy) {
            // An empty series whose only job is the legend key of the dashed lines (the error
            // chart's only shows for runs that remove units: their share removed per epoch).
            auto* key = new QLineSeries();
            key->setName(i == kError      ? tr("share of units removed")
                         : i == kFairness ? tr("ERMI")
                                          : tr("target ε"));
            key->setPen(QPen(QColor(90, 90, 90), 1.6, Qt::DashLine));
            chart->addSeries(key);
            key->attachAxis(x);
            key->attachAxis(y);
            m_parts[i].key = key;
        }
        m_views[i] = new ChartView(chart, this);
        m_views[i]->setEmptyMessage(tr("Press Run to train your first model"));
        grid->addWidget(m_views[i], i / 2, i % 2);
        // Points are cut down to the plot's width: redo them when it changes noticeably.
        connect(chart, &QChart::plotAreaChanged, this, [this, i](const QRectF& area) {
            if (std::fabs(area.width() - m_parts[i].plotWidth) > 8.0) scheduleRefresh();
        });
    }
    m_views[kPrivacy]->setToolTip(
        tr("ε spent so far as certified by the Rényi-DP accountant, at the δ in the title; the "
           "dashed line is the run's target ε. Right-click to export."));
    // Inside the plot area, so it takes no room from the axes of a small chart and is part of
    // every export of it.
    m_diagnosticTag =
        new QGraphicsSimpleTextItem(tr("diagnostic — not private"), m_parts[kLoss].chart);
    QFont tagFont = m_diagnosticTag->font();
    tagFont.setPointSizeF(tagFont.pointSizeF() * 0.85);
    tagFont.setBold(true);
    m_diagnosticTag->setFont(tagFont);
    m_diagnosticTag->setBrush(QColor(154, 52, 18));
    m_diagnosticTag->setZValue(20);
    m_diagnosticTag->setVisible(false);
    connect(m_parts[kLoss].chart, &QChart::plotAreaChanged, this, [this](const QRectF& area) {
        m_diagnosticTag->setPos(area.right() - m_diagnosticTag->boundingRect().width() - 4,
                                area.top() + 2);
    });
    m_views[kLoss]->setToolTip(
        tr("Mean cross-entropy (log loss) on all training rows after each epoch. For private runs "
           "this is "
           "a diagnostic computed exactly on the private rows: it is not covered by the privacy "
           "guarantee (it can be switched off under Advanced). Right-click to export."));
    m_views[kFairness]->setToolTip(
        tr("Solid: the chosen fairness violation on the test set. Dashed: ERMI (exponential "
           "Rényi mutual information) of the same notion. Right-click to export."));
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshIntervalMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &LiveChartsPanel::refresh);
    const int saved = QSettings().value(QLatin1String(kSmoothingKey), 0).toInt();
    const int savedIndex = m_smoothingBox->findData(saved);
    m_smoothingBox->setCurrentIndex(savedIndex >= 0 ? savedIndex : 0);
    m_smoothing = m_smoothingBox->currentData().toInt();
    connect(m_smoothingBox, &QComboBox::currentIndexChanged, this, [this] {
        m_smoothing = m_smoothingBox->currentData().toInt();
        QSettings().setValue(QLatin1String(kSmoothingKey), m_smoothing);
        scheduleRefresh();
    });
    refresh();
}

void LiveChartsPanel::setSmoothingWindow(int points) {
    const int index = m_smoothingBox->findData(points);
    if (index >= 0) {
        m_smoothingBox->setCurrentIndex(index);
    } else {
        m_smoothing = std::max(0, points);  // not one of the offered windows (tests)
        scheduleRefresh();
    }
}

LiveChartsPanel::Curve LiveChartsPanel::curveFor(int runId, const pfa::TrainConfig& config) {
    Curve curve;
    curve.runId = runId;
    curve.config = config;
    curve.isPrivate = config.isPrivate();
    curve.epochs = std::max(1, config.epochs);
    return curve;
}

void LiveChartsPanel::beginLiveRun(int runId, const pfa::TrainConfig& config) {
    m_liveRunId = runId;
    m_hasLive = true;
    m_live = curveFor(runId, config);
    m_liveEpochsDrawn = 0;
    m_live.state = tr("running");
    m_live.live = true;
    m_live.compareSlot = kMaxCompared;  // after the selected runs' colours, whatever their number
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
        if (static_cast<int>(m_selected.size()) >= kMaxCompared) break;
        if (m_hasLive && run->id == m_live.runId) continue;  // already drawn as the live curve
        pfa::TrainConfig config = run->result.config;
        if (run->result.privacy.isPrivate) config.delta = run->result.privacy.delta;
        Curve curve = curveFor(run->id, config);
        if (run->stoppedByUser) curve.state = tr("stopped");
        if (run->result.status == pfa::RunStatus::Diverged) curve.state = tr("diverged");
        curve.metrics = run->result.history;
        curve.isPrivate = run->result.privacy.isPrivate;
        curve.compareSlot = static_cast<int>(m_selected.size());
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

QColor LiveChartsPanel::colorOfRun(int runId) const {
    const std::size_t count = (m_hasLive ? 1 : 0) + m_selected.size();
    if (m_hasLive && m_live.runId == runId) return colorOf(m_live, count);
    for (const Curve& curve : m_selected) {
        if (curve.runId == runId) return colorOf(curve, count);
    }
    return QColor();
}

QColor LiveChartsPanel::colorOf(const Curve& curve, std::size_t shownCount) const {
    // Alone, a curve has the colour of its ε (as in the tradeoff chart); compared, each run its
    // own, or runs of equal ε would differ only by line style.
    if (shownCount <= 1) return chart_style::colorForEpsilon(curve.config.epsilon);
    return compare_palette::color(curve.compareSlot);
}

int LiveChartsPanel::livePointCount() const { return m_hasLive ? m_liveEpochsDrawn : 0; }

void LiveChartsPanel::scheduleRefresh() {
    if (!m_refreshTimer.isActive()) m_refreshTimer.start();
}

void LiveChartsPanel::refreshNow() {
    m_refreshTimer.stop();
    refresh();
    // A longer legend may take another line: lay out now, so that what follows (an export, a
    // screenshot) sees the charts at their final size.
    if (layout()) layout()->activate();
}

std::vector<LiveChartsPanel::Curve*> LiveChartsPanel::curves() {
    std::vector<Curve*> shown;
    if (m_hasLive) shown.push_back(&m_live);
    for (Curve& curve : m_selected) shown.push_back(&curve);
    return shown;
}

void LiveChartsPanel::nameCurves(const std::vector<Curve*>& shown) {
    // Short but telling: the algorithm, ε and λ; a seed or run number only where two curves
    // would otherwise carry the same name.
    std::map<QString, std::vector<Curve*>> byName;
    for (Curve* curve : shown) {
        curve->name = QStringLiteral("%1 %2, %3")
                          .arg(algorithmLabel(curve->config.algorithm),
                               chart_style::epsilonLabel(curve->config.epsilon),
                               chart_style::curvePointText(curve->config));
        byName[curve->name].push_back(curve);
    }
    for (auto& [name, group] : byName) {
        if (group.size() < 2) continue;
        std::map<std::uint64_t, int> seeds;
        for (const Curve* curve : group) ++seeds[curve->config.seed];
        const bool bySeed = seeds.size() == group.size();
        for (Curve* curve : group) {
            curve->name += bySeed ? tr(", seed %1").arg(curve->config.seed)
                                  : tr(" (run %1)").arg(curve->runId);
        }
    }
}

void LiveChartsPanel::refresh() {
    const std::vector<Curve*> shown = curves();
    nameCurves(shown);
    for (int i = 0; i < 4; ++i) updateChart(i, shown);
    // One legend line for all four charts: which curve is which run, and which one is running.
    QStringList entries;
    for (const Curve* curve : shown) {
        QStringList about{tr("run %1").arg(curve->runId)};
        if (!curve->state.isEmpty()) about << curve->state;
        if (!curve->live && shown.size() > 1) about << tr("selected");
        // Lines may break between settings, never inside one ("ε = 1", "DP-FERMI", "run 3").
        auto unbroken = [](const QString& text) {
            return text.toHtmlEscaped()
                .replace(QStringLiteral(" = "), QStringLiteral("&nbsp;=&nbsp;"))
                .replace(QStringLiteral("run "), QStringLiteral("run&nbsp;"))
                .replace(QLatin1Char('-'), QStringLiteral("&#8209;"));  // non-breaking hyphen
        };
        entries << QStringLiteral(
                       "<span style=\"color:%1; font-weight:bold\">━━</span>&nbsp;"
                       "<b>%2</b>&nbsp;(%3)")
                       .arg(colorOf(*curve, shown.size()).name(), unbroken(curve->name),
                            unbroken(about.join(QStringLiteral(", "))));
    }
    const QString text = entries.isEmpty() ? tr("<i>No run yet.</i>")
                                           : entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp; "));
    if (m_legend->text() != text) m_legend->setText(text);
}

QString LiveChartsPanel::legendText() const { return m_legend->text(); }

std::vector<LiveChartsPanel::SeriesSet> LiveChartsPanel::seriesOf(int chart) const {
    const ChartParts& parts = m_parts[chart];
    const std::size_t count = (m_hasLive ? 1 : 0) + m_selected.size();
    std::vector<SeriesSet> sets;
    for (std::size_t c = 0; c < count && c < parts.lines.size(); ++c) {
        sets.push_back({parts.lines[c], parts.raw[c], parts.extras[c]});
    }
    return sets;
}

void LiveChartsPanel::dropLive() {
    m_hasLive = false;
    m_liveRunId = 0;
    m_live = Curve{};
    scheduleRefresh();
}

void LiveChartsPanel::updateChart(int which, const std::vector<Curve*>& shown) {
    ChartParts& parts = m_parts[which];
    QChart* chart = parts.chart;
    // Per curve a faint raw series (behind), the main series and an extra one (ERMI or target
    // line); created lazily and never hidden (toggling a series' visibility resets its legend
    // marker): unused ones are simply empty.
    while (parts.lines.size() < shown.size()) {
        auto* raw = new QLineSeries();
        auto* line = new QLineSeries();
        auto* extra = new QLineSeries();
        for (QLineSeries* series : {raw, line, extra}) {
            chart->addSeries(series);
            series->attachAxis(parts.x);
            series->attachAxis(parts.y);
        }
        raw->setName(tr("raw"));
        extra->setName(which == kError      ? tr("share of units removed")
                       : which == kFairness ? tr("ERMI")
                                            : tr("target ε"));
        showInLegend(chart, raw, false);
        showInLegend(chart, extra, false);
        parts.raw.push_back(raw);
        parts.lines.push_back(line);
        parts.extras.push_back(extra);
    }

    // δ of the privacy chart: in the title when the private curves share it, else per curve.
    bool deltasDiffer = false;
    double delta = 0.0;
    if (which == kPrivacy) {
        bool first = true;
        for (const Curve* curve : shown) {
            if (!curve->isPrivate) continue;
            if (first)
                delta = curve->config.delta;
            else if (!sameDelta(delta, curve->config.delta))
                deltasDiffer = true;
            first = false;
        }
        QString title = tr("Privacy spent (ε)");
        if (deltasDiffer)
            title = tr("ε spent (δ per run)");
        else if (delta > 0)
            title = tr("ε spent (δ = %1)").arg(deltaText(delta));  // short: a narrow chart
        if (chart->title() != title) chart->setTitle(title);
    }

    // The error chart shows the excess risk of runs that report it (titled for what it shows).
    if (which == kError) {
        int excess = 0, error = 0;
        for (const Curve* curve : shown) {
            if (curve->metrics.empty()) continue;
            ++(hasExcessRisk(curve->metrics) ? excess : error);
        }
        const QString title = excess > 0 && error > 0 ? tr("Test error / excess risk")
                              : excess > 0            ? tr("Excess risk")
                                                      : tr("Test error");
        const QString yTitle = excess > 0 && error > 0 ? tr("error / excess risk")
                               : excess > 0            ? tr("excess risk")
                                                       : tr("error rate");
        if (chart->title() != title) chart->setTitle(title);
        if (parts.y->titleText() != yTitle) parts.y->setTitleText(yTitle);
    }

    // The x range first: the points are cut down to what its pixels can show.
    double xMax = 1.0;
    for (const Curve* curve : shown) {
        xMax = std::max(xMax, static_cast<double>(curve->epochs));
        // Algorithms that report by round or step (not by epoch) number past the Epochs setting.
        if (!curve->metrics.empty())
            xMax = std::max(xMax, static_cast<double>(curve->metrics.back().epoch));
    }
    chart_style::setNiceRange(parts.x, 0.0, std::max(2.0, xMax), 5);
    const double plotWidth =
        chart->plotArea().width() >= 50 ? chart->plotArea().width() : kUnlaidPlotWidth;
    parts.plotWidth = chart->plotArea().width();
    const double xSpan = std::max(1e-9, parts.x->max() - parts.x->min());
    auto reduce = [&](const QList<QPointF>& points) {
        if (points.size() < 2) return points;
        const double dataSpan = points.back().x() - points.front().x();
        return series_reduction::decimateMinMax(
            points, std::max(1, static_cast<int>(std::ceil(plotWidth * dataSpan / xSpan))));
    };
    // The privacy chart shows the certified ε exactly as computed: never smoothed.
    const int window = which == kPrivacy ? 0 : m_smoothing;
    const bool smoothing = window > 1;

    double yMax = 0.0;
    bool anyPoint = false, anyDashed = false;
    for (std::size_t c = 0; c < parts.lines.size(); ++c) {
        QLineSeries* raw = parts.raw[c];
        QLineSeries* line = parts.lines[c];
        QLineSeries* extra = parts.extras[c];
        const bool used = c < shown.size();
        // The runs are named once, in the legend above the four charts; a chart's own legend
        // keeps its dashed-line key (and each run's δ when they differ). Four copies of the
        // run names were cut to "DP-FERMI …" in charts a quarter of the window wide.
        showInLegend(chart, line, used && which == kPrivacy && deltasDiffer);
        if (!used) {
            raw->clear();
            line->clear();
            extra->clear();
            line->setProperty("pfaDrawnId", QVariant::fromValue(quint64(0)));
            continue;
        }
        Curve& curve = *shown[c];
        const QColor color = colorOf(curve, shown.size());
        // Setting a pen or a name re-lays out the legend: only do it when something changed.
        QPen pen(color, curve.live ? 2.6 : 2.2, Qt::SolidLine);
        pen.setCapStyle(Qt::RoundCap);
        if (line->pen() != pen) line->setPen(pen);
        QColor faint = color;
        faint.setAlphaF(0.3f);
        const QPen rawPen(faint, 1.2);
        if (raw->pen() != rawPen) raw->setPen(rawPen);
        QString name = curve.name;
        if (which == kPrivacy && deltasDiffer && curve.isPrivate) {
            name += tr(", δ = %1").arg(deltaText(curve.config.delta));
        }
        if (line->name() != name) line->setName(name);

        // The points of a curve change only when epochs arrive or the view changes: the runs
        // compared next to a live one are computed once, not 30 times a second.
        Curve::Drawn& drawn = curve.drawn[which];
        const int buckets = static_cast<int>(std::lround(plotWidth));
        if (drawn.epochs != curve.metrics.size() || drawn.window != window ||
            drawn.buckets != buckets || drawn.xSpan != xSpan) {
            QList<QPointF> points, extraPoints;
            points.reserve(static_cast<qsizetype>(curve.metrics.size()));
            const bool excess = which == kError && hasExcessRisk(curve.metrics);
            for (const pfa::EpochMetrics& m : curve.metrics) {
                const double v = valueFor(which, m, excess);
                if (std::isfinite(v)) points.append(QPointF(m.epoch, v));  // never draw NaN/Inf
                if (which == kFairness && std::isfinite(m.ermiHard)) {
                    extraPoints.append(QPointF(m.epoch, m.ermiHard));
                }
                if (which == kError && std::isfinite(m.removedFraction)) {
                    extraPoints.append(QPointF(m.epoch, m.removedFraction));
                }
            }
            // The axis covers the raw values (drawn faintly when smoothing is on).
            drawn.yMax = 0.0;
            for (const QPointF& p : points) drawn.yMax = std::max(drawn.yMax, p.y());
            for (const QPointF& p : extraPoints) drawn.yMax = std::max(drawn.yMax, p.y());
            if (which == kPrivacy && curve.isPrivate && std::isfinite(curve.config.epsilon)) {
                const int last =
                    std::max(curve.epochs, curve.metrics.empty() ? 0 : curve.metrics.back().epoch);
                extraPoints = {QPointF(1, curve.config.epsilon),
                               QPointF(last, curve.config.epsilon)};
                drawn.yMax = std::max(drawn.yMax, curve.config.epsilon);
            }
            drawn.finitePoints = static_cast<int>(points.size());
            drawn.anyDashed = !extraPoints.isEmpty();
            if (smoothing) {
                drawn.raw = reduce(points);
                drawn.line = reduce(series_reduction::movingAverage(points, window));
                drawn.extra = reduce(series_reduction::movingAverage(extraPoints, window));
            } else {
                drawn.raw.clear();
                drawn.line = reduce(points);
                drawn.extra = reduce(extraPoints);
            }
            drawn.epochs = curve.metrics.size();
            drawn.window = window;
            drawn.buckets = buckets;
            drawn.xSpan = xSpan;
            drawn.id = ++m_drawnIds;
        }
        yMax = std::max(yMax, drawn.yMax);
        anyPoint = anyPoint || drawn.finitePoints > 0;
        anyDashed = anyDashed || drawn.anyDashed;
        if (which == kError && curve.live) m_liveEpochsDrawn = drawn.finitePoints;
        // One replace() per series, and none when the series shows these points already.
        const char* const shows = "pfaDrawnId";
        if (line->property(shows).toULongLong() != drawn.id) {
            raw->replace(drawn.raw);
            line->replace(drawn.line);
            extra->replace(drawn.extra);
            line->setProperty(shows, QVariant::fromValue(drawn.id));
        }
        QColor light = color;
        light.setAlphaF(0.75f);
        const QPen dashed(light, 1.6, Qt::DashLine);
        if (extra->pen() != dashed) extra->setPen(dashed);
    }
    if (parts.key) showInLegend(chart, parts.key, anyDashed);
    // Axis changes re-lay out the whole chart; the ranges only move in "nice" steps.
    double top = niceCeiling(yMax * 1.08);
    // An error rate never exceeds 1; an excess risk (a regression's) may.
    if (which == kError && parts.y->titleText() == tr("error rate")) top = std::min(1.0, top);
    chart_style::setNiceRange(parts.y, 0.0, top, 4);

    ChartView* view = m_views[which];
    const bool anyPrivate =
        std::any_of(shown.begin(), shown.end(), [](const Curve* c) { return c->isPrivate; });
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

std::vector<ChartExportEntry> LiveChartsPanel::exportEntries() const {
    const QString names[] = {tr("Training loss…"), tr("Test error…"), tr("Fairness violation…"),
                             tr("Privacy spent…")};
    const QString stems[] = {QStringLiteral("training-loss"), QStringLiteral("test-error"),
                             QStringLiteral("fairness-violation"), QStringLiteral("privacy-spent")};
    std::vector<ChartExportEntry> entries;
    for (std::size_t i = 0; i < m_views.size(); ++i) {
        ChartExportEntry entry;
        entry.name = names[i];
        entry.view = m_views[i];
        entry.stem = stems[i];
        entry.dialogParent = m_views[i];
        entries.push_back(entry);
    }
    return entries;
}

}  // namespace pfa::ui
