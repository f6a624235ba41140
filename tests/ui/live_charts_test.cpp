// The live charts: smoothing and decimation of long curves, legend keys of the dashed lines,
// δ on the privacy chart, compared runs (colours, names, a run started next to them) and the
// side-by-side run details.
#include <QComboBox>
#include <QDir>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QTableWidget>
#include <QtCharts/QChart>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/series_reduction.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/run_details_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui_test_support.h"

namespace ui_live_charts_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

constexpr int kLoss = 0, kError = 1, kFairness = 2, kPrivacy = 3;

QList<QPointF> line(const std::vector<double>& ys) {
    QList<QPointF> points;
    for (std::size_t i = 0; i < ys.size(); ++i) points.append(QPointF(double(i + 1), ys[i]));
    return points;
}

std::vector<double> ys(const QList<QPointF>& points) {
    std::vector<double> values;
    for (const QPointF& p : points) values.push_back(p.y());
    return values;
}

// Deterministic noisy metrics of `epochs` epochs (ε grows to `epsilon`).
std::vector<pfa::EpochMetrics> noisyHistory(int epochs, double epsilon, double level = 0.3) {
    std::vector<pfa::EpochMetrics> history;
    for (int e = 1; e <= epochs; ++e) {
        pfa::EpochMetrics m;
        m.epoch = e;
        m.step = e * 10;
        const double wiggle = 0.05 * std::sin(e * 1.7) + 0.03 * std::cos(e * 12.9);
        m.trainLoss = 0.7 - 0.2 * e / epochs + wiggle;
        m.testError = level + wiggle;
        m.violation = 0.1 + wiggle;
        m.ermiHard = 0.05 + wiggle / 2;
        m.epsilonSpent = epsilon * e / epochs;
        history.push_back(m);
    }
    return history;
}

pfa::TrainConfig config(double epsilon, double lambda, std::uint64_t seed = 0, int epochs = 30) {
    pfa::TrainConfig c;
    c.algorithm = "dp-fermi";
    c.epsilon = epsilon;
    c.lambda = lambda;
    c.seed = seed;
    c.epochs = epochs;
    c.delta = 1e-6;
    return c;
}

RunEntryPtr finishedRun(int id, const pfa::TrainConfig& c, double level = 0.3) {
    pfa::RunResult result;
    result.config = c;
    result.dataset = "adult";
    result.history = noisyHistory(c.epochs, c.epsilon, level);
    result.privacy.isPrivate = c.isPrivate();
    result.privacy.delta = c.delta;
    result.privacy.epsilonSpent = c.epsilon * 0.98;
    result.test.error = level + 0.01 * id;
    result.test.dpGap = 0.02 * id;
    result.test.groups = {{"female", 100, 0.1, 0.12 + 0.01 * id, 0.5, 0.05, 0.9},
                          {"male", 200, 0.3, 0.25, 0.6, 0.1, 0.8 + 0.01 * id}};
    return makeRunEntry(id, result, {}, QDateTime::currentDateTime());
}

// Whether `series` has an entry in the chart's legend (once the legend has been laid out: a
// marker's visibility follows its graphics item).
bool markerVisible(QChart* chart, QLineSeries* series) {
    QTest::qWait(20);
    const auto markers = chart->legend()->markers(series);
    return !markers.isEmpty() && markers.front()->isVisible();
}

}  // namespace

TEST_CASE("Moving average: centred window, cut short at the ends", "[livecharts][smoothing]") {
    using series_reduction::movingAverage;
    const QList<QPointF> points = line({1, 2, 3, 4, 5, 6});
    CHECK(ys(movingAverage(points, 3)) == std::vector<double>{1.5, 2, 3, 4, 5, 5.5});
    // An even window reaches one further ahead than back.
    CHECK(ys(movingAverage(points, 4)) == std::vector<double>{2, 2.5, 3.5, 4.5, 5, 5.5});
    // A spike is spread over the window, its mass kept.
    CHECK(ys(movingAverage(line({0, 0, 9, 0, 0}), 3)) == std::vector<double>{0, 3, 3, 3, 0});
    // x values stay; a window of one (or none) changes nothing.
    const QList<QPointF> smoothed = movingAverage(points, 5);
    REQUIRE(smoothed.size() == points.size());
    for (qsizetype i = 0; i < points.size(); ++i) CHECK(smoothed[i].x() == points[i].x());
    CHECK(movingAverage(points, 1) == points);
    CHECK(movingAverage(points, 0) == points);
}

