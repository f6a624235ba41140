// The sweep views as a user reads them (offscreen): they open on the data set and fairness
// notion of the running sweep, only runs equal in every setting but the seed (and the view's
// axes) share a cell or a curve, each curve point carries its λ, ε colours do not depend on the
// other budgets shown, the heat map's colour bar says what it measures, and the sweep dialog
// remembers its last grid.
#include <QDateTime>
#include <QDir>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QtCharts/QValueAxis>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "core/sweep/sweep_spec.h"
#include "ui/actions/sweep_actions.h"
#include "ui/charts/chart_legend.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/series_legend.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui_test_support.h"

namespace ui_sweep_views_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

const std::string kSynthetic = "synthetic(n=4000)|split=0,0.2";
const std::string kAdult = "adult|split=0,0.2";

struct Run {
    std::string datasetKey = kAdult;
    std::string name = "adult";
    pfa::FairnessNotion notion = pfa::FairnessNotion::DemographicParity;
    double epsilon = 1.0;
    double lambda = 0.0;
    std::uint64_t seed = 0;
    int epochs = 50;
    double error = 0.2;
    double violation = 0.1;
    std::string algorithm = "dp-fermi";
    std::map<std::string, std::string> extra;  ///< own settings
};

/// A finished run as the history holds it, its run key made as the sweep makes it.
RunEntryPtr entryOf(int id, const Run& run) {
    pfa::RunResult r;
    r.dataset = run.name;
    r.status = pfa::RunStatus::Completed;
    r.config.algorithm = run.algorithm;
    r.config.extra = run.extra;
    r.config.fairness = run.notion;
    r.config.epsilon = run.epsilon;
    r.config.lambda = run.lambda;
    r.config.seed = run.seed;
    r.config.epochs = run.epochs;
    r.test.error = run.error;
    r.test.dpGap = r.test.eoGap = r.test.eoppGap = run.violation;
    r.privacy.isPrivate = true;
    r.privacy.epsilonSpent = run.epsilon;
    pfa::RunContext context;
    context.runKey = pfa::runKey(run.datasetKey, r.config);
    return makeRunEntry(id, std::move(r), std::move(context), QDateTime::currentDateTime());
}

/// A 50-epoch grid over λ ∈ {0, 1, 2} with two seeds at each ε, and one 200-epoch run at λ = 1.
std::vector<RunEntryPtr> mixedEpochs(const std::vector<double>& epsilons) {
    std::vector<RunEntryPtr> entries;
    int id = 1;
    for (double epsilon : epsilons) {
        for (double lambda : {0.0, 1.0, 2.0}) {
            for (std::uint64_t seed : {0, 1}) {
                Run run;
                run.epsilon = epsilon;
                run.lambda = lambda;
                run.seed = seed;
                run.error = 0.16 + 0.02 * lambda + 0.002 * seed + 0.04 / epsilon;
                run.violation = 0.12 / (1.0 + 2.0 * lambda) + 0.002 * seed;
                entries.push_back(entryOf(id++, run));
            }
        }
    }
    Run longer;
    longer.lambda = 1.0;
    longer.epochs = 200;
    longer.error = 0.15;
    longer.violation = 0.02;
    entries.push_back(entryOf(id++, longer));
    return entries;
}

}  // namespace

TEST_CASE("Sweep views: a 200-epoch run is not a second lambda = 1 point of the 50-epoch curve",
          "[ui][sweep][sweepviews]") {
    SweepViewsPanel views;
    views.setEntries(mixedEpochs({1.0}));
    views.refreshNow();
    // Cells: the three λ of the 50-epoch grid (two seeds each) and the 200-epoch run.
    REQUIRE(views.cells().size() == 4);
    CHECK(views.cells()[0].runs == 2);
    CHECK(views.cells()[0].testError.n == 2);
    CHECK(views.cells()[3].runs == 1);

    TradeoffCurvesView* curves = views.tradeoffView();
    CHECK(curves->pointCount() == 4);
    const QStringList names = curves->curveNames();
    REQUIRE(names.size() == 2);
    CHECK(names.contains(QStringLiteral("dp-fermi, ε = 1 (epochs = 50)")));
    CHECK(names.contains(QStringLiteral("dp-fermi, ε = 1 (epochs = 200)")));
    // The price of privacy at λ = 1 has a line per setting, and the heat map shows one.
    CHECK(views.priceView()->lineNames().size() == 2);
    CHECK(views.heatMap()->filledCells() == 3);
}

