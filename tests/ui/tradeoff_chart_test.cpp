// The tradeoff chart (offscreen): one data set and notion per front, the live-mode trail and
// its Clear, the fixed ε colours and their colour bar, a legend that never elides, and the
// settings tooltip of a hovered point.
#include "ui/charts/tradeoff_chart.h"

#include <QComboBox>
#include <QDir>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QImage>
#include <QToolButton>
#include <QToolTip>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

#include "core/sweep/prepared_dataset.h"
#include "ui/charts/chart_legend.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/epsilon_color_bar.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_tradeoff_chart_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

const std::string kSynthetic =
    "synthetic(n=2000,d=8,minority=0.3,bias=0.5,noise=0.05,seed=1)|split=1,0.25";
const std::string kAdult = "adult/sex|split=7,0.25";

/// A completed run on `dataset` at (violation, error); every notion's gap is `violation`.
RunEntryPtr fakeRun(int id, const std::string& dataset, double epsilon, double violation,
                    double error, const std::string& algorithm = "dp-fermi",
                    pfa::FairnessNotion notion = pfa::FairnessNotion::DemographicParity) {
    auto entry = std::make_shared<RunEntry>();
    entry->id = id;
    entry->result.status = pfa::RunStatus::Completed;
    entry->result.config.algorithm = algorithm;
    entry->result.config.epsilon = epsilon;
    entry->result.config.lambda = 0.5 * id;
    entry->result.config.fairness = notion;
    entry->result.test.error = error;
    entry->result.test.dpGap = entry->result.test.eoGap = entry->result.test.eoppGap = violation;
    entry->context.runKey = pfa::runKey(dataset, entry->result.config);
    entry->context.datasetDescription = dataset;
    return entry;
}

std::set<int> asSet(const std::vector<int>& ids) { return {ids.begin(), ids.end()}; }

/// Chooses item `key` in `box` as a user would (the chart reacts to `activated`).
void choose(QComboBox* box, const QVariant& key) {
    const int index = box->findData(key);
    REQUIRE(index >= 0);
    box->setCurrentIndex(index);
    emit box->activated(index);
}

/// The legend's entry boxes in the chart's coordinates.
std::vector<QRectF> legendRectsInChart(const TradeoffChart& chart) {
    std::vector<QRectF> rects;
    for (const QRectF& rect : chart.legend()->entryRects())
        rects.push_back(chart.legend()->mapRectToParent(rect));
    return rects;
}

/// Every legend label is drawn in full: its box holds the symbol and the whole text, lies
/// inside the chart (not clipped), below the plot area, and overlaps no other entry.
void checkLegendReadable(const TradeoffChart& chart) {
    const ChartLegend* legend = chart.legend();
    const QRectF chartRect = chart.view()->chart()->rect();
    const QRectF plot = chart.view()->chart()->plotArea();
    const std::vector<QRectF> rects = legendRectsInChart(chart);
    REQUIRE(rects.size() == legend->entries().size());
    const QFontMetricsF metrics(legend->font());
    for (std::size_t i = 0; i < rects.size(); ++i) {
        const QString text = legend->entries()[i].text;
        INFO("entry '" << text.toStdString() << "'");
        CHECK_FALSE(text.contains(QStringLiteral("…")));
        CHECK(rects[i].width() >= metrics.horizontalAdvance(text));
        CHECK(rects[i].width() >= legend->entryWidth(legend->entries()[i]) - 0.5);
        CHECK(chartRect.contains(rects[i]));
        CHECK(rects[i].top() >= plot.bottom());
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            CHECK_FALSE(rects[i].intersects(rects[j]));
    }
    CHECK_FALSE(chart.view()->chart()->legend()->isVisible());  // Qt's eliding legend is not used
}

}  // namespace