TEST_CASE("Decimation keeps every extremum and bounds the point count",
          "[livecharts][decimation]") {
    using series_reduction::decimateMinMax;
    std::vector<double> values;
    for (int i = 0; i < 10000; ++i) values.push_back(std::sin(i * 0.01) + 0.2 * std::sin(i * 3.1));
    values[4321] = 100.0;  // a spike
    values[7777] = -50.0;  // a dip
    const QList<QPointF> points = line(values);
    const int buckets = 300;
    const QList<QPointF> kept = decimateMinMax(points, buckets);
    CHECK(kept.size() <= 2 * buckets + 2);
    CHECK(kept.size() >= buckets);
    CHECK(kept.contains(points[4321]));
    CHECK(kept.contains(points[7777]));
    CHECK(kept.front() == points.front());
    CHECK(kept.back() == points.back());
    for (qsizetype i = 1; i < kept.size(); ++i) CHECK(kept[i].x() > kept[i - 1].x());
    // Each slice's lowest and highest point is kept: the envelope is that of the input.
    const double width = (points.back().x() - points.front().x()) / buckets;
    for (int b = 0; b < buckets; b += 37) {
        const double from = points.front().x() + b * width, to = from + width;
        double lo = INFINITY, hi = -INFINITY, keptLo = INFINITY, keptHi = -INFINITY;
        for (const QPointF& p : points) {
            if (p.x() >= from && p.x() < to) lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
        }
        for (const QPointF& p : kept) {
            if (p.x() >= from && p.x() < to)
                keptLo = std::min(keptLo, p.y()), keptHi = std::max(keptHi, p.y());
        }
        CHECK(keptLo == lo);
        CHECK(keptHi == hi);
    }
    // Small curves are left alone.
    const QList<QPointF> few = line({3, 1, 2});
    CHECK(decimateMinMax(few, 300) == few);
}

