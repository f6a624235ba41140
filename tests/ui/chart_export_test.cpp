// Export for a paper: the written file has the requested printed size and font size, PNG, SVG
// and PDF come from one paint routine, and the export dialog suggests a clean file name in the
// last folder used.
#include "ui/charts/chart_export.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QScatterSeries>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "core/sweep/sweep_spec.h"
#include "ui/charts/chart_export_dialog.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/error_setting_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/series_legend.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/charts/unit_spread_view.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_chart_export_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// The PDF's page size in points from its MediaBox.
QSizeF pdfPageSize(const QByteArray& pdf) {
    static const QRegularExpression box(QStringLiteral(
        "/MediaBox\\s*\\[\\s*([-\\d.]+)\\s+([-\\d.]+)\\s+([-\\d.]+)\\s+([-\\d.]+)\\s*\\]"));
    const QRegularExpressionMatch match = box.match(QString::fromLatin1(pdf));
    if (!match.hasMatch()) return {};
    return {match.captured(3).toDouble() - match.captured(1).toDouble(),
            match.captured(4).toDouble() - match.captured(2).toDouble()};
}

/// The printed size in points of every text in the PDF's page content: each "Tf" size times
/// the scale of the transformation in force ("cm" multiplies it, "q" and "Q" save and restore
/// it). The content streams are zlib-compressed (FlateDecode).
std::vector<double> pdfTextSizes(const QByteArray& pdf) {
    std::vector<double> sizes;
    qsizetype from = 0;
    for (;;) {
        const qsizetype start = pdf.indexOf("stream\n", from);
        if (start < 0) break;
        const qsizetype end = pdf.indexOf("endstream", start);
        if (end < 0) break;
        from = end + 9;
        if (start > 0 && pdf[start - 1] == 'd') continue;  // the "endstream" keyword itself
        QByteArray compressed = pdf.mid(start + 7, end - start - 7);
        // qUncompress wants the expected size first (big-endian); it grows the buffer if needed.
        const quint32 guess = static_cast<quint32>(compressed.size()) * 16 + 4096;
        QByteArray framed;
        framed.append(static_cast<char>(guess >> 24)).append(static_cast<char>(guess >> 16));
        framed.append(static_cast<char>(guess >> 8)).append(static_cast<char>(guess));
        framed.append(compressed);
        const QByteArray content = qUncompress(framed);
        if (!content.contains(" Tf")) continue;
        std::vector<double> scales{1.0};
        const QList<QByteArray> tokens = content.simplified().split(' ');
        for (qsizetype i = 0; i < tokens.size(); ++i) {
            const QByteArray& t = tokens[i];
            if (t == "q") {
                scales.push_back(scales.back());
            } else if (t == "Q") {
                if (scales.size() > 1) scales.pop_back();
            } else if (t == "cm" && i >= 6) {
                const double a = tokens[i - 6].toDouble(), b = tokens[i - 5].toDouble();
                const double c = tokens[i - 4].toDouble(), d = tokens[i - 3].toDouble();
                scales.back() *= std::sqrt(std::fabs(a * d - b * c));
            } else if (t == "Tf" && i >= 1) {
                sizes.push_back(tokens[i - 1].toDouble() * scales.back());
            }
        }
    }
    return sizes;
}

struct SvgFacts {
    QString width, height, viewBox;
    /// Printed size (in user units, i.e. points) of each text, by its text.
    std::vector<std::pair<QString, double>> texts;
    QStringList families;
};