TEST_CASE("Tradeoff chart: runs of two data sets never share one Pareto front", "[ui][tradeoff]") {
    TradeoffChart chart;
    chart.resize(700, 520);
    // Adult's runs dominate the synthetic ones: one front over both would hold Adult's only.
    const std::vector<RunEntryPtr> runs{
        fakeRun(1, kSynthetic, 1.0, 0.02, 0.30),
        fakeRun(2, kSynthetic, 1.0, 0.10, 0.25),
        fakeRun(3, kSynthetic, 1.0, 0.12, 0.28),  // dominated by 2
        fakeRun(4, kAdult, 1.0, 0.01, 0.15),
        fakeRun(5, kAdult, 1.0, 0.05, 0.12),
        fakeRun(6, kAdult, 1.0, 0.06, 0.14),                  // dominated by 5
        fakeRun(7, kSynthetic, INFINITY, 0.20, 0.20, "erm"),  // a baseline: every notion
    };
    chart.followExperiment(QString::fromStdString(kSynthetic),
                           pfa::FairnessNotion::DemographicParity);
    chart.setRuns(runs);

    CHECK(chart.pointCount() == 4);
    CHECK(asSet(chart.frontRunIds()) == std::set<int>{1, 2, 7});
    CHECK(chart.datasetBox()->count() == 2);
    CHECK(chart.datasetBox()->currentData().toString() == QString::fromStdString(kSynthetic));
    // Named above the chart and in an export's caption line.
    CHECK(chart.exportContext().caption.startsWith(QStringLiteral("synthetic")));

    // The user picks Adult in the chart: its own front.
    choose(chart.datasetBox(), QString::fromStdString(kAdult));
    CHECK(chart.shownDataset() == QString::fromStdString(kAdult));
    CHECK(chart.pointCount() == 3);
    CHECK(asSet(chart.frontRunIds()) == std::set<int>{4, 5});
    CHECK(chart.exportContext().caption.startsWith(QStringLiteral("adult (sex)")));
    // The same panel choice again does not undo the user's pick ...
    chart.followExperiment(QString::fromStdString(kSynthetic),
                           pfa::FairnessNotion::DemographicParity);
    CHECK(chart.shownDataset() == QString::fromStdString(kAdult));
    // ... a new one does: another notion shows the runs trained for it and the baselines.
    chart.followExperiment(QString::fromStdString(kSynthetic), pfa::FairnessNotion::EqualizedOdds);
    CHECK(chart.shownDataset() == QString::fromStdString(kSynthetic));
    CHECK(chart.notionBox()->currentText() == QStringLiteral("equalized odds"));
    CHECK(chart.pointCount() == 1);
    CHECK(chart.frontRunIds() == std::vector<int>{7});
    CHECK(chart.view()
              ->chart()
              ->axes(Qt::Horizontal)
              .front()
              ->titleText()
              .startsWith(QStringLiteral("equalized odds")));
}

TEST_CASE("Tradeoff chart: a run that traces its own curve is drawn as that curve",
          "[ui][tradeoff][curve-points]") {
    TradeoffChart chart;
    chart.resize(700, 520);
    auto curveRun = std::make_shared<RunEntry>(
        *fakeRun(1, kSynthetic, 1.0, 0.02, 0.30, "dp-fermi", pfa::FairnessNotion::EqualizedOdds));
    // Three γ points of one run, the widest one outside the other points' range.
    const double gammas[] = {0.0, 0.05, INFINITY};
    const double gaps[] = {0.01, 0.05, 0.40};
    for (int i = 0; i < 3; ++i) {
        pfa::CurvePoint point;
        point.setting = "gamma";
        point.value = gammas[i];
        point.test.error = 0.30 - 0.02 * i;
        point.test.eoGap = gaps[i];
        curveRun->result.curve.push_back(point);
    }
    const std::vector<RunEntryPtr> runs{
        curveRun,
        fakeRun(2, kSynthetic, 1.0, 0.10, 0.25, "dp-fermi", pfa::FairnessNotion::EqualizedOdds)};
    chart.followExperiment(QString::fromStdString(kSynthetic), pfa::FairnessNotion::EqualizedOdds);
    chart.setRuns(runs);
    CHECK(chart.pointCount() == 2);  // each run's headline point
    CHECK(chart.curveCount() == 1);
    // The curve is a line through all three points, and the axis reaches its widest point.
    QLineSeries* line = nullptr;
    for (QAbstractSeries* series : chart.view()->chart()->series()) {
        auto* candidate = qobject_cast<QLineSeries*>(series);
        if (candidate && candidate->count() == 3) line = candidate;
    }
    REQUIRE(line != nullptr);
    CHECK(line->at(2) == QPointF(0.40, 0.26));
    auto* x = qobject_cast<QValueAxis*>(chart.view()->chart()->axes(Qt::Horizontal).front());
    CHECK(x->max() >= 0.40);
    // The legend says what the line is.
    bool named = false;
    for (const ChartLegend::Entry& entry : chart.legend()->entries())
        named = named || entry.text.contains(QStringLiteral("curve"));
    CHECK(named);
    // Without the curve run: no curve.
    chart.setRuns({runs[1]});
    CHECK(chart.curveCount() == 0);
}