TEST_CASE("Compared runs get distinct colours from the comparison palette",
          "[livecharts][compare]") {
    std::set<QRgb> colors;
    for (int i = 0; i < compare_palette::kSize; ++i) colors.insert(compare_palette::color(i).rgb());
    CHECK(static_cast<int>(colors.size()) == compare_palette::kSize);
    CHECK(compare_palette::color(compare_palette::kSize) == compare_palette::color(0));

    LiveChartsPanel panel;
    panel.resize(900, 700);
    const int minimumWidth = panel.minimumSizeHint().width();
    // Same ε: alone each would have the ε colour; compared, they must differ.
    const RunEntryPtr a = finishedRun(27, config(1.0, 0.0));
    const RunEntryPtr b = finishedRun(29, config(1.0, 2.0));
    panel.showRuns({a, b});
    panel.refreshNow();
    // The longer legend wraps; it never makes the charts (and the window) wider.
    CHECK(panel.minimumSizeHint().width() <= minimumWidth);
    for (int chart : {kLoss, kError, kFairness, kPrivacy}) {
        const auto sets = panel.seriesOf(chart);
        REQUIRE(sets.size() == 2);
        CHECK(sets[0].line->pen().color() != sets[1].line->pen().color());
        CHECK(sets[0].line->pen().color() == compare_palette::color(0));
        CHECK(sets[1].line->pen().color() == compare_palette::color(1));
    }
    CHECK(panel.colorOfRun(27) == compare_palette::color(0));
    CHECK(panel.colorOfRun(29) == compare_palette::color(1));
    CHECK_FALSE(panel.colorOfRun(31).isValid());
    // Series names say the settings (exports carry them), not "run 27".
    const auto sets = panel.seriesOf(kError);
    CHECK(sets[0].line->name() == QStringLiteral("DP-FERMI ε = 1, λ = 0"));
    CHECK(sets[1].line->name() == QStringLiteral("DP-FERMI ε = 1, λ = 2"));

    // One run alone keeps the colour of its ε.
    panel.showRuns({a});
    panel.refreshNow();
    CHECK(panel.seriesOf(kError).front().line->pen().color() == chart_style::colorForEpsilon(1.0));

    // Equal settings are told apart by the seed, or by the run when the seed is equal too.
    panel.showRuns({finishedRun(3, config(1.0, 2.0, 1)), finishedRun(4, config(1.0, 2.0, 5))});
    panel.refreshNow();
    CHECK(panel.seriesOf(kError)[0].line->name() ==
          QStringLiteral("DP-FERMI ε = 1, λ = 2, seed 1"));
    CHECK(panel.seriesOf(kError)[1].line->name() ==
          QStringLiteral("DP-FERMI ε = 1, λ = 2, seed 5"));
    panel.showRuns({finishedRun(3, config(1.0, 2.0, 1)), finishedRun(4, config(1.0, 2.0, 1))});
    panel.refreshNow();
    CHECK(panel.seriesOf(kError)[0].line->name() ==
          QStringLiteral("DP-FERMI ε = 1, λ = 2 (run 3)"));
    CHECK(panel.seriesOf(kError)[1].line->name() ==
          QStringLiteral("DP-FERMI ε = 1, λ = 2 (run 4)"));
}

TEST_CASE("Legend keys of the dashed lines, δ on the privacy chart, the note stays",
          "[livecharts][legend]") {
    LiveChartsPanel panel;
    panel.resize(900, 700);
    panel.show();
    panel.refreshNow();
    QChart* fairness = panel.chartOf(kFairness);
    QChart* privacy = panel.chartOf(kPrivacy);
    REQUIRE(panel.dashedKeyOf(kFairness));
    REQUIRE(panel.dashedKeyOf(kPrivacy));
    CHECK_FALSE(panel.dashedKeyOf(kLoss));
    // Nothing drawn yet: no keys for lines that are not there.
    CHECK_FALSE(markerVisible(fairness, panel.dashedKeyOf(kFairness)));
    CHECK_FALSE(markerVisible(privacy, panel.dashedKeyOf(kPrivacy)));
    const QString note = panel.noteLabel()->text();
    CHECK(note.contains(QStringLiteral("ERMI")));
    CHECK(note.contains(QStringLiteral("target ε")));

    pfa::TrainConfig c = config(2.0, 1.0, 0, 50);
    c.delta = 1e-6;
    panel.beginLiveRun(7, c);
    panel.appendLive(7, noisyHistory(20, 2.0));
    panel.refreshNow();
    CHECK(markerVisible(fairness, panel.dashedKeyOf(kFairness)));
    CHECK(markerVisible(privacy, panel.dashedKeyOf(kPrivacy)));
    CHECK(panel.dashedKeyOf(kFairness)->name() == QStringLiteral("ERMI"));
    CHECK(panel.dashedKeyOf(kPrivacy)->name() == QStringLiteral("target ε"));
    CHECK(panel.dashedKeyOf(kPrivacy)->pen().style() == Qt::DashLine);
    // The per-run dashed lines themselves carry no legend entry of their own.
    CHECK_FALSE(markerVisible(fairness, panel.seriesOf(kFairness).front().dashed));
    // Runs are named in the legend above the charts, not again in each chart's own.
    CHECK_FALSE(markerVisible(fairness, panel.seriesOf(kFairness).front().line));
    CHECK(privacy->title() == QStringLiteral("ε spent (δ = 10⁻⁶)"));
    CHECK(panel.seriesOf(kPrivacy).front().dashed->count() == 2);  // the target line

    // The note is still there after the run ended (it used to vanish with the first run).
    panel.endLiveRun(7, false);
    panel.refreshNow();
    CHECK(panel.noteLabel()->isVisibleTo(&panel));
    CHECK(panel.noteLabel()->text() == note);
    CHECK(panel.legendText().contains(
        QStringLiteral("DP&#8209;FERMI ε&nbsp;=&nbsp;2, λ&nbsp;=&nbsp;1")));

    // Different δ: each run's privacy curve says its own.
    pfa::TrainConfig other = config(2.0, 1.0, 0, 50);
    other.delta = 2.5e-9;
    panel.showRuns({finishedRun(8, other)});
    panel.refreshNow();
    CHECK(privacy->title() == QStringLiteral("ε spent (δ per run)"));
    CHECK(panel.seriesOf(kPrivacy)[1].line->name().contains(QStringLiteral("δ = 2.5 × 10⁻⁹")));
    CHECK(panel.seriesOf(kPrivacy)[0].line->name().contains(QStringLiteral("δ = 10⁻⁶")));
    // ... in the privacy chart's own legend, the one place that tells them apart.
    CHECK(markerVisible(privacy, panel.seriesOf(kPrivacy)[0].line));
    CHECK(markerVisible(privacy, panel.seriesOf(kPrivacy)[1].line));

    // Not private: no δ, no target line, no key.
    panel.clear();
    panel.beginLiveRun(9, config(INFINITY, 1.0));
    panel.appendLive(9, noisyHistory(5, INFINITY));
    panel.refreshNow();
    CHECK(privacy->title() == QStringLiteral("Privacy spent (ε)"));
    CHECK_FALSE(markerVisible(privacy, panel.dashedKeyOf(kPrivacy)));
}