/// Reads the root's size and every text's font size in user units: QSvgGenerator puts the
/// full transform on the group around a text, so the size in user units is the text's
/// font-size × the scale of the nearest enclosing transform.
SvgFacts readSvg(const QByteArray& svg) {
    SvgFacts facts;
    QXmlStreamReader xml(svg);
    struct Open {
        double scale, fontSize;
    };
    std::vector<Open> open;  // inherited scale and font size of each open element
    static const QRegularExpression matrix(QStringLiteral("matrix\\(([^)]*)\\)"));
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const QXmlStreamAttributes a = xml.attributes();
            if (xml.name() == QLatin1String("svg")) {
                facts.width = a.value(QLatin1String("width")).toString();
                facts.height = a.value(QLatin1String("height")).toString();
                facts.viewBox = a.value(QLatin1String("viewBox")).toString();
            }
            Open state = open.empty() ? Open{1.0, NAN} : open.back();
            const QRegularExpressionMatch m =
                matrix.match(a.value(QLatin1String("transform")).toString());
            if (m.hasMatch()) {
                const QStringList v = m.captured(1).split(
                    QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
                if (v.size() == 6) {
                    state.scale = std::sqrt(std::fabs(v[0].toDouble() * v[3].toDouble() -
                                                      v[1].toDouble() * v[2].toDouble()));
                }
            }
            if (a.hasAttribute(QLatin1String("font-size"))) {
                state.fontSize = a.value(QLatin1String("font-size")).toDouble();
            }
            if (a.hasAttribute(QLatin1String("font-family"))) {
                const QString family = a.value(QLatin1String("font-family")).toString();
                if (!facts.families.contains(family)) facts.families << family;
            }
            if (xml.name() == QLatin1String("text")) {
                facts.texts.emplace_back(
                    xml.readElementText(QXmlStreamReader::IncludeChildElements).simplified(),
                    state.fontSize * state.scale);
            } else {
                open.push_back(state);
            }
        } else if (xml.isEndElement()) {
            if (!open.empty()) open.pop_back();
        }
    }
    return facts;
}

/// The printed size of the text `label` (the first text containing it); NaN if absent.
double textSize(const SvgFacts& facts, const QString& label) {
    for (const auto& [text, size] : facts.texts) {
        if (text.contains(label)) return size;
    }
    return NAN;
}

/// Mean absolute grey difference (0–255) of two images of the same size, after smoothing both
/// to 1/8 of their size (so anti-aliasing and glyph hinting do not count, layout does).
double layoutDifference(const QImage& a, const QImage& b) {
    const QSize small = a.size() / 8;
    const QImage sa = a.convertToFormat(QImage::Format_RGB32)
                          .scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const QImage sb = b.convertToFormat(QImage::Format_RGB32)
                          .scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    double sum = 0;
    for (int y = 0; y < small.height(); ++y) {
        for (int x = 0; x < small.width(); ++x)
            sum += std::abs(qGray(sa.pixel(x, y)) - qGray(sb.pixel(x, y)));
    }
    return sum / (small.width() * small.height());
}

/// Pixels close to the selection ring's red.
int ringPixels(const QImage& image) {
    int count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            count += c.red() > 180 && c.green() < 90 && c.blue() < 90;
        }
    }
    return count;
}

/// Keeps a copy of `path` for a look by eye when PFA_EXPORT_SHOTS names a folder.
void keepForLook(const QString& path, const QString& name) {
    const QString folder = qEnvironmentVariable("PFA_EXPORT_SHOTS");
    if (folder.isEmpty()) return;
    QDir().mkpath(folder);
    QFile::remove(folder + QLatin1Char('/') + name);
    QFile::copy(path, folder + QLatin1Char('/') + name);
}

/// All text of the SVG, without white space (a line's text may be split into runs by script).
QString allText(const SvgFacts& facts) {
    QString text;
    for (const auto& [part, size] : facts.texts) text += part;
    return text.remove(QRegularExpression(QStringLiteral("\\s")));
}

bool showsText(const SvgFacts& facts, QString label) {
    return allText(facts).contains(label.remove(QRegularExpression(QStringLiteral("\\s"))));
}

ExportOptions paperOptions(ExportFormat format, double fontPoints = 8.0) {
    ExportOptions options;
    options.format = format;
    options.sizeInches = QSizeF(3.3, 2.4);
    options.fontPoints = fontPoints;
    options.dpi = 300;
    options.showTitle = true;
    return options;
}

}  // namespace