TEST_CASE("Sweep views: every curve point is labelled with its lambda", "[ui][sweep][sweepviews]") {
    SweepViewsPanel views;
    views.setEntries(mixedEpochs({1.0}));
    views.resize(1100, 700);
    views.show();
    views.refreshNow();
    QTest::qWait(50);
    TradeoffCurvesView* curves = views.tradeoffView();
    QStringList labels = curves->lambdaLabels();
    labels.sort();
    CHECK(labels == QStringList({QStringLiteral("λ=0"), QStringLiteral("λ=1"),
                                 QStringLiteral("λ=1"), QStringLiteral("λ=2")}));
    // The four points lie far apart: every label finds a free place next to its point.
    CHECK(curves->placedLambdaLabels() == 4);
    // No points, no labels.
    curves->setCells({}, QString());
    QTest::qWait(20);
    CHECK(curves->lambdaLabels().isEmpty());
    CHECK(curves->placedLambdaLabels() == 0);
}

TEST_CASE("Sweep views: the budgets shown get colours told apart at a glance, also in greyscale",
          "[ui][sweep][sweepviews][colour]") {
    // The paper figure's budgets: 0.5 and 1 were nearly the same navy, 3 and 9 the same teal.
    SweepViewsPanel views;
    views.setEntries(mixedEpochs({0.5, 1.0, 3.0, 9.0}));
    views.refreshNow();
    const QStringList names = views.tradeoffView()->curveNames();
    const auto colorOf = [&](const QString& name) {
        const int index = static_cast<int>(names.indexOf(name));
        REQUIRE(index >= 0);
        return views.tradeoffView()->curveColors().at(index);
    };
    std::vector<QColor> colors;
    // (At ε = 1 a 200-epoch run makes a second curve: those two are named by their epochs.)
    for (const char* epsilon : {"0.5", "1", "3", "9"}) {
        const QString name = QStringLiteral("dp-fermi, ε = %1").arg(QLatin1String(epsilon));
        colors.push_back(colorOf(names.contains(name) ? name : name + " (epochs = 50)"));
    }
    for (std::size_t i = 0; i + 1 < colors.size(); ++i) {
        INFO("neighbours " << i << " and " << i + 1);
        CHECK(chart_style::colorDifference(colors[i], colors[i + 1]) >= 10.0);
        CHECK(chart_style::colorDifference(chart_style::greyscale(colors[i]),
                                           chart_style::greyscale(colors[i + 1])) >= 10.0);
        // Smaller ε darker, as on the scale.
        CHECK(chart_style::contrastRatio(colors[i], Qt::white) >
              chart_style::contrastRatio(colors[i + 1], Qt::white));
    }
    // The same budget in another curve of the view has the same colour.
    CHECK(colorOf(QStringLiteral("dp-fermi, ε = 1 (epochs = 200)")) == colors[1]);
}

TEST_CASE("Sweep views open on the data set and notion of the sweep, not on older runs",
          "[ui][sweep][sweepviews]") {
    SweepViewsPanel views;
    std::vector<RunEntryPtr> entries;
    int id = 1;
    // Earlier single runs on synthetic data (demographic parity).
    for (double lambda : {0.0, 1.0}) {
        Run run;
        run.datasetKey = kSynthetic;
        run.name = "synthetic";
        run.lambda = lambda;
        entries.push_back(entryOf(id++, run));
    }
    views.setEntries(entries);
    views.refreshNow();
    CHECK(views.shownDataset() == QString::fromStdString(kSynthetic));
    CHECK(views.shownNotion() == QStringLiteral("dp"));

    // An Adult sweep over equalized odds starts: before its first run, the views stay on what
    // they show; with its runs they show Adult and equalized odds.
    views.followSweep(QString::fromStdString(kAdult), QStringLiteral("eo"));
    CHECK(views.shownDataset() == QString::fromStdString(kSynthetic));
    for (double lambda : {0.0, 1.0}) {
        Run run;
        run.notion = pfa::FairnessNotion::EqualizedOdds;
        run.lambda = lambda;
        entries.push_back(entryOf(id++, run));
    }
    views.setEntries(entries);
    views.refreshNow();
    CHECK(views.shownDataset() == QString::fromStdString(kAdult));
    CHECK(views.shownNotion() == QStringLiteral("eo"));
    REQUIRE(views.cells().size() == 2);
    for (const pfa::SweepCell& cell : views.cells()) CHECK(cell.dataset == "adult");

    // A single synthetic run finished while the sweep runs does not pull the views away.
    Run single;
    single.datasetKey = kSynthetic;
    single.name = "synthetic";
    single.lambda = 2.0;
    entries.push_back(entryOf(id++, single));
    views.setEntries(entries);
    views.refreshNow();
    CHECK(views.shownDataset() == QString::fromStdString(kAdult));

    // Two data sets of one name (other options) are two entries, never one front.
    Run other;
    other.datasetKey = "synthetic(n=9000)|split=0,0.2";
    other.name = "synthetic";
    entries.push_back(entryOf(id++, other));
    views.setEntries(entries);
    views.followLatest();
    CHECK(views.shownDataset() == QStringLiteral("synthetic(n=9000)|split=0,0.2"));
    REQUIRE(views.cells().size() == 1);
    CHECK(views.cells().front().runs == 1);
}