TEST_CASE("Smoothing draws the moving average over a faint raw curve, privacy is never smoothed",
          "[livecharts][smoothing]") {
    LiveChartsPanel panel;
    panel.resize(900, 700);
    panel.setSmoothingWindow(0);
    pfa::TrainConfig c = config(1.0, 1.0, 0, 40);
    const std::vector<pfa::EpochMetrics> history = noisyHistory(40, 1.0);
    panel.beginLiveRun(5, c);
    panel.appendLive(5, history);
    panel.refreshNow();
    QList<QPointF> errors;
    for (const pfa::EpochMetrics& m : history) errors.append(QPointF(m.epoch, m.testError));
    auto set = panel.seriesOf(kError).front();
    CHECK(set.line->points() == errors);
    CHECK(set.raw->count() == 0);

    panel.setSmoothingWindow(5);
    CHECK(panel.smoothingBox()->currentData().toInt() == 5);
    panel.refreshNow();
    set = panel.seriesOf(kError).front();
    CHECK(set.raw->points() == errors);  // the raw curve, faint behind
    CHECK(set.raw->pen().color().alphaF() < 0.5);
    const QList<QPointF> smoothed = set.line->points();
    REQUIRE(smoothed.size() == errors.size());
    // Epoch 10 is the mean of epochs 8…12.
    double sum = 0;
    for (int e = 8; e <= 12; ++e) sum += history[e - 1].testError;
    CHECK(smoothed[9].y() == Approx(sum / 5).epsilon(1e-12));
    CHECK(smoothed == series_reduction::movingAverage(errors, 5));
    // The certified ε is drawn as computed.
    const auto privacy = panel.seriesOf(kPrivacy).front();
    CHECK(privacy.raw->count() == 0);
    REQUIRE(privacy.line->count() == 40);
    for (int e = 0; e < 40; ++e) CHECK(privacy.line->at(e).y() == history[e].epsilonSpent);

    panel.setSmoothingWindow(0);
    panel.refreshNow();
    CHECK(panel.seriesOf(kError).front().line->points() == errors);
}