TEST_CASE("A paper export has the requested printed size and font size in PNG, SVG and PDF",
          "[ui][export][export-paper][slow]") {
    auto window = readyWindow(20);
    REQUIRE(runWithLambdas(*window, {0.0, 2.0, 6.0}));
    window->liveCharts()->refreshNow();
    ChartView* view = window->tradeoffChart()->view();
    QTemporaryDir dir;
    QString error;

    SECTION("PNG: inches × DPI pixels, the DPI stored") {
        const QString path = dir.filePath(QStringLiteral("t.png"));
        REQUIRE(exportChart(view, path, paperOptions(ExportFormat::Png), &error));
        const QImage png(path);
        CHECK(png.size() == QSize(990, 720));
        CHECK(std::abs(png.dotsPerMeterX() - 11811) <= 1);
        CHECK(std::abs(png.dotsPerMeterY() - 11811) <= 1);
        // White, not transparent, to the edges.
        for (const QPoint corner :
             {QPoint(0, 0), QPoint(989, 0), QPoint(0, 719), QPoint(989, 719)}) {
            CHECK(png.pixelColor(corner) == QColor(Qt::white));
        }
    }

    SECTION("PDF: the page is the figure, in points") {
        const QString path = dir.filePath(QStringLiteral("t.pdf"));
        REQUIRE(exportChart(view, path, paperOptions(ExportFormat::Pdf), &error));
        keepForLook(path, QStringLiteral("tradeoff-3.3in-8pt.pdf"));
        const QSizeF page = pdfPageSize(readAll(path));
        CHECK(page.width() == Approx(3.3 * 72).margin(0.5));
        CHECK(page.height() == Approx(2.4 * 72).margin(0.5));
        // The smallest text (ticks, legend, axis titles) at 8 pt. Qt's PDF engine states a
        // glyph size in whole pixels of the layout (13 for 12.67), hence 3 % and not exact.
        const std::vector<double> sizes = pdfTextSizes(readAll(path));
        REQUIRE(sizes.size() > 5);
        CHECK(*std::min_element(sizes.begin(), sizes.end()) == Approx(8.0).epsilon(0.03));
        const QString larger = dir.filePath(QStringLiteral("t12.pdf"));
        REQUIRE(exportChart(view, larger, paperOptions(ExportFormat::Pdf, 12.0), &error));
        const std::vector<double> largerSizes = pdfTextSizes(readAll(larger));
        REQUIRE(largerSizes.size() > 5);
        CHECK(*std::min_element(largerSizes.begin(), largerSizes.end()) ==
              Approx(12.0).epsilon(0.03));
    }

    SECTION(
        "SVG: width and height in the unit asked for, user unit = 1 pt, ticks at the font size") {
        const QString path = dir.filePath(QStringLiteral("t.svg"));
        REQUIRE(exportChart(view, path, paperOptions(ExportFormat::Svg), &error));
        SvgFacts svg = readSvg(readAll(path));
        CHECK(svg.width == QStringLiteral("3.3in"));
        CHECK(svg.height == QStringLiteral("2.4in"));
        CHECK(svg.viewBox == QStringLiteral("0 0 237.6 172.8"));
        REQUIRE_FALSE(svg.texts.empty());
        // Tick labels, legend and axis titles at 8 pt; nothing smaller.
        double smallest = INFINITY;
        for (const auto& [text, size] : svg.texts) smallest = std::min(smallest, size);
        CHECK(smallest == Approx(8.0).epsilon(0.01));
        CHECK(textSize(svg, QStringLiteral("test error")) == Approx(8.0).epsilon(0.01));
        // The title keeps its on-screen proportion (12.5 pt to 9.5 pt labels).
        CHECK(textSize(svg, QStringLiteral("tradeoff")) == Approx(8.0 * 12.5 / 9.5).epsilon(0.01));
        CHECK(textSize(svg, QStringLiteral("Pareto front")) == Approx(8.0).epsilon(0.01));
        // A named family that the PNG and PDF use, not a generic alias.
        REQUIRE(svg.families.size() >= 1);
        for (const QString& family : svg.families) {
            INFO(family.toStdString());
            CHECK(family == QFontInfo(QFont(family)).family());
            CHECK(family.compare(QLatin1String("Sans Serif"), Qt::CaseInsensitive) != 0);
        }

        ExportOptions larger = paperOptions(ExportFormat::Svg, 10.0);
        larger.unit = LengthUnit::Centimetre;
        larger.sizeInches = QSizeF(8.0, 6.0) / 2.54;
        REQUIRE(exportChart(view, path, larger, &error));
        svg = readSvg(readAll(path));
        CHECK(svg.width == QStringLiteral("8cm"));
        CHECK(svg.height == QStringLiteral("6cm"));
        CHECK(textSize(svg, QStringLiteral("Pareto front")) == Approx(10.0).epsilon(0.01));
    }

    SECTION("Title on or off") {
        const QString path = dir.filePath(QStringLiteral("t.svg"));
        ExportOptions options = paperOptions(ExportFormat::Svg);
        REQUIRE(exportChart(view, path, options, &error));
        CHECK(showsText(readSvg(readAll(path)), QStringLiteral("tradeoff")));
        // Nothing cut short in a one-column figure: no "…" anywhere (the axis title was).
        for (const auto& [text, size] : readSvg(readAll(path)).texts) {
            INFO(text.toStdString());
            CHECK_FALSE(text.contains(QChar(0x2026)));
            CHECK_FALSE(text.contains(QStringLiteral("...")));
        }
        CHECK(showsText(readSvg(readAll(path)), QStringLiteral("demographic parity violation")));
        options.showTitle = false;
        REQUIRE(exportChart(view, path, options, &error));
        CHECK_FALSE(showsText(readSvg(readAll(path)), QStringLiteral("tradeoff")));
        // The chart on screen keeps its title.
        CHECK(view->chart()->title().startsWith(QStringLiteral("Accuracy–fairness tradeoff")));
    }

    SECTION("SVG and PNG come from the same paint routine") {
        const QString png = dir.filePath(QStringLiteral("t.png")),
                      svg = dir.filePath(QStringLiteral("t.svg"));
        REQUIRE(exportChart(view, png, paperOptions(ExportFormat::Png), &error));
        REQUIRE(exportChart(view, svg, paperOptions(ExportFormat::Svg), &error));
        const QImage fromPng(png);
        QImage fromSvg(fromPng.size(), QImage::Format_ARGB32_Premultiplied);
        fromSvg.fill(Qt::transparent);
        QSvgRenderer renderer(svg);
        REQUIRE(renderer.isValid());
        QPainter painter(&fromSvg);
        renderer.render(&painter);
        painter.end();
        fromSvg.save(dir.filePath(QStringLiteral("t-svg.png")));
        keepForLook(png, QStringLiteral("same-routine-png.png"));
        keepForLook(dir.filePath(QStringLiteral("t-svg.png")),
                    QStringLiteral("same-routine-svg-qsvgrenderer.png"));
        keepForLook(svg, QStringLiteral("tradeoff-3.3in-8pt.svg"));
        // The SVG paints its own white background.
        CHECK(fromSvg.pixelColor(0, 0) == QColor(Qt::white));
        CHECK(fromSvg.pixelColor(fromSvg.width() - 1, fromSvg.height() - 1) == QColor(Qt::white));
        // A different layout (10-pt fonts) differs far more from the PNG than the SVG does.
        const QString other = dir.filePath(QStringLiteral("t10.png"));
        REQUIRE(exportChart(view, other, paperOptions(ExportFormat::Png, 10.0), &error));
        const double same = layoutDifference(fromPng, fromSvg);
        const double different = layoutDifference(fromPng, QImage(other));
        INFO("SVG vs PNG: " << same << ", 10 pt vs 8 pt: " << different);
        CHECK(same < 5.0);
        CHECK(same * 4 < different);
    }

    SECTION("No selection ring in the export; the window keeps it") {
        const QLegend::MarkerShape legendShape = view->chart()->legend()->markerShape();
        // Red pixels other than the ring's (the ε colour bar's ∞ swatch) are counted without
        // a selection first.
        const QString path = dir.filePath(QStringLiteral("t.png"));
        window->tradeoffChart()->setSelectedRun(0);
        QCoreApplication::processEvents();
        const int screenBase = ringPixels(view->grab().toImage());
        REQUIRE(exportChart(view, path, paperOptions(ExportFormat::Png), &error));
        const int exportBase = ringPixels(QImage(path));
        window->tradeoffChart()->setSelectedRun(window->historyModel()->entries().front()->id);
        QCoreApplication::processEvents();
        const QImage onScreen = view->grab().toImage();
        CHECK(ringPixels(onScreen) > screenBase + 20);
        REQUIRE(exportChart(view, path, paperOptions(ExportFormat::Png), &error));
        CHECK(ringPixels(QImage(path)) == exportBase);
        QCoreApplication::processEvents();
        CHECK(ringPixels(view->grab().toImage()) > screenBase + 20);
        // The legend keeps its on-screen look once the export is done.
        CHECK(view->chart()->legend()->markerShape() == legendShape);
    }

    SECTION("Errors are clear") {
        ExportOptions options = paperOptions(ExportFormat::Png);
        options.dpi = 5000;
        CHECK_FALSE(exportChart(view, dir.filePath(QStringLiteral("x.png")), options, &error));
        CHECK(error.contains(QStringLiteral("DPI")));
        options = paperOptions(ExportFormat::Pdf, 2.0);
        CHECK_FALSE(exportChart(view, dir.filePath(QStringLiteral("x.pdf")), options, &error));
        CHECK(error.contains(QStringLiteral("font size")));
        options = paperOptions(ExportFormat::Svg);
        CHECK_FALSE(exportChart(view, dir.filePath(QStringLiteral("no/such/folder/x.svg")), options,
                                &error));
        CHECK(error.contains(QStringLiteral("cannot write")));
    }
}