TEST_CASE(
    "Tradeoff chart: a click on an algorithm's legend entry hides its points, and the "
    "axes fit the rest",
    "[ui][tradeoff][legend-filter]") {
    TradeoffChart chart;
    chart.resize(700, 520);
    chart.show();
    // DP-FERMI between 0.16 and 0.22; one far DP-SGD point at error 0.5 sets the range.
    const std::vector<RunEntryPtr> runs{
        fakeRun(1, kSynthetic, 1.0, 0.02, 0.22), fakeRun(2, kSynthetic, 1.0, 0.05, 0.19),
        fakeRun(3, kSynthetic, 4.0, 0.08, 0.16), fakeRun(4, kSynthetic, 1.0, 0.30, 0.50, "dp-sgd")};
    chart.followExperiment(QString::fromStdString(kSynthetic),
                           pfa::FairnessNotion::DemographicParity);
    chart.setRuns(runs);
    QTest::qWait(20);
    auto* y = qobject_cast<QValueAxis*>(chart.view()->chart()->axes(Qt::Vertical).front());
    auto* x = qobject_cast<QValueAxis*>(chart.view()->chart()->axes(Qt::Horizontal).front());
    REQUIRE(y != nullptr);
    REQUIRE(x != nullptr);
    CHECK(y->max() >= 0.5);
    CHECK(x->max() >= 0.3);
    CHECK(chart.pointCount() == 4);
    const auto entryOf = [&](const QString& text) {
        const auto& entries = chart.legend()->entries();
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].text == text) return static_cast<int>(i);
        }
        return -1;
    };
    // A real click where the legend draws the entry.
    const auto clickEntry = [&](const QString& text) {
        const int index = entryOf(text);
        REQUIRE(index >= 0);
        const QRectF box = chart.legend()->entryRects().at(static_cast<std::size_t>(index));
        const QPointF scene = chart.legend()->mapToScene(box.center());
        ChartView* view = chart.view();
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->mapFromScene(scene));
        QTest::qWait(20);
    };
    clickEntry(QStringLiteral("dp-sgd"));
    CHECK(chart.pointCount() == 3);
    // The entry stays, faded; the axes fit DP-FERMI's points.
    REQUIRE(entryOf(QStringLiteral("dp-sgd")) >= 0);
    CHECK(chart.legend()->entries().at(static_cast<std::size_t>(entryOf("dp-sgd"))).dimmed);
    CHECK_FALSE(chart.legend()->entries().at(static_cast<std::size_t>(entryOf("dp-fermi"))).dimmed);
    CHECK(y->max() < 0.35);
    CHECK(x->max() < 0.2);
    CHECK(asSet(chart.frontRunIds()) == std::set<int>{1, 2, 3});
    QDir().mkpath(QStringLiteral(PFA_SCREENSHOT_DIR));
    CHECK(chart.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-legend-click.png")));
    // A new run keeps the choice; hiding the last shown algorithm is not possible.
    std::vector<RunEntryPtr> more = runs;
    more.push_back(fakeRun(5, kSynthetic, 4.0, 0.01, 0.45, "dp-sgd"));
    chart.setRuns(more);
    QTest::qWait(20);
    CHECK(chart.pointCount() == 3);
    clickEntry(QStringLiteral("dp-fermi"));
    CHECK(chart.pointCount() == 5);  // nothing would be left: everything is shown again
    clickEntry(QStringLiteral("dp-sgd"));
    CHECK(chart.pointCount() == 3);
    clickEntry(QStringLiteral("dp-sgd"));  // shown again
    CHECK(chart.pointCount() == 5);
    CHECK(y->max() >= 0.5);
    CHECK_FALSE(chart.legend()->entries().at(static_cast<std::size_t>(entryOf("dp-sgd"))).dimmed);
}

TEST_CASE("Tradeoff chart: runs on another split of the data are another data set",
          "[ui][tradeoff]") {
    auto window = readyWindow(5);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    TradeoffChart* chart = window->tradeoffChart();
    CHECK(chart->pointCount() == 1);

    window->experimentPanel()->splitSeedBox()->setValue(
        window->experimentPanel()->splitSeedBox()->value() + 1);
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
    CHECK(chart->pointCount() == 0);  // the chart follows the panel to the new split
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 2));
    const int second = finishedEntry(finished, 1)->id;
    CHECK(chart->pointCount() == 1);
    CHECK(chart->frontRunIds() == std::vector<int>{second});
    CHECK(chart->datasetBox()->count() == 2);
    CHECK(chart->datasetBox()->currentText().contains(QStringLiteral("split")));  // told apart
    CHECK(chart->shownDataset() ==
          QString::fromStdString(pfa::datasetKey(window->experimentPanel()->datasetRequest())));
}