TEST_CASE("Thousands of epochs are cut down to the chart's pixel width, spikes kept",
          "[livecharts][decimation]") {
    LiveChartsPanel panel;
    panel.resize(1000, 700);
    panel.show();
    QTest::qWait(50);
    panel.setSmoothingWindow(0);
    pfa::TrainConfig c = config(1.0, 1.0, 0, 6000);
    std::vector<pfa::EpochMetrics> history = noisyHistory(6000, 1.0);
    history[3000].testError = 0.97;  // one bad epoch must stay visible
    panel.beginLiveRun(5, c);
    panel.appendLive(5, history);
    panel.refreshNow();
    QTest::qWait(50);
    panel.refreshNow();
    const double width = panel.chartOf(kError)->plotArea().width();
    REQUIRE(width > 100);
    const QLineSeries* errors = panel.seriesOf(kError).front().line;
    CHECK(errors->count() <= 2 * static_cast<int>(std::ceil(width)) + 2);
    CHECK(errors->count() >= static_cast<int>(width) / 2);
    CHECK(errors->points().contains(QPointF(3001, 0.97)));
    CHECK(panel.yAxisOf(kError)->max() >= 0.97);
}

TEST_CASE("Epoch labels of a long run are drawn whole on a narrow chart",
          "[livecharts][decimation]") {
    // 100,000 epochs on charts about 300 pixels wide: six-digit tick labels need fewer ticks
    // than a short run's, or Qt cuts each to "20…".
    LiveChartsPanel panel;
    panel.resize(640, 480);
    panel.show();
    QTest::qWait(50);
    const int epochs = 100000;
    panel.beginLiveRun(6, config(1.0, 1.0, 0, epochs));
    panel.appendLive(6, noisyHistory(epochs, 1.0));
    panel.refreshNow();
    QTest::qWait(50);
    panel.refreshNow();
    QTest::qWait(50);
    for (int chart : {kLoss, kError, kFairness, kPrivacy}) {
        QChart* drawn = panel.chartOf(chart);
        INFO("chart " << chart << ", plot " << drawn->plotArea().width() << " px wide");
        REQUIRE(drawn->plotArea().width() < 400);
        QStringList labels;
        for (QGraphicsItem* item : drawn->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (!text || !text->isVisible() || text->toPlainText().isEmpty()) continue;
            labels << text->toPlainText();
            INFO("drawn text \"" << text->toPlainText().toStdString() << "\"");
            CHECK_FALSE(text->toPlainText().contains(QChar(0x2026)));
            CHECK_FALSE(text->toPlainText().contains(QStringLiteral("...")));
        }
        // The epoch axis still has ticks, with their five- or six-digit labels whole.
        int longLabels = 0;
        for (const QString& label : labels) {
            bool number = false;
            const double value = label.toDouble(&number);
            if (number && value >= 10000) ++longLabels;
        }
        INFO(labels.join(QStringLiteral(" | ")).toStdString());
        CHECK(longLabels >= 2);
    }
}