TEST_CASE("Sweep charts name their data set and notion, file names have no trailing hyphen",
          "[ui][export][export-paper]") {
    auto window = readyWindow(10);
    REQUIRE(runWithLambdas(*window, {0.0, 2.0}));
    SweepViewsPanel* sweeps = window->sweepViews();
    sweeps->refreshNow();
    const ExportContext context = sweeps->exportContext();
    INFO(context.caption.toStdString());
    CHECK(context.caption.contains(QStringLiteral("demographic parity")));
    CHECK(context.fileNameSuffix.endsWith(QStringLiteral("-dp")));

    // The view names: short stems, the context's data set and notion appended.
    CHECK(defaultExportFileName(window->tradeoffChart()->view()) ==
          QStringLiteral("tradeoff-") + context.fileNameSuffix);
    CHECK(window->tradeoffChart()->exportContext().caption == context.caption);
    const QString curves = defaultExportFileName(sweeps->tradeoffView()->view());
    CHECK(curves.startsWith(QStringLiteral("tradeoff-curves-")));
    CHECK(curves.endsWith(QStringLiteral("-dp")));
    CHECK(defaultExportFileName(sweeps->heatMap()).startsWith(QStringLiteral("heat-map-")));
    CHECK(defaultExportFileName(sweeps->errorEpsilonView()->view())
              .startsWith(QStringLiteral("error-vs-epsilon-")));
    CHECK(defaultExportFileName(sweeps->errorSettingView()->view())
              .startsWith(QStringLiteral("error-vs-setting-")));
    CHECK(defaultExportFileName(sweeps->unitSpreadView()->view())
              .startsWith(QStringLiteral("unit-spread-")));
    CHECK(fileNameSlug(QStringLiteral("Mean test error — dp-fermi ")) ==
          QStringLiteral("mean-test-error-dp-fermi"));
    CHECK(fileNameSlug(QStringLiteral("Test error vs ε (λ = 1)")) ==
          QStringLiteral("test-error-vs-epsilon-lambda-1"));
    CHECK(fileNameSlug(QStringLiteral("—")).isEmpty());

    QTemporaryDir dir;
    QString error;
    ExportOptions options = paperOptions(ExportFormat::Svg);
    const QString path = dir.filePath(QStringLiteral("curves.svg"));
    REQUIRE(exportChart(sweeps->tradeoffView()->view(), path, options, &error));
    keepForLook(path, QStringLiteral("sweep-curves-3.3in-8pt.svg"));
    SvgFacts svg = readSvg(readAll(path));
    INFO(allText(svg).toStdString());
    CHECK(showsText(svg, context.caption));
    options.showCaption = false;
    REQUIRE(exportChart(sweeps->tradeoffView()->view(), path, options, &error));
    CHECK_FALSE(showsText(readSvg(readAll(path)), context.caption));

    const QString price = dir.filePath(QStringLiteral("price.pdf"));
    REQUIRE(exportChart(sweeps->priceView()->errorView(), price, paperOptions(ExportFormat::Pdf),
                        &error));
    keepForLook(price, QStringLiteral("sweep-price-error-3.3in-8pt.pdf"));
    const QString loss = dir.filePath(QStringLiteral("loss.pdf"));
    REQUIRE(exportChart(window->liveCharts()->views()[0], loss, paperOptions(ExportFormat::Pdf),
                        &error));
    keepForLook(loss, QStringLiteral("training-loss-3.3in-8pt.pdf"));

    // The heat map (its own paint routine): caption and font size too.
    options.showCaption = true;
    REQUIRE(exportChart(sweeps->heatMap(), path, options, &error));
    keepForLook(path, QStringLiteral("sweep-heat-map-3.3in-8pt.svg"));
    svg = readSvg(readAll(path));
    CHECK(showsText(svg, context.caption));
    CHECK(textSize(svg, QStringLiteral("fairness weight)")) ==
          Approx(8.0 * 10.5 / 9.5).epsilon(0.01));
    options.showTitle = false;
    options.showCaption = false;
    REQUIRE(exportChart(sweeps->heatMap(), path, options, &error));
    CHECK_FALSE(showsText(readSvg(readAll(path)), sweeps->heatMap()->exportTitle()));
}