TEST_CASE("Starting a sweep turns the sweep views to its data set and notion",
          "[ui][sweep][sweepviews]") {
    auto window = readyWindow(20);
    // A single run (demographic parity) first.
    QSignalSpy single(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(single, 1));
    QTest::qWait(400);
    SweepViewsPanel* views = window->sweepViews();
    views->refreshNow();
    CHECK(views->shownNotion() == QStringLiteral("dp"));

    QTemporaryDir dir;
    pfa::SweepSpec spec = smallGrid(*window, {1.0}, {0.0, 1.0}, 1, 20);
    spec.notions = {pfa::FairnessNotion::EqualOpportunity};
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    REQUIRE(
        window->sweepActions()->startSweep(spec, 1, dir.filePath(QStringLiteral("sweep.jsonl"))));
    REQUIRE(waitForSignals(finished, 1, 60000));
    QTest::qWait(50);
    views->refreshNow();
    const pfa::PreparedDatasetPtr data = window->datasetController()->dataset();
    REQUIRE(data);
    CHECK(views->shownDataset() == QString::fromStdString(data->key));
    CHECK(views->shownNotion() == QStringLiteral("eopp"));
    CHECK(views->cells().size() == 2);
}

TEST_CASE("The heat map's colour bar has a title naming the metric and its unit",
          "[ui][sweep][sweepviews]") {
    SweepViewsPanel views;
    views.setEntries(mixedEpochs({1.0, 4.0}));
    views.refreshNow();
    HeatMapView* heat = views.heatMap();
    CHECK(heat->colorBarTitle() == QStringLiteral("mean test error (fraction)"));
    // Drawn: a column right of the bar's end values holds text along the bar's middle.
    QImage image(900, 600, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        heat->paintExport(&painter, QRectF(0, 0, 900, 600), ExportHeading{heat->exportTitle(), {}});
    }
    int dark = 0;
    for (int x = 900 - 22; x < 900 - 2; ++x) {
        for (int y = 200; y < 400; ++y) dark += qGray(image.pixel(x, y)) < 128;
    }
    CHECK(dark > 20);

    heat->setCells(views.cells(), QStringLiteral("dp-fermi"), HeatMapView::Metric::Violation,
                   QStringLiteral("demographic parity"));
    CHECK(heat->colorBarTitle() == QStringLiteral("mean violation (rate gap)"));
}

TEST_CASE("The sweep dialog opens with the grid of the last sweep started",
          "[ui][sweep][sweepviews]") {
    QSettings().remove(QStringLiteral("sweepDialog"));
    pfa::TrainConfig base;
    base.algorithm = "dp-fermi";
    {
        SweepDialog fresh(base, QStringLiteral("Adult"), 30000, 100, 0.0, nullptr);
        CHECK(fresh.epsilonEdit()->text() == QStringLiteral("0.5, 1, 3, 9"));  // nothing stored yet
        fresh.epsilonEdit()->setText(QStringLiteral("0.25, 2"));
        fresh.reject();  // cancelled: not remembered
    }
    {
        SweepDialog started(base, QStringLiteral("Adult"), 30000, 100, 0.0, nullptr);
        CHECK(started.epsilonEdit()->text() == QStringLiteral("0.5, 1, 3, 9"));
        started.epsilonEdit()->setText(QStringLiteral("0.25, 2"));
        started.lambdaEdit()->setText(QStringLiteral("0, log:0.1:10:3"));
        started.seedsTo()->setValue(7);
        started.accept();  // Start sweep
    }
    SweepDialog next(base, QStringLiteral("Adult"), 30000, 100, 0.0, nullptr);
    CHECK(next.epsilonEdit()->text() == QStringLiteral("0.25, 2"));
    CHECK(next.lambdaEdit()->text() == QStringLiteral("0, log:0.1:10:3"));
    CHECK(next.seedsTo()->value() == 7);
    const pfa::SweepSpec spec = next.spec();
    CHECK(spec.epsilons == std::vector<double>{0.25, 2.0});
    CHECK(spec.seeds.size() == 8);
    CHECK(spec.algorithms == std::vector<std::string>{"dp-fermi"});
    QSettings().remove(QStringLiteral("sweepDialog"));
}