TEST_CASE("A run started while runs are compared is drawn next to them", "[livecharts][compare]") {
    LiveChartsPanel panel;
    panel.resize(900, 700);
    panel.setSmoothingWindow(0);
    const RunEntryPtr a = finishedRun(1, config(1.0, 0.0, 0, 30), 0.3);
    const RunEntryPtr b = finishedRun(2, config(1.0, 4.0, 0, 30), 0.5);
    panel.showRuns({a, b});
    panel.refreshNow();
    const QColor colorA = panel.colorOfRun(1), colorB = panel.colorOfRun(2);

    panel.beginLiveRun(3, config(1.0, 8.0, 0, 300));
    panel.appendLive(3, noisyHistory(10, 1.0, 0.2));
    panel.refreshNow();
    const auto sets = panel.seriesOf(kError);
    REQUIRE(sets.size() == 3);
    // The compared curves are untouched: all their points, their colours.
    CHECK(sets[0].line->count() == 10);
    CHECK(sets[1].line->count() == 30);
    CHECK(sets[2].line->count() == 30);
    CHECK(panel.colorOfRun(1) == colorA);
    CHECK(panel.colorOfRun(2) == colorB);
    CHECK(panel.colorOfRun(3) != colorA);
    CHECK(panel.colorOfRun(3) != colorB);
    // The axes cover every curve.
    CHECK(panel.xAxisOf(kError)->max() >= 300);
    for (const auto& set : sets) {
        for (const QPointF& p : set.line->points()) CHECK(p.y() <= panel.yAxisOf(kError)->max());
    }
    // The legend says which one is running and which are the selected ones.
    const QString legend = panel.legendText();
    CHECK(legend.contains(QStringLiteral("run&nbsp;3, running")));
    CHECK(legend.contains(QStringLiteral("run&nbsp;1, selected")));
    CHECK(legend.contains(QStringLiteral("run&nbsp;2, selected")));
    // New epochs of the live run redraw its curve only; the compared ones are left alone.
    QSignalSpy liveReplaced(sets[0].line, &QXYSeries::pointsReplaced);
    QSignalSpy comparedReplaced(sets[1].line, &QXYSeries::pointsReplaced);
    panel.appendLive(3, {noisyHistory(11, 1.0, 0.2).back()});
    panel.refreshNow();
    CHECK(liveReplaced.count() == 1);
    CHECK(comparedReplaced.count() == 0);
    CHECK(sets[0].line->count() == 11);
    CHECK(sets[1].line->count() == 30);
    panel.endLiveRun(3, false);
    panel.refreshNow();
    CHECK(panel.seriesOf(kError).size() == 3);
}

TEST_CASE("Run details show compared runs side by side", "[livecharts][details]") {
    RunDetailsPanel details;
    const RunEntryPtr a = finishedRun(27, config(1.0, 0.0));
    const RunEntryPtr b = finishedRun(29, config(4.0, 2.0, 3));
    details.showRuns({a, b}, {compare_palette::color(0), compare_palette::color(1)});
    QTableWidget* table = details.comparisonTable();
    CHECK(table->isVisibleTo(&details));
    CHECK_FALSE(details.groupTable()->isVisibleTo(&details));
    REQUIRE(table->columnCount() == 3);
    CHECK(table->horizontalHeaderItem(1)->text() == QStringLiteral("Run 27"));
    CHECK(table->horizontalHeaderItem(2)->text() == QStringLiteral("Run 29"));
    CHECK_FALSE(table->horizontalHeaderItem(1)->icon().isNull());
    auto row = [&](const QString& label) {
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->text() == label) return r;
        }
        return -1;
    };
    auto cell = [&](const QString& label, int column) {
        const int r = row(label);
        return r < 0 ? QStringLiteral("<missing>") : table->item(r, column)->text();
    };
    CHECK(cell(QStringLiteral("Test error"), 1) == QStringLiteral("0.57"));
    CHECK(cell(QStringLiteral("Test error"), 2) == QStringLiteral("0.59"));
    CHECK(cell(QStringLiteral("Target ε"), 1) == QStringLiteral("1"));
    CHECK(cell(QStringLiteral("Target ε"), 2) == QStringLiteral("4"));
    CHECK(cell(QStringLiteral("Certified ε"), 2) == QStringLiteral("3.92"));
    CHECK(cell(QStringLiteral("λ"), 2) == QStringLiteral("2"));
    CHECK(cell(QStringLiteral("Seed"), 2) == QStringLiteral("3"));
    CHECK(cell(QStringLiteral("δ"), 1) == QStringLiteral("1e-06"));
    CHECK(cell(QStringLiteral("Demographic-parity gap"), 1) == QStringLiteral("0.54"));
    CHECK(cell(QStringLiteral("Selection rate — female"), 1) == QStringLiteral("0.390"));
    CHECK(cell(QStringLiteral("Selection rate — female"), 2) == QStringLiteral("0.410"));
    CHECK(cell(QStringLiteral("Accuracy — male"), 2) == QStringLiteral("1.090"));
    CHECK(details.summaryText().contains(QStringLiteral("27 and 29")));
    // What differs stands out; what the runs share does not.
    CHECK(table->item(row(QStringLiteral("Test error")), 1)->font().bold());
    CHECK_FALSE(table->item(row(QStringLiteral("Algorithm")), 1)->font().bold());
    CHECK(row(QStringLiteral("Test error")) < row(QStringLiteral("Algorithm")));

    // Back to one run: its summary and group table.
    details.showRuns({a});
    CHECK_FALSE(details.comparisonTable()->isVisibleTo(&details));
    CHECK(details.groupTable()->isVisibleTo(&details));
    CHECK(details.groupTable()->rowCount() == 2);
}