TEST_CASE("The export dialog remembers its values and the last folder",
          "[ui][export][export-paper]") {
    auto window = readyWindow(10);
    REQUIRE(runWithLambdas(*window, {1.0}));
    ChartView* view = window->tradeoffChart()->view();
    QTemporaryDir dir;
    {
        ChartExportDialog dialog(view);
        // First time: a clean name in the Documents folder (or home).
        const QString name = QFileInfo(dialog.filePath()).fileName();
        CHECK(name.startsWith(QStringLiteral("tradeoff-")));
        CHECK(name.endsWith(QStringLiteral("-dp.pdf")));
        CHECK(dialog.captionBox()->isEnabled());
        CHECK(QFileInfo(dialog.filePath()).absolutePath() ==
              QDir(ChartExportDialog::lastFolder()).absolutePath());
        dialog.formatBox()->setCurrentIndex(
            dialog.formatBox()->findData(static_cast<int>(ExportFormat::Svg)));
        CHECK(dialog.filePath().endsWith(QStringLiteral("-dp.svg")));
        dialog.unitBox()->setCurrentIndex(
            dialog.unitBox()->findData(static_cast<int>(LengthUnit::Centimetre)));
        CHECK(dialog.widthBox()->value() == Approx(3.3 * 2.54).margin(0.01));
        dialog.widthBox()->setValue(8.0);
        dialog.heightBox()->setValue(6.0);
        dialog.fontBox()->setValue(9.0);
        dialog.titleBox()->setChecked(false);
        dialog.pathEdit()->setText(dir.filePath(QStringLiteral("figure")));  // no extension: added
        dialog.accept();
        CHECK(dialog.result() == QDialog::Accepted);
        CHECK(dialog.filePath() == dir.filePath(QStringLiteral("figure.svg")));
        const ExportOptions options = dialog.options();
        CHECK(options.format == ExportFormat::Svg);
        CHECK(options.unit == LengthUnit::Centimetre);
        CHECK(options.sizeInches.width() == Approx(8.0 / 2.54));
        CHECK(options.fontPoints == 9.0);
        CHECK_FALSE(options.showTitle);
    }
    ChartExportDialog again(window->liveCharts()->views()[1]);
    CHECK(QDir(ChartExportDialog::lastFolder()) == QDir(dir.path()));
    CHECK(again.filePath() == dir.filePath(QStringLiteral("test-error.svg")));
    CHECK(again.unitBox()->currentData().toInt() == static_cast<int>(LengthUnit::Centimetre));
    CHECK(again.widthBox()->value() == Approx(8.0));
    CHECK(again.heightBox()->value() == Approx(6.0));
    CHECK(again.fontBox()->value() == 9.0);
    CHECK_FALSE(again.titleBox()->isChecked());
    if (!qEnvironmentVariable("PFA_EXPORT_SHOTS").isEmpty()) {
        again.adjustSize();
        again.grab().save(dir.filePath(QStringLiteral("dialog.png")));
        keepForLook(dir.filePath(QStringLiteral("dialog.png")),
                    QStringLiteral("export-dialog.png"));
    }
    // The live charts have no single data set: the caption box is off.
    CHECK_FALSE(again.captionBox()->isEnabled());
}