TEST_CASE("Live mode: two drags leave one trail that Clear trail empties", "[ui][tradeoff][slow]") {
    auto window = readyWindow(3);
    TradeoffChart* chart = window->tradeoffChart();
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    window->experimentPanel()->liveModeBox()->setChecked(true);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    // Two drags of λ, pausing longer than the debounce between steps, so runs finish on the way.
    LambdaControl* lambda = window->experimentPanel()->lambdaControl();
    for (double value : {0.5, 1.0, 2.0, 4.0, 8.0, 4.0, 2.0, 1.0}) {
        lambda->spinBox()->setValue(value);
        QTest::qWait(350);
    }
    REQUIRE(QTest::qWaitFor(
        [&] { return window->controller()->state() == TrainingController::State::Idle; }, 20000));
    QTest::qWait(400);
    int completed = 0;
    for (int i = 0; i < finished.count(); ++i)
        completed += finishedEntry(finished, i)->isComplete() ? 1 : 0;
    REQUIRE(completed >= 3);

    CHECK(chart->trailCount() == completed);  // every live-mode run is on the one trail
    CHECK(chart->pointCount() == 0);          // none became a full point of its own
    CHECK(chart->frontRunIds().empty());
    int trailEntries = 0;
    for (const ChartLegend::Entry& entry : chart->legend()->entries())
        trailEntries += entry.text.startsWith(QStringLiteral("live-mode trail")) ? 1 : 0;
    CHECK(trailEntries == 1);
    CHECK(chart->legend()->entries().size() <= 3);  // algorithm, trail (and no per-run entries)
    checkLegendReadable(*chart);
    CHECK(chart->trailLineCount() == 1);  // λ moves at one ε: one line

    // An ε move starts another line: no line joins runs of different budgets.
    window->experimentPanel()->epsilonControl()->setValue(4.0);
    REQUIRE(waitForSignals(finished, finished.count() + 1, 60000));
    REQUIRE(QTest::qWaitFor(
        [&] { return window->controller()->state() == TrainingController::State::Idle; }, 20000));
    QTest::qWait(400);
    CHECK(chart->trailCount() == completed + 1);
    CHECK(chart->trailLineCount() == 2);
    CHECK(chart->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-live-trail-two-budgets.png")));

    REQUIRE(chart->clearTrailButton()->isEnabled());
    QTest::mouseClick(chart->clearTrailButton(), Qt::LeftButton);
    CHECK(chart->trailCount() == 0);
    CHECK(chart->pointCount() == 0);
    CHECK_FALSE(chart->clearTrailButton()->isEnabled());
    CHECK(window->historyModel()->rowCount() == finished.count());  // the history keeps them

    // Out of live mode, a run is a point again.
    window->experimentPanel()->liveModeBox()->setChecked(false);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, finished.count() + 1));
    CHECK(chart->pointCount() == 1);
    CHECK(chart->trailCount() == 0);
}

TEST_CASE("ε colours: a fixed function of ε, readable on white at both ends",
          "[ui][tradeoff][colour]") {
    using chart_style::colorForEpsilon;
    using chart_style::contrastRatio;
    const QColor white(Qt::white);
    // Every budget, the ends of the scale, beyond them and ∞ keep 3:1 against white (WCAG's
    // bound for graphical objects; viridis' pale lime/yellow end has about 1.1:1).
    for (double epsilon :
         {0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 50.0, 100.0, 1000.0, double(INFINITY)}) {
        INFO("ε = " << epsilon);
        CHECK(contrastRatio(colorForEpsilon(epsilon), white) >= 3.0);
    }
    CHECK(contrastRatio(QColor(180, 222, 44), white) < 3.0);  // the old ε = 100 lime fails it
    // Sequential: the colour darkens steadily towards strong privacy.
    double previous = 0;
    for (double e = 100.0; e >= 0.05; e /= 1.5) {
        const double contrast = contrastRatio(colorForEpsilon(e), white);
        CHECK(contrast > previous);
        previous = contrast;
    }
    // ∞ is distinct from every finite budget.
    const QColor infinity = colorForEpsilon(INFINITY);
    for (double e = 0.05; e <= 100.0; e *= 1.2) {
        const QColor c = colorForEpsilon(e);
        const double distance = std::hypot(c.red() - infinity.red(), c.green() - infinity.green(),
                                           c.blue() - infinity.blue());
        CHECK(distance > 100.0);
    }
    // One budget alone keeps its colour on the scale.
    TradeoffChart alone;
    alone.setRuns({fakeRun(1, kSynthetic, 4.0, 0.05, 0.2)});
    REQUIRE(alone.pointColor(1).isValid());
    CHECK(alone.pointColor(1).rgb() == colorForEpsilon(4.0).rgb());
}

