// Chart export (PNG with DPI, SVG, PDF), history export, and the README screenshots.
#include <catch2/catch.hpp>

#include <QDir>
#include <cmath>
#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui/runs/session_file.h"
#include "ui_test_support.h"

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("Charts export to PNG at the chosen DPI, SVG and PDF", "[ui][export]") {
    auto window = readyWindow(30);
    REQUIRE(runWithLambdas(*window, {0.0, 2.0}));
    window->liveCharts()->refreshNow();
    QTemporaryDir dir;
    std::vector<ChartView*> views(window->liveCharts()->views().begin(), window->liveCharts()->views().end());
    views.push_back(window->tradeoffChart()->view());
    int index = 0;
    for (ChartView* view : views) {
        INFO("chart " << index);
        const QString base = dir.filePath(QStringLiteral("chart%1").arg(index++));
        QString error;
        REQUIRE(exportChart(view, base + ".png", ExportFormat::Png, 192, &error));
        REQUIRE(exportChart(view, base + ".svg", ExportFormat::Svg, 96, &error));
        REQUIRE(exportChart(view, base + ".pdf", ExportFormat::Pdf, 96, &error));

        QImage png(base + ".png");
        REQUIRE_FALSE(png.isNull());
        const QSize logical = view->viewport()->size();
        CHECK(png.size() == logical * 2);  // 192 dpi = twice the 96-dpi screen size
        CHECK(std::abs(png.dotsPerMeterX() - 7559) <= 1);
        // Not a blank image: some pixels are dark (axes, labels, curves).
        int dark = 0;
        for (int y = 0; y < png.height(); y += 4) {
            for (int x = 0; x < png.width(); x += 4) dark += qGray(png.pixel(x, y)) < 100;
        }
        CHECK(dark > 50);

        QFile svg(base + ".svg");
        REQUIRE(svg.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svg);
        while (!xml.atEnd()) xml.readNext();
        CHECK_FALSE(xml.hasError());
        CHECK(QSvgRenderer(base + ".svg").isValid());

        QFile pdf(base + ".pdf");
        REQUIRE(pdf.open(QIODevice::ReadOnly));
        CHECK(pdf.read(4) == QByteArray("%PDF"));
    }
    QString error;
    CHECK_FALSE(exportChart(views.front(), dir.filePath("x.png"), ExportFormat::Png, 5000, &error));
    CHECK(error.contains(QStringLiteral("DPI")));
    ExportFormat format;
    CHECK_FALSE(exportFormatForPath(QStringLiteral("chart.jpg"), &format));

    // History exports.
    REQUIRE(exportHistoryCsv(dir.filePath("runs.csv"), window->historyModel()->entries(), &error));
    QFile csv(dir.filePath("runs.csv"));
    REQUIRE(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().split('\n');
    CHECK(lines[0].startsWith("id,algorithm,dataset,fairness"));
    CHECK(lines.size() == 4);  // header, two runs, trailing newline
    REQUIRE(exportHistoryJson(dir.filePath("runs.json"), window->historyModel()->entries(), &error));
    CHECK(QFile(dir.filePath("runs.json")).size() > 1000);
}

TEST_CASE("Screenshots for the README", "[ui][screenshot][slow]") {
    auto window = readyWindow(200);
    QDir().mkpath(QStringLiteral(PFA_SCREENSHOT_DIR));
    REQUIRE(runWithLambdas(*window, {1.0}));
    window->liveCharts()->refreshNow();
    QTest::qWait(100);
    const QString mainPath = QStringLiteral(PFA_SCREENSHOT_DIR "/main-window.png");
    REQUIRE(window->grab().save(mainPath));
    CHECK(QImage(mainPath).width() >= 1200);

    REQUIRE(runWithLambdas(*window, {0.0, 0.5, 2.0, 4.0, 8.0}));
    window->liveCharts()->refreshNow();
    CHECK(window->tradeoffChart()->pointCount() == 6);
    CHECK_FALSE(window->tradeoffChart()->frontRunIds().empty());
    QTest::qWait(100);
    const QString tradeoffPath = QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff.png");
    REQUIRE(window->tradeoffChart()->grab().save(tradeoffPath));
    QString error;
    REQUIRE(exportChart(window->tradeoffChart()->view(), QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-300dpi.png"),
                        ExportFormat::Png, 300, &error));
    // A fuller picture for the README: the same λ values without privacy, then two runs
    // selected for comparison.
    window->experimentPanel()->epsilonControl()->setValue(INFINITY);
    REQUIRE(runWithLambdas(*window, {0.0, 1.0, 4.0, 8.0}));
    window->historyView()->selectRuns({window->historyModel()->entries()[5]->id, window->historyModel()->entries()[9]->id});
    window->liveCharts()->refreshNow();
    QTest::qWait(100);
    REQUIRE(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/main-window-tradeoff.png")));
}