TEST_CASE("File → Export chart lists every chart the panels register, with its file name",
          "[ui][export]") {
    auto window = readyWindow(5);
    QMenu* exportMenu = nullptr;
    for (QAction* action : window->menuBar()->actions()) {
        if (!action->menu()) continue;
        for (QAction* entry : action->menu()->actions())
            if (entry->menu() && entry->text() == QStringLiteral("Export &chart"))
                exportMenu = entry->menu();
    }
    REQUIRE(exportMenu != nullptr);
    QStringList names;
    for (QAction* action : exportMenu->actions())
        names << (action->isSeparator() ? QStringLiteral("—") : action->text());
    // The live charts, the tradeoff chart and the sweep views, as each panel lists them.
    CHECK(names ==
          QStringList{QStringLiteral("Training loss…"), QStringLiteral("Test error…"),
                      QStringLiteral("Fairness violation…"), QStringLiteral("Privacy spent…"),
                      QStringLiteral("—"), QStringLiteral("Tradeoff…"), QStringLiteral("—"),
                      QStringLiteral("Sweep: tradeoff curves…"),
                      QStringLiteral("Sweep: price of privacy, error…"),
                      QStringLiteral("Sweep: price of privacy, violation…"),
                      QStringLiteral("Sweep: heat map…"), QStringLiteral("Sweep: error vs ε…"),
                      QStringLiteral("Sweep: error vs setting…"),
                      QStringLiteral("Sweep: per-unit spread…")});
    // Each view got the file name its entry gives (its own context menu uses it too).
    CHECK(window->liveCharts()->views()[0]->exportFileStem() == QStringLiteral("training-loss"));
    CHECK(window->tradeoffChart()->view()->exportFileStem().startsWith(QStringLiteral("tradeoff")));
    CHECK(window->sweepViews()->heatMap()->exportFileStem().startsWith(QStringLiteral("heat-map")));
}