TEST_CASE(
    "ε colours: the budgets a chart shows are coloured by rank, neighbours CIEDE2000 ≥ 10 "
    "apart, also in greyscale print",
    "[ui][tradeoff][colour]") {
    using chart_style::colorDifference;
    using chart_style::greyscale;
    // The fixed scale put the paper's 0.5 and 1 about 6 units apart (4 in greyscale): the
    // reason for ranking. (Measured here, so that the figure in the palette's notes stays true.)
    CHECK(colorDifference(chart_style::colorForEpsilon(0.5), chart_style::colorForEpsilon(1.0)) <
          10.0);
    // The formula itself, on the pairs of Sharma, Wu and Dalal's table (2005), through sRGB:
    // identical colours 0, black against white 100.
    CHECK(colorDifference(QColor(10, 20, 30), QColor(10, 20, 30)) == Approx(0.0).margin(1e-9));
    CHECK(colorDifference(Qt::black, Qt::white) == Approx(100.0).epsilon(0.001));

    const auto neighbours = [&](const std::vector<double>& budgets, double colour, double grey) {
        const chart_style::EpsilonPalette palette(budgets);
        REQUIRE(palette.ranked());
        for (std::size_t i = 0; i + 1 < palette.values().size(); ++i) {
            const QColor a = palette.color(palette.values()[i]);
            const QColor b = palette.color(palette.values()[i + 1]);
            INFO(budgets.size() << " budgets, neighbours " << i << " and " << i + 1);
            CHECK(colorDifference(a, b) >= colour);
            CHECK(colorDifference(greyscale(a), greyscale(b)) >= grey);
            // Every colour still readable on white, and never ∞'s vermilion.
            CHECK(chart_style::contrastRatio(a, Qt::white) >= 3.0);
            CHECK(colorDifference(a, chart_style::colorForEpsilon(INFINITY)) >= 10.0);
        }
    };
    neighbours({0.5, 1.0, 3.0, 9.0}, 10.0, 10.0);      // the paper's four budgets
    neighbours({0.1, 0.26, 1.0}, 10.0, 10.0);          // a lecture's three
    neighbours({0.5, 1.0, 2.0, 4.0, 8.0}, 10.0, 8.0);  // five: still apart in colour
    // The chart uses them: its four budgets' points are the palette's colours.
    TradeoffChart many;
    many.setRuns({fakeRun(1, kSynthetic, 0.5, 0.05, 0.2), fakeRun(2, kSynthetic, 1.0, 0.01, 0.3),
                  fakeRun(3, kSynthetic, 3.0, 0.2, 0.1), fakeRun(4, kSynthetic, 9.0, 0.03, 0.15),
                  fakeRun(5, kSynthetic, INFINITY, 0.3, 0.09, "fermi")});
    const chart_style::EpsilonPalette palette({0.5, 1.0, 3.0, 9.0});
    for (int id = 1; id <= 4; ++id) {
        const double epsilon = std::vector<double>{0.5, 1.0, 3.0, 9.0}[id - 1];
        QColor drawn = many.pointColor(id);
        drawn.setAlpha(255);
        CHECK(drawn.rgb() == palette.color(epsilon).rgb());
    }
    CHECK(many.pointColor(5).rgb() == chart_style::colorForEpsilon(INFINITY).rgb());
    many.resize(760, 520);
    many.show();
    QTest::qWait(50);
    CHECK(many.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-epsilon-key.png")));
    // Its colour bar is a key of those budgets: ∞, then 9, 3, 1, 0.5.
    CHECK(many.colorBar()->tickLabels() ==
          QStringList({QStringLiteral("∞"), QStringLiteral("9"), QStringLiteral("3"),
                       QStringLiteral("1"), QStringLiteral("0.5")}));
}

TEST_CASE("Tradeoff chart: an ε colour bar titled ε, drawn beside the plot",
          "[ui][tradeoff][colour]") {
    TradeoffChart chart;
    chart.resize(720, 520);
    chart.setRuns({fakeRun(1, kSynthetic, 0.5, 0.05, 0.2),
                   fakeRun(2, kSynthetic, INFINITY, 0.1, 0.1, "erm")});
    chart.show();
    REQUIRE(QTest::qWaitForWindowExposed(&chart, 60000));
    QTest::qWait(50);
    const EpsilonColorBar* bar = chart.colorBar();
    REQUIRE(bar != nullptr);
    CHECK(bar->isVisible());
    CHECK(bar->title() == QStringLiteral("ε"));
    const QStringList ticks = bar->tickLabels();
    for (const char* tick : {"∞", "100", "10", "1", "0.1"})
        CHECK(ticks.contains(QString::fromUtf8(tick)));
    // Right of the plot area, inside the chart.
    QChart* qchart = chart.view()->chart();
    const QRectF barInChart = bar->mapRectToParent(bar->barRect());
    CHECK(barInChart.left() > qchart->plotArea().right());
    CHECK(qchart->rect().contains(barInChart));
    CHECK(barInChart.height() > 100);
    // And actually painted: the ∞ swatch and the top of the bar have their colours on screen.
    const QImage shot = chart.view()->grab().toImage();
    auto pixelAt = [&](const QPointF& inBar) {
        const QPoint p = chart.view()->mapFromScene(bar->mapToScene(inBar));
        return shot.pixelColor(p * shot.devicePixelRatio());
    };
    auto near = [](const QColor& a, const QColor& b) {
        return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) +
                   std::abs(a.blue() - b.blue()) <
               30;
    };
    CHECK(near(pixelAt(bar->infinityRect().center()), chart_style::colorForEpsilon(INFINITY)));
    CHECK(near(pixelAt(bar->barRect().center() + QPointF(0, -bar->barRect().height() / 2 + 2)),
               chart_style::colorForEpsilon(100.0)));
    CHECK(near(pixelAt(bar->barRect().center() + QPointF(0, bar->barRect().height() / 2 - 2)),
               chart_style::colorForEpsilon(0.05)));
}

