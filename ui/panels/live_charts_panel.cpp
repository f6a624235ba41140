#include "ui/panels/live_charts_panel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <algorithm>
#include <cmath>

#include "ui/charts/chart_view.h"

namespace pfa::ui {

namespace {

constexpr int kRefreshIntervalMs = 33;  // ≤ 30 Hz
const char* const kSmoothingKey = "liveCharts/smoothing";

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
    for (int i = 0; i < 4; ++i) {
        m_charts[i] = std::make_unique<LiveChart>(i, this);
        m_views[i] = m_charts[i]->view();
        grid->addWidget(m_views[i], i / 2, i % 2);
        // Points are cut down to the plot's width: redo them when it changes noticeably.
        connect(m_charts[i]->chart(), &QChart::plotAreaChanged, this,
                [this, i](const QRectF& area) {
                    if (std::fabs(area.width() - m_charts[i]->plotWidth()) > 8.0) scheduleRefresh();
                });
    }
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

void LiveChartsPanel::beginLiveRun(int runId, const pfa::TrainConfig& config) {
    m_liveRunId = runId;
    m_hasLive = true;
    m_live = LiveCurve::forRun(runId, config);
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
        LiveCurve curve = LiveCurve::forRun(run->id, config);
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
    m_live = LiveCurve{};
    m_selected.clear();
    refreshNow();
}

QColor LiveChartsPanel::colorOfRun(int runId) const {
    const std::size_t count = (m_hasLive ? 1 : 0) + m_selected.size();
    if (m_hasLive && m_live.runId == runId) return m_live.color(count);
    for (const LiveCurve& curve : m_selected) {
        if (curve.runId == runId) return curve.color(count);
    }
    return QColor();
}

int LiveChartsPanel::livePointCount() const {
    return m_hasLive ? m_live.drawn[live_chart::kError].finitePoints : 0;
}

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

std::vector<LiveCurve*> LiveChartsPanel::curves() {
    std::vector<LiveCurve*> shown;
    if (m_hasLive) shown.push_back(&m_live);
    for (LiveCurve& curve : m_selected) shown.push_back(&curve);
    return shown;
}

void LiveChartsPanel::refresh() {
    const std::vector<LiveCurve*> shown = curves();
    nameLiveCurves(shown);
    for (const std::unique_ptr<LiveChart>& chart : m_charts) chart->update(shown, m_smoothing);
    // One legend line for all four charts: which curve is which run, and which one is running.
    QStringList entries;
    for (const LiveCurve* curve : shown) {
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
                       .arg(curve->color(shown.size()).name(), unbroken(curve->name),
                            unbroken(about.join(QStringLiteral(", "))));
    }
    const QString text = entries.isEmpty() ? tr("<i>No run yet.</i>")
                                           : entries.join(QStringLiteral("&nbsp;&nbsp;&nbsp; "));
    if (m_legend->text() != text) m_legend->setText(text);
}

QString LiveChartsPanel::legendText() const { return m_legend->text(); }

std::vector<LiveChartsPanel::SeriesSet> LiveChartsPanel::seriesOf(int chart) const {
    const LiveChart& parts = *m_charts[chart];
    const std::size_t count = (m_hasLive ? 1 : 0) + m_selected.size();
    std::vector<SeriesSet> sets;
    for (std::size_t c = 0; c < count && c < parts.slotCount(); ++c) {
        sets.push_back({parts.line(c), parts.raw(c), parts.dashed(c)});
    }
    return sets;
}

void LiveChartsPanel::dropLive() {
    m_hasLive = false;
    m_liveRunId = 0;
    m_live = LiveCurve{};
    scheduleRefresh();
}

QString LiveChartsPanel::lossChartTag() const { return m_charts[live_chart::kLoss]->tagText(); }

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