namespace {

/// The text pdftotext reads from `pdf`, white space removed (a wrapped label breaks a line).
QString pdfText(const QString& pdf) {
    QProcess process;
    process.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    if (!process.waitForFinished(20000) || process.exitCode() != 0) return QString();
    return QString::fromUtf8(process.readAllStandardOutput())
        .remove(QRegularExpression(QStringLiteral("\\s")));
}

/// A finished run of `algorithm` at ε with one own setting, as the history holds it.
RunEntryPtr paperRun(int id, const std::string& algorithm, double epsilon, const std::string& key,
                     double value, std::uint64_t seed, double error, double violation) {
    pfa::RunResult r;
    r.dataset = "adult";
    r.status = pfa::RunStatus::Completed;
    r.config.algorithm = algorithm;
    r.config.epsilon = epsilon;
    r.config.seed = seed;
    r.config.epochs = 50;
    if (key == "lambda") {
        r.config.lambda = value;
    } else {
        r.config.extra[key] = pfa::realText(value);
    }
    r.test.error = error;
    r.test.dpGap = r.test.eoGap = r.test.eoppGap = violation;
    r.privacy.isPrivate = true;
    r.privacy.epsilonSpent = epsilon;
    pfa::RunContext context;
    context.runKey = pfa::runKey("adult|split=0,0.2", r.config);
    return makeRunEntry(id, std::move(r), std::move(context), QDateTime::currentDateTime());
}

/// The paper figure's runs: DP-FERMI over λ and PF-LD over its dual step at four ε, two seeds.
std::vector<RunEntryPtr> paperFigureRuns() {
    std::vector<RunEntryPtr> entries;
    int id = 1;
    for (double epsilon : {0.5, 1.0, 3.0, 9.0}) {
        for (std::uint64_t seed : {0, 1}) {
            for (double lambda : {0.0, 1.0, 4.0})
                entries.push_back(paperRun(id++, "dp-fermi", epsilon, "lambda", lambda, seed,
                                           0.16 + 0.01 * lambda + 0.03 / epsilon + 0.002 * seed,
                                           0.12 / (1.0 + lambda) + 0.001 * seed));
            for (double step : {0.05, 0.5})
                entries.push_back(paperRun(id++, "pf-ld", epsilon, "dual-step", step, seed,
                                           0.18 + 0.02 * step + 0.04 / epsilon + 0.002 * seed,
                                           0.1 - 0.1 * step + 0.001 * seed));
        }
    }
    return entries;
}

}  // namespace