TEST_CASE(
    "Main window: two selected runs are compared in colour, side by side, and a new run "
    "joins them",
    "[livecharts][compare][window]") {
    auto window = readyWindow(15);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    for (double lambda : {0.0, 2.0}) {
        window->experimentPanel()->lambdaControl()->spinBox()->setValue(lambda);
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, lambda == 0.0 ? 1 : 2));
    }
    const int first = window->historyModel()->entries()[0]->id;
    const int second = window->historyModel()->entries()[1]->id;
    window->historyView()->selectRuns({first, second});
    LiveChartsPanel* live = window->liveCharts();
    live->refreshNow();
    CHECK(live->colorOfRun(first).isValid());
    CHECK(live->colorOfRun(first) != live->colorOfRun(second));
    QTableWidget* table = window->runDetails()->comparisonTable();
    REQUIRE(table->isVisibleTo(window->runDetails()));
    CHECK(table->columnCount() == 3);
    // The privacy chart names the δ of the runs (auto: 1/n², as the accountant used it).
    const double delta = window->historyModel()->entries()[0]->result.privacy.delta;
    REQUIRE(delta > 0);
    CHECK(live->chartOf(kPrivacy)->title().contains(QStringLiteral("δ = ")));

    // A new run is drawn next to the two; when it ends the details show all three.
    window->experimentPanel()->lambdaControl()->spinBox()->setValue(5.0);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 3));
    live->refreshNow();
    CHECK(live->seriesOf(kError).size() == 3);
    const int third = window->historyModel()->entries()[2]->id;
    CHECK(live->shownLiveRunId() == third);
    CHECK(live->colorOfRun(third) != live->colorOfRun(first));
    CHECK(live->colorOfRun(third) != live->colorOfRun(second));
    REQUIRE(table->isVisibleTo(window->runDetails()));
    CHECK(table->columnCount() == 4);
    CHECK(table->horizontalHeaderItem(1)->text() == QStringLiteral("Run %1").arg(third));
}

TEST_CASE("Screenshots: two runs compared, at 1280×720 and 1920×1080",
          "[livecharts][compare][screenshot][slow]") {
    auto window = readyWindow(300);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    for (double lambda : {0.0, 4.0}) {
        window->experimentPanel()->lambdaControl()->spinBox()->setValue(lambda);
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, lambda == 0.0 ? 1 : 2, 60000));
    }
    const auto& entries = window->historyModel()->entries();
    window->historyView()->selectRuns({entries[0]->id, entries[1]->id});
    window->liveCharts()->setSmoothingWindow(25);
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
        window->resize(size);
        QTest::qWait(200);
        window->liveCharts()->refreshNow();
        QTest::qWait(200);
        const QString path = QStringLiteral(PFA_SCREENSHOT_DIR "/compare-%1x%2.png")
                                 .arg(size.width())
                                 .arg(size.height());
        REQUIRE(window->grab().save(path));
        CHECK(QImage(path).width() >= size.width() - 2);
    }
    CHECK(window->runDetails()->comparisonTable()->isVisibleTo(window->runDetails()));
    CHECK(window->liveCharts()->seriesOf(kError).size() == 2);
}

}  // namespace ui_live_charts_test