TEST_CASE(
    "Tradeoff chart: legend labels are never elided, at the window's default size and narrower",
    "[ui][tradeoff][legend]") {
    auto window = readyWindow(5);
    TradeoffChart* chart = window->tradeoffChart();
    const std::string key = pfa::datasetKey(window->experimentPanel()->datasetRequest());
    std::vector<RunEntryPtr> runs{fakeRun(901, key, 1.0, 0.02, 0.30),
                                  fakeRun(902, key, 4.0, 0.10, 0.25),
                                  fakeRun(903, key, INFINITY, 0.12, 0.2, "fermi"),
                                  fakeRun(904, key, INFINITY, 0.3, 0.18, "erm"),
                                  fakeRun(905, key, 2.0, 0.2, 0.27, "dp-sgd"),
                                  fakeRun(906, key, 8.0, 0.08, 0.26),
                                  fakeRun(907, key, 0.5, 0.06, 0.29)};
    chart->addToTrail(906);
    chart->addToTrail(907);
    chart->setRuns(runs);
    pfa::TrainConfig live = runs[0]->result.config;
    live.lambda = 12.5;
    live.epsilon = 0.75;
    chart->setLivePoint(999, QString::fromStdString(key), live, 0.07, 0.22);
    QTest::qWait(50);
    REQUIRE(chart->legend()->entries().size() == 7);  // 4 algorithms, front, trail, running
    SECTION("default size") {
        checkLegendReadable(*chart);
        CHECK(chart->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-legend.png")));
    }
    SECTION("a 1280 × 720 window") {
        window->resize(1280, 720);
        QTest::qWait(100);
        checkLegendReadable(*chart);
    }
    SECTION("a narrow dock") {
        chart->view()->chart()->resize(300, 400);
        QTest::qWait(50);
        checkLegendReadable(*chart);
    }
}

TEST_CASE("Tradeoff chart: a hovered point keeps its settings tooltip", "[ui][tradeoff][tooltip]") {
    TradeoffChart chart;
    chart.resize(720, 520);
    const RunEntryPtr run = fakeRun(1, kSynthetic, 1.0, 0.05, 0.2);
    chart.setRuns({run, fakeRun(2, kSynthetic, 4.0, 0.15, 0.1)});
    chart.show();
    REQUIRE(QTest::qWaitForWindowExposed(&chart, 60000));
    QTest::qWait(50);
    QWidget* viewport = chart.view()->viewport();
    const QPoint onPoint = chart.viewportPosOf(1);
    REQUIRE(viewport->rect().contains(onPoint));
    CHECK(chart.toolTipAt(onPoint) == run->summary());
    CHECK(chart.toolTipAt(onPoint + QPoint(3, -2)) == run->summary());
    CHECK(chart.toolTipAt(QPoint(5, 5)).isEmpty());

    // Hover, then the tooltip event the view gets after the hover delay: the settings stay.
    QTest::mouseMove(viewport, onPoint);
    QHelpEvent help(QEvent::ToolTip, onPoint, viewport->mapToGlobal(onPoint));
    QApplication::sendEvent(viewport, &help);
    QTest::qWait(50);
    CHECK(QToolTip::isVisible());
    CHECK(QToolTip::text() == run->summary());
    QTest::qWait(400);  // well past the 0.3 s after which the generic tooltip used to take over
    QApplication::sendEvent(viewport, &help);
    CHECK(QToolTip::text() == run->summary());
    // Off the points, the chart's own help.
    QToolTip::hideText();
    QHelpEvent away(QEvent::ToolTip, QPoint(5, 5), viewport->mapToGlobal(QPoint(5, 5)));
    QApplication::sendEvent(viewport, &away);
    QTest::qWait(50);
    CHECK(QToolTip::text() != run->summary());
}

TEST_CASE("Screenshots of the main window after a live-mode drag", "[.][shots]") {
    const QString dir = qEnvironmentVariable("PFA_SHOTS_DIR", QStringLiteral(PFA_SCREENSHOT_DIR));
    QDir().mkpath(dir);
    auto window = readyWindow(60);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    // A few ordinary runs for points and a front, then a live-mode drag.
    LambdaControl* lambda = window->experimentPanel()->lambdaControl();
    for (double value : {0.0, 1.0, 4.0}) {
        lambda->spinBox()->setValue(value);
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, finished.count() + 1));
    }
    window->experimentPanel()->liveModeBox()->setChecked(true);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, finished.count() + 1));
    for (double value : {1.5, 2.0, 3.0, 6.0, 8.0}) {
        lambda->spinBox()->setValue(value);
        QTest::qWait(900);
    }
    REQUIRE(QTest::qWaitFor(
        [&] { return window->controller()->state() == TrainingController::State::Idle; }, 20000));
    // PFA_SHOTS_SIZE=1280x720 takes one size only (run under a screen of that size).
    std::vector<QSize> sizes{QSize(1280, 720), QSize(1920, 1080)};
    if (const QStringList wanted = qEnvironmentVariable("PFA_SHOTS_SIZE").split(QLatin1Char('x'));
        wanted.size() == 2)
        sizes = {QSize(wanted[0].toInt(), wanted[1].toInt())};
    for (const QSize size : sizes) {
        window->resize(size);
        QTest::qWait(300);
        REQUIRE(window->grab().save(QStringLiteral("%1/main-window-live-trail-%2x%3.png")
                                        .arg(dir)
                                        .arg(size.width())
                                        .arg(size.height())));
        REQUIRE(
            window->tradeoffChart()->grab().save(QStringLiteral("%1/tradeoff-live-trail-%2x%3.png")
                                                     .arg(dir)
                                                     .arg(size.width())
                                                     .arg(size.height())));
    }
}