TEST_CASE("Screenshots of the sweep views at 1280 x 720", "[ui][screenshot][sweepviews][slow]") {
    SweepViewsPanel views;
    views.setEntries(mixedEpochs({0.5, 1.0, 4.0, 8.0}));
    views.resize(1280, 720);
    views.show();
    views.refreshNow();
    QTest::qWait(100);
    const QString shots = qEnvironmentVariable("PFA_SHOT_DIR", QStringLiteral(PFA_SCREENSHOT_DIR));
    QDir().mkpath(shots);
    const char* names[] = {"sweep-views-tradeoff.png", "sweep-views-price.png",
                           "sweep-views-heat-map.png"};
    for (int tab = 0; tab < 3; ++tab) {
        views.tabs()->setCurrentIndex(tab);
        QTest::qWait(100);
        REQUIRE(views.grab().save(shots + QLatin1Char('/') + QLatin1String(names[tab])));
    }
    CHECK(views.tradeoffView()->placedLambdaLabels() > 0);
}

TEST_CASE("Sweep views: each baseline's curve runs over its own setting, one run's curve over γ",
          "[ui][sweep][sweepviews][curve-points]") {
    std::vector<RunEntryPtr> entries;
    int id = 1;
    // DP-FERMI over λ, PF-LD over its dual step s, two seeds each, ε = 1.
    for (double lambda : {0.0, 4.0}) {
        for (std::uint64_t seed : {0, 1}) {
            Run run;
            run.lambda = lambda;
            run.seed = seed;
            run.error = 0.16 + 0.005 * lambda;
            run.violation = 0.2 / (1.0 + lambda);
            entries.push_back(entryOf(id++, run));
        }
    }
    for (double step : {0.05, 0.2, 0.5}) {
        for (std::uint64_t seed : {0, 1}) {
            Run run;
            run.algorithm = "pf-ld";
            run.extra["dual-step"] = pfa::realText(step);
            run.seed = seed;
            run.error = 0.17 + 0.02 * step;
            run.violation = 0.1 - 0.1 * step;
            entries.push_back(entryOf(id++, run));
        }
    }
    SweepViewsPanel views;
    views.setEntries(entries);
    views.resize(1100, 700);
    views.show();
    views.refreshNow();
    QTest::qWait(50);
    TradeoffCurvesView* curves = views.tradeoffView();
    const QStringList names = curves->curveNames();
    REQUIRE(names.size() == 2);  // one curve each, not one point per dual step
    CHECK(names.contains(QStringLiteral("pf-ld, ε = 1")));
    CHECK(names.contains(QStringLiteral("dp-fermi, ε = 1")));
    // Same ε, same colour, whatever the method.
    CHECK(curves->curveColors()[0] == curves->curveColors()[1]);
    // ... so the two methods differ by marker and by line style.
    REQUIRE(curves->curveStyles().size() == 2);
    CHECK(curves->curveStyles()[0] != curves->curveStyles()[1]);
    QStringList labels = curves->lambdaLabels();
    labels.sort();
    CHECK(labels ==
          QStringList({QStringLiteral("s=0.05"), QStringLiteral("s=0.2"), QStringLiteral("s=0.5"),
                       QStringLiteral("λ=0"), QStringLiteral("λ=4")}));
    CHECK(curves->pointCount() == 5);
}

