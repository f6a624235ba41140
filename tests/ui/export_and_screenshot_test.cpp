// Chart export (PNG with DPI, SVG, PDF), history export, and the README screenshots.
#include <QDir>
#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

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

namespace ui_export_and_screenshot_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// What a picture holds, beyond having been saved: the share of pixels unlike its most common
/// colour (the background) and how many colours it has (a blank or one-colour picture: 0, 1).
struct PictureContent {
    double marked = 0.0;
    int colours = 0;
};

PictureContent contentOf(const QImage& picture) {
    const QImage image = picture.convertToFormat(QImage::Format_RGB32);
    std::map<QRgb, long> counts;
    for (int y = 0; y < image.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) ++counts[line[x]];
    }
    long background = 0;
    for (const auto& [colour, count] : counts) background = std::max(background, count);
    const double pixels = static_cast<double>(image.width()) * image.height();
    return {pixels > 0 ? 1.0 - static_cast<double>(background) / pixels : 0.0,
            static_cast<int>(counts.size())};
}

/// Pixels of clearly coloured marks — curves, points — inside the plot area of `view`'s chart,
/// in a grab of the view. Axes, grid lines, text and the background are greys or white, far
/// below this saturation.
long colouredPixelsInPlotArea(ChartView* view) {
    const QImage image = view->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const qreal scale = image.devicePixelRatio();
    const QRect area = view->mapFromScene(view->chart()->plotArea()).boundingRect();
    const QRect pixels = QRect(QPoint(qRound(area.left() * scale), qRound(area.top() * scale)),
                               QPoint(qRound(area.right() * scale), qRound(area.bottom() * scale)))
                             .intersected(image.rect());
    long coloured = 0;
    for (int y = pixels.top(); y <= pixels.bottom(); ++y) {
        for (int x = pixels.left(); x <= pixels.right(); ++x) {
            const QColor colour(image.pixel(x, y));
            if (colour.hsvSaturationF() > 0.35 && colour.valueF() > 0.25) ++coloured;
        }
    }
    return coloured;
}

}  // namespace

TEST_CASE("Charts export to PNG at the chosen DPI, SVG and PDF", "[ui][export]") {
    auto window = readyWindow(30);
    REQUIRE(runWithLambdas(*window, {0.0, 2.0}));
    window->liveCharts()->refreshNow();
    QTemporaryDir dir;
    std::vector<ChartView*> views(window->liveCharts()->views().begin(),
                                  window->liveCharts()->views().end());
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
    REQUIRE(
        exportHistoryJson(dir.filePath("runs.json"), window->historyModel()->entries(), &error));
    CHECK(QFile(dir.filePath("runs.json")).size() > 1000);
}

TEST_CASE("Screenshots for the README", "[ui][screenshot][slow]") {
    auto window = readyWindow(200);
    // Before any run: the plot areas hold no coloured marks (what "drawn" is measured against).
    for (ChartView* view : window->liveCharts()->views())
        CHECK(colouredPixelsInPlotArea(view) == 0);
    const long emptyTradeoff = colouredPixelsInPlotArea(window->tradeoffChart()->view());
    CHECK(emptyTradeoff == 0);

    REQUIRE(runWithLambdas(*window, {1.0}));
    window->liveCharts()->refreshNow();
    QTest::qWait(100);
    const QString mainPath = QStringLiteral(PFA_SCREENSHOT_DIR "/main-window.png");
    REQUIRE(window->grab().save(mainPath));
    const QImage main(mainPath);
    CHECK(main.size() == window->size() * window->devicePixelRatio());
    CHECK(main.width() >= 1200);
    const PictureContent mainContent = contentOf(main);
    CHECK(mainContent.marked > 0.05);  // not one flat colour: panels, charts and text are on it
    CHECK(mainContent.colours > 100);
    // Each live chart shows the run's curve: a line across its plot area is hundreds of pixels.
    for (ChartView* view : window->liveCharts()->views()) {
        INFO(view->chart()->title().toStdString());
        CHECK(colouredPixelsInPlotArea(view) > 100);
    }

    REQUIRE(runWithLambdas(*window, {0.0, 0.5, 2.0, 4.0, 8.0}));
    window->liveCharts()->refreshNow();
    CHECK(window->tradeoffChart()->pointCount() == 6);
    CHECK_FALSE(window->tradeoffChart()->frontRunIds().empty());
    QTest::qWait(100);
    const QString tradeoffPath = QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff.png");
    REQUIRE(window->tradeoffChart()->grab().save(tradeoffPath));
    const QImage tradeoff(tradeoffPath);
    CHECK(tradeoff.size() == window->tradeoffChart()->size() * window->devicePixelRatio());
    CHECK(contentOf(tradeoff).marked > 0.02);
    // Six points, coloured by ε: each marker covers a few dozen pixels of the plot area.
    CHECK(colouredPixelsInPlotArea(window->tradeoffChart()->view()) >= 6 * 20);
    QString error;
    const QString printPath = QStringLiteral(PFA_SCREENSHOT_DIR "/tradeoff-300dpi.png");
    REQUIRE(
        exportChart(window->tradeoffChart()->view(), printPath, ExportFormat::Png, 300, &error));
    const QImage print(printPath);
    CHECK(print.width() > 2 * tradeoff.width());  // 300 dpi: far more pixels than on screen
    CHECK(contentOf(print).marked > 0.02);
    // A fuller picture for the README: the same λ values without privacy, then two runs
    // selected for comparison.
    window->experimentPanel()->epsilonControl()->setValue(INFINITY);
    REQUIRE(runWithLambdas(*window, {0.0, 1.0, 4.0, 8.0}));
    window->historyView()->selectRuns(
        {window->historyModel()->entries()[5]->id, window->historyModel()->entries()[9]->id});
    window->liveCharts()->refreshNow();
    QTest::qWait(100);
    const QString fullerPath = QStringLiteral(PFA_SCREENSHOT_DIR "/main-window-tradeoff.png");
    REQUIRE(window->grab().save(fullerPath));
    const QImage fuller(fullerPath);
    CHECK(fuller.size() == main.size());
    CHECK(contentOf(fuller).marked > 0.05);
    CHECK(window->tradeoffChart()->pointCount() == 10);
    CHECK(colouredPixelsInPlotArea(window->tradeoffChart()->view()) >= 10 * 20);
}

}  // namespace ui_export_and_screenshot_test