TEST_CASE(
    "Tradeoff chart: the constant classifier's error is drawn and named, and a run at it "
    "is flagged",
    "[ui][tradeoff][constant-baseline]") {
    // The engineer's case: 11.4 % of the test rows are "fail"; one run predicts "pass" almost
    // always (error 0.114, violation 0.008), another learned something.
    const auto withBaseline = [](const RunEntryPtr& run, bool known) {
        auto entry = std::make_shared<RunEntry>(*run);
        entry->result.constant.known = known;
        entry->result.constant.className = "pass";
        entry->result.constant.error = 0.114;
        return RunEntryPtr(entry);
    };
    std::vector<RunEntryPtr> runs{withBaseline(fakeRun(1, kAdult, 1.0, 0.008, 0.114), true),
                                  withBaseline(fakeRun(2, kAdult, 1.0, 0.05, 0.082), true)};
    TradeoffChart chart;
    chart.resize(900, 600);
    chart.followExperiment(QString::fromStdString(kAdult), pfa::FairnessNotion::DemographicParity);
    chart.setRuns(runs);

    // A dotted level at the constant's error across the plot, named in the legend.
    QLineSeries* level = nullptr;
    for (QAbstractSeries* series : chart.view()->chart()->series()) {
        if (series->name() == QStringLiteral("constant classifier"))
            level = qobject_cast<QLineSeries*>(series);
    }
    REQUIRE(level != nullptr);
    REQUIRE(level->count() == 2);
    CHECK(level->at(0).y() == Approx(0.114));
    CHECK(level->at(1).y() == Approx(0.114));
    QStringList legend;
    for (const ChartLegend::Entry& entry : chart.legend()->entries()) legend << entry.text;
    INFO(legend.join(QStringLiteral(" | ")).toStdString());
    CHECK(legend.contains(QStringLiteral("always “pass”: error 0.114, violation 0")));
    chart.show();
    QTest::qWait(50);
    CHECK(
        chart.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-constant-classifier.png")));

    // Run details (and every point's tooltip, which is the summary) flag the first run only.
    CHECK(runs[0]->summary().contains(QStringLiteral("⚠ No better than always predicting “pass”")));
    CHECK_FALSE(runs[1]->summary().contains(QStringLiteral("⚠")));
    CHECK(runs[1]->summary().contains(QStringLiteral("baseline: always predicting “pass”")));

    // Regression runs (and records without the baseline) draw no level.
    for (RunEntryPtr& run : runs) run = withBaseline(run, false);
    chart.setRuns(runs);
    CHECK(level->count() == 0);
}

TEST_CASE(
    "Tradeoff chart: runs of one algorithm that differ in an own setting are named by it, "
    "with markers of their own",
    "[ui][tradeoff][variants]") {
    // The student's four trust models of isrl-dp-sgd, at one ε: four identical markers before.
    std::vector<RunEntryPtr> runs;
    int id = 1;
    for (const char* trust : {"central", "isrl", "local", "sdp"}) {
        auto entry = std::make_shared<RunEntry>(
            *fakeRun(id, kSynthetic, 1.0, 0.01 * id, 0.30 - 0.02 * id, "isrl-dp-sgd"));
        entry->result.config.extra["trust"] = trust;
        runs.push_back(entry);
        ++id;
    }
    runs.push_back(fakeRun(id, kSynthetic, 1.0, 0.2, 0.1, "dp-fermi"));
    TradeoffChart chart;
    chart.resize(900, 600);
    chart.followExperiment(QString::fromStdString(kSynthetic),
                           pfa::FairnessNotion::DemographicParity);
    chart.setRuns(runs);
    std::map<QString, QScatterSeries::MarkerShape> shapes;
    for (const ChartLegend::Entry& entry : chart.legend()->entries())
        shapes[entry.text] = entry.shape;
    INFO([&] {
        std::string names;
        for (const auto& [name, shape] : shapes) names += name.toStdString() + " | ";
        return names;
    }());
    std::set<QScatterSeries::MarkerShape> distinct;
    for (const char* trust : {"central", "isrl", "local", "sdp"}) {
        const QString name = QStringLiteral("isrl-dp-sgd (trust = %1)").arg(QLatin1String(trust));
        REQUIRE(shapes.count(name));
        distinct.insert(shapes[name]);
    }
    CHECK(distinct.size() == 4);  // four markers for four trust models
    // None of them is the marker of the other algorithm shown.
    CHECK_FALSE(distinct.count(chart_style::markerForAlgorithm("dp-fermi")));
    // An algorithm whose runs do not differ keeps its plain name and marker.
    REQUIRE(shapes.count(QStringLiteral("dp-fermi")));
    CHECK(shapes[QStringLiteral("dp-fermi")] == chart_style::markerForAlgorithm("dp-fermi"));
    // The tooltip (a run's summary) names the trust model too.
    CHECK(runs[2]->summary().contains(QStringLiteral("trust = local")));
    // So does the run list's algorithm column; a run without a variant keeps its name.
    RunHistoryModel history;
    history.append(runs);
    CHECK(history.data(history.index(2, RunHistoryModel::Algorithm), Qt::DisplayRole).toString() ==
          QStringLiteral("isrl-dp-sgd (trust = local)"));
    CHECK(history.data(history.index(4, RunHistoryModel::Algorithm), Qt::DisplayRole).toString() ==
          QStringLiteral("dp-fermi"));
    chart.show();
    QTest::qWait(50);
    CHECK(chart.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-trust-models.png")));
}

}  // namespace ui_tradeoff_chart_test