TEST_CASE(
    "Sweep views: a click on a legend entry hides its line and the axes follow, and outlying "
    "points can be left out of the range",
    "[ui][sweep][sweepviews][legend-filter]") {
    // DP-FERMI near 0.2 at three ε, and a method far off (error ≈ 0.5) that squashes it.
    std::vector<RunEntryPtr> entries = mixedEpochs({0.5, 1.0, 4.0});
    int id = static_cast<int>(entries.size()) + 1;
    for (double epsilon : {0.5, 1.0, 4.0}) {
        for (std::uint64_t seed : {0, 1}) {
            Run run;
            run.algorithm = "dp-sgd";
            run.epsilon = epsilon;
            run.seed = seed;
            run.error = 0.5 + 0.002 * seed;
            run.violation = 0.01;
            entries.push_back(entryOf(id++, run));
        }
    }
    SweepViewsPanel views;
    views.setEntries(entries);
    views.resize(1100, 800);
    views.show();
    for (int tab = 0; tab < views.tabs()->count(); ++tab) {
        if (views.tabs()->widget(tab)->isAncestorOf(views.errorEpsilonView()) ||
            views.tabs()->widget(tab) == views.errorEpsilonView())
            views.tabs()->setCurrentIndex(tab);
    }
    views.refreshNow();
    QTest::qWait(100);
    ErrorEpsilonView* errors = views.errorEpsilonView();
    SeriesLegend* legend = SeriesLegend::of(errors->chart());
    REQUIRE(legend != nullptr);
    const QStringList names = legend->names();
    INFO(names.join(QStringLiteral(" | ")).toStdString());
    const int outlier = static_cast<int>(names.indexOf(QStringLiteral("dp-sgd")));
    REQUIRE(outlier >= 0);
    auto* y = qobject_cast<QValueAxis*>(errors->chart()->axes(Qt::Vertical).front());
    REQUIRE(y != nullptr);
    CHECK(y->max() >= 0.5);  // the far line sets the range
    const double fullSpan = y->max() - y->min();

    // A real click on the entry, where the legend draws it.
    ChartView* view = errors->view();
    const auto clickEntry = [&](int index) {
        const QRectF box = legend->legend()->entryRects().at(static_cast<std::size_t>(index));
        const QPointF scene = legend->legend()->mapToScene(box.center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->mapFromScene(scene));
        QTest::qWait(20);
    };
    clickEntry(outlier);
    CHECK(legend->hiddenNames() == QStringList{QStringLiteral("dp-sgd")});
    bool outlierShown = false;
    for (QAbstractSeries* series : errors->chart()->series()) {
        if (series->name() == QStringLiteral("dp-sgd")) outlierShown = series->isVisible();
    }
    CHECK_FALSE(outlierShown);
    CHECK(legend->legend()->entries().at(static_cast<std::size_t>(outlier)).dimmed);
    // The range follows what is shown: DP-FERMI's errors (0.16 … 0.25) fill the plot.
    CHECK(y->max() < 0.35);
    CHECK(y->max() - y->min() < 0.6 * fullSpan);
    QDir().mkpath(QStringLiteral(PFA_SCREENSHOT_DIR));
    CHECK(views.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/legend-click-hides-series.png")));
    // A second click shows it again, and the view's own range comes back.
    clickEntry(outlier);
    CHECK(legend->hiddenNames().isEmpty());
    CHECK(y->max() >= 0.5);
    // New runs rebuild the view; what the user hid stays hidden.
    clickEntry(outlier);
    views.setEntries(entries);
    views.refreshNow();
    CHECK(legend->hiddenNames() == QStringList{QStringLiteral("dp-sgd")});
    legend->showAll();

    // Everything shown, outliers left out of the range: the far line is beyond the fences.
    legend->setIgnoreOutliers(true);
    CHECK(y->max() < 0.35);
    legend->setIgnoreOutliers(false);
    CHECK(y->max() >= 0.5);
}

TEST_CASE("Sweep views count runs, not the points of a run's own curve",
          "[ui][sweep][sweepviews][curve-points]") {
    std::vector<RunEntryPtr> entries = mixedEpochs({1.0});  // 7 runs
    pfa::RunResult r;
    r.dataset = "adult";
    r.status = pfa::RunStatus::Completed;
    r.config.algorithm = "dp-postprocessing";
    r.config.epsilon = 1.0;
    r.test.error = 0.2;
    r.test.dpGap = r.test.eoGap = r.test.eoppGap = 0.05;
    r.privacy.isPrivate = true;
    r.privacy.epsilonSpent = 1.0;
    for (double gamma : {0.01, 0.02, 0.05, 0.1, 0.2}) {
        pfa::CurvePoint point;
        point.setting = "gamma";
        point.value = gamma;
        point.test = r.test;
        point.test.error = 0.2 - 0.1 * gamma;
        r.curve.push_back(point);
    }
    pfa::RunContext context;
    context.runKey = pfa::runKey(kAdult, r.config);
    entries.push_back(makeRunEntry(static_cast<int>(entries.size()) + 1, std::move(r),
                                   std::move(context), QDateTime::currentDateTime()));
    SweepViewsPanel views;
    views.setEntries(entries);
    views.refreshNow();
    std::size_t points = 0;
    for (const pfa::SweepCell& cell : views.cells()) points += cell.runs;
    REQUIRE(points > 8);  // the γ curve gives a point per value
    const QString status = views.statusText();
    INFO(status.toStdString());
    CHECK(status.startsWith(QStringLiteral("8 run(s), %1 points").arg(points)));
}

}  // namespace ui_sweep_views_test