TEST_CASE(
    "Every sweep chart exported as a one-column figure (3.3 × 2.4 in, 8 pt) names every "
    "legend entry in full",
    "[ui][export][export-paper][paper-figure]") {
    SweepViewsPanel views;
    views.setEntries(paperFigureRuns());
    views.resize(1100, 700);
    views.show();
    views.refreshNow();
    QTest::qWait(50);
    QTemporaryDir dir;
    int checkedViews = 0;
    for (const ChartExportEntry& entry : views.exportEntries()) {
        auto* chartView = dynamic_cast<ChartView*>(entry.view);
        if (!chartView) continue;  // the heat map: a colour bar, no legend
        const SeriesLegend* legend = SeriesLegend::of(chartView->chart());
        INFO(entry.name.toStdString());
        REQUIRE(legend != nullptr);  // every sweep chart draws its legend itself
        // Qt's own legend drops the labels of a narrow figure; it must not be the one shown.
        CHECK_FALSE(chartView->chart()->legend()->isVisible());
        if (entry.prepare) entry.prepare();
        const QString path = dir.filePath(entry.stem + QStringLiteral(".pdf"));
        QString error;
        REQUIRE(exportChart(entry.view, path, paperOptions(ExportFormat::Pdf), &error));
        keepForLook(path, entry.stem + QStringLiteral("-3.3in-8pt.pdf"));
        const QString text = pdfText(path);
        REQUIRE_FALSE(text.isEmpty());  // pdftotext (poppler-utils) read the figure
        // Nothing cut short: no tick label of a short axis, no legend label became "…".
        CHECK_FALSE(text.contains(QStringLiteral("…")));
        for (QString name : legend->names()) {
            INFO(name.toStdString());
            CHECK(text.contains(name.remove(QRegularExpression(QStringLiteral("\\s")))));
        }
        if (!legend->names().isEmpty()) ++checkedViews;
    }
    // Tradeoff curves (four ε × two methods), both price-of-privacy charts, error vs ε and
    // error vs setting each had entries to check.
    CHECK(checkedViews >= 5);
}

}  // namespace ui_chart_export_test
