#include "ui/charts/chart_export.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPointer>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QToolTip>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <cmath>
#include <map>
#include <vector>

#include "ui/charts/chart_export_dialog.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"

// Qt's own logical DPI of the screen: the DPI at which the charts' text items are laid out.
Q_GUI_EXPORT int qt_defaultDpiY();

namespace pfa::ui {

namespace {

constexpr double kCmPerInch = 2.54;

/// The DPI at which text of the scene is laid out; every export device reports it while the
/// figure is painted, so text drawn by the items and text drawn directly agree in size.
int layoutDpi() { return qt_defaultDpiY(); }

void setError(QString* error, const QString& message) {
    if (error) *error = message;
}

/// Checks the options that every format shares.
bool validOptions(const ExportOptions& options, QString* error) {
    const QSizeF& size = options.sizeInches;
    if (!(size.width() >= 0.5 && size.height() >= 0.5 && size.width() <= 60 &&
          size.height() <= 60)) {
        setError(error, QCoreApplication::translate("ChartExport",
                                                    "the size must be between 0.5 and 60 inches "
                                                    "(1.27–152 cm) on each side"));
        return false;
    }
    if (!(options.fontPoints >= 4 && options.fontPoints <= 48)) {
        setError(error, QCoreApplication::translate("ChartExport",
                                                    "the font size must be between 4 and 48 pt"));
        return false;
    }
    if (options.format == ExportFormat::Png) {
        if (options.dpi < 36 || options.dpi > 1200) {
            setError(error, QCoreApplication::translate("ChartExport", "DPI %1 is outside 36–1200")
                                .arg(options.dpi));
            return false;
        }
        const double pixels = size.width() * options.dpi * size.height() * options.dpi;
        if (pixels > 400e6) {
            setError(error,
                     QCoreApplication::translate("ChartExport",
                                                 "%1 × %2 pixels is too large a PNG; lower the "
                                                 "DPI or the size")
                         .arg(std::lround(size.width() * options.dpi))
                         .arg(std::lround(size.height() * options.dpi)));
            return false;
        }
    }
    return true;
}

QString lengthText(double inches, LengthUnit unit) {
    return unit == LengthUnit::Inch
               ? QString::number(inches, 'g', 6) + QStringLiteral("in")
               : QString::number(inches * kCmPerInch, 'g', 6) + QStringLiteral("cm");
}

/// QSvgGenerator states the size in millimetres and names the font family as the program
/// asked for it (often a generic alias such as "Sans Serif" that each SVG viewer maps to
/// another font). The SVG states the size in the user's unit and names the family that PNG
/// and PDF actually use.
QByteArray finishSvg(QByteArray svg, const ExportOptions& options) {
    QString text = QString::fromUtf8(svg);
    const int start = text.indexOf(QStringLiteral("<svg"));
    const int end = start < 0 ? -1 : text.indexOf(QLatin1Char('>'), start);
    if (start >= 0 && end > start) {
        QString header = text.mid(start, end - start);
        header.replace(QRegularExpression(QStringLiteral("\\swidth=\"[^\"]*\"")),
                       QStringLiteral(" width=\"%1\"")
                           .arg(lengthText(options.sizeInches.width(), options.unit)));
        header.replace(QRegularExpression(QStringLiteral("\\sheight=\"[^\"]*\"")),
                       QStringLiteral(" height=\"%1\"")
                           .arg(lengthText(options.sizeInches.height(), options.unit)));
        text.replace(start, end - start, header);
    }
    std::map<QString, QString> resolved;
    static const QRegularExpression family(QStringLiteral("font-family=\"([^\"]*)\""));
    QString out;
    out.reserve(text.size());
    qsizetype last = 0;
    for (auto it = family.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const QString asked = match.captured(1);
        auto found = resolved.find(asked);
        if (found == resolved.end()) {
            const QString actual = QFontInfo(QFont(asked)).family();
            found =
                resolved.emplace(asked, actual.isEmpty() ? asked : actual.toHtmlEscaped()).first;
        }
        out += QStringView(text).mid(last, match.capturedStart(1) - last);
        out += found->second;
        last = match.capturedEnd(1);
    }
    out += QStringView(text).mid(last);
    return out.toUtf8();
}

bool writeFile(const QString& path, const QByteArray& data, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        setError(error, QCoreApplication::translate("ChartExport", "cannot write %1: %2")
                            .arg(path, file.errorString()));
        return false;
    }
    return true;
}

QString cannotWrite(const QString& path) {
    return QCoreApplication::translate("ChartExport", "cannot write %1").arg(path);
}

}  // namespace

double screenLabelPoints() { return chart_style::labelFont().pointSizeF(); }

QString ExportableView::exportFileStem() const {
    if (!m_fileStem.isEmpty()) return m_fileStem;
    const QString stem = fileNameSlug(exportTitle());
    return stem.isEmpty() ? QStringLiteral("chart") : stem;
}

QString fileNameSlug(const QString& text) {
    QString ascii = text;
    ascii.replace(QStringLiteral("ε"), QStringLiteral(" epsilon "));
    ascii.replace(QStringLiteral("λ"), QStringLiteral(" lambda "));
    ascii = ascii.normalized(QString::NormalizationForm_KD).toLower();
    QString slug;
    for (const QChar c : ascii) {
        const bool keep = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                          (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
        if (keep) {
            slug += c;
        } else if (c.category() != QChar::Mark_NonSpacing && !slug.isEmpty() &&
                   !slug.endsWith(QLatin1Char('-'))) {
            slug += QLatin1Char('-');
        }
    }
    while (slug.endsWith(QLatin1Char('-'))) slug.chop(1);
    return slug;
}

QString defaultExportFileName(const ExportableView* view) {
    QStringList parts;
    const QString stem = fileNameSlug(view->exportFileStem());
    if (!stem.isEmpty()) parts << stem;
    const QString suffix = fileNameSlug(view->exportContext().fileNameSuffix);
    if (!suffix.isEmpty()) parts << suffix;
    return parts.isEmpty() ? QStringLiteral("chart") : parts.join(QLatin1Char('-'));
}

bool exportFormatForPath(const QString& path, ExportFormat* format) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png")
        *format = ExportFormat::Png;
    else if (suffix == "svg")
        *format = ExportFormat::Svg;
    else if (suffix == "pdf")
        *format = ExportFormat::Pdf;
    else
        return false;
    return true;
}

QString exportSuffix(ExportFormat format) {
    switch (format) {
        case ExportFormat::Png:
            return QStringLiteral(".png");
        case ExportFormat::Svg:
            return QStringLiteral(".svg");
        case ExportFormat::Pdf:
            return QStringLiteral(".pdf");
    }
    return QString();
}

void paintFigure(ExportableView* view, QPainter* painter, const QSizeF& deviceSize,
                 const ExportOptions& options) {
    // The view is laid out on a canvas of screen pixels whose size makes its tick labels
    // (screenLabelPoints() on screen) come out at options.fontPoints once the canvas is
    // scaled to the printed size: everything (fonts, markers, lines) keeps its on-screen
    // proportions, only the figure's size relative to them changes.
    const double zoom = screenLabelPoints() / options.fontPoints;
    const QSizeF canvas(options.sizeInches.width() * layoutDpi() * zoom,
                        options.sizeInches.height() * layoutDpi() * zoom);
    ExportHeading heading;
    if (options.showTitle) heading.title = view->exportTitle();
    if (options.showCaption) heading.caption = view->exportContext().caption;

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->fillRect(QRectF(QPointF(0, 0), deviceSize), Qt::white);
    painter->scale(deviceSize.width() / canvas.width(), deviceSize.height() / canvas.height());
    view->paintExport(painter, QRectF(QPointF(0, 0), canvas), heading);
    painter->restore();
}

bool exportChart(ExportableView* view, const QString& path, const ExportOptions& options,
                 QString* error) {
    if (!validOptions(options, error)) return false;
    const QSizeF inches = options.sizeInches;
    const int dpi = layoutDpi();
    switch (options.format) {
        case ExportFormat::Png: {
            QImage image(QSize(static_cast<int>(std::lround(inches.width() * options.dpi)),
                               static_cast<int>(std::lround(inches.height() * options.dpi))),
                         QImage::Format_ARGB32_Premultiplied);
            if (image.isNull()) {
                setError(error, QCoreApplication::translate("ChartExport",
                                                            "not enough memory for the image"));
                return false;
            }
            // Painted at the layout DPI (see layoutDpi), stored with the chosen one.
            const auto dotsPerMeter = [](double perInch) {
                return static_cast<int>(std::lround(perInch / 0.0254));
            };
            image.setDotsPerMeterX(dotsPerMeter(dpi));
            image.setDotsPerMeterY(dotsPerMeter(dpi));
            QPainter painter(&image);
            paintFigure(view, &painter, QSizeF(image.size()), options);
            painter.end();
            image.setDotsPerMeterX(dotsPerMeter(options.dpi));
            image.setDotsPerMeterY(dotsPerMeter(options.dpi));
            QBuffer buffer;
            buffer.open(QIODevice::WriteOnly);
            if (!image.save(&buffer, "PNG")) {
                setError(error, cannotWrite(path));
                return false;
            }
            return writeFile(path, buffer.data(), error);
        }
        case ExportFormat::Svg: {
            // User unit = 1 pt: the figure is sizeInches × 72 units.
            const QSizeF points = inches * 72.0;
            QBuffer buffer;
            buffer.open(QIODevice::WriteOnly);
            QSvgGenerator generator;
            generator.setOutputDevice(&buffer);
            generator.setResolution(dpi);
            generator.setSize(points.toSize());
            generator.setViewBox(QRectF(QPointF(0, 0), points));
            generator.setTitle(view->exportTitle());
            generator.setDescription(QStringLiteral("Exported from PFA Explorer"));
            QPainter painter;
            if (!painter.begin(&generator)) {
                setError(error, cannotWrite(path));
                return false;
            }
            paintFigure(view, &painter, points, options);
            painter.end();
            return writeFile(path, finishSvg(buffer.data(), options), error);
        }
        case ExportFormat::Pdf: {
            QPdfWriter writer(path);
            writer.setResolution(dpi);
            writer.setPageLayout(
                QPageLayout(QPageSize(inches, QPageSize::Inch, QString(), QPageSize::ExactMatch),
                            QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
            writer.setTitle(view->exportTitle());
            writer.setCreator(QStringLiteral("PFA Explorer"));
            QPainter painter;
            if (!painter.begin(&writer)) {
                setError(error, cannotWrite(path));
                return false;
            }
            paintFigure(view, &painter, inches * dpi, options);
            painter.end();
            return true;
        }
    }
    return false;
}

bool exportChart(ExportableView* view, const QString& path, ExportFormat format, int dpi,
                 QString* error) {
    const QSize logical = view->exportSize();
    if (logical.isEmpty()) {
        setError(error, QCoreApplication::translate("ChartExport", "the chart has no size yet"));
        return false;
    }
    ExportOptions options;
    options.format = format;
    options.sizeInches = QSizeF(logical) / layoutDpi();
    options.fontPoints = screenLabelPoints();
    options.dpi = dpi;
    options.showTitle = true;
    options.showCaption = false;
    return exportChart(view, path, options, error);
}

void exportWithDialog(ExportableView* view, QWidget* parent) {
    // Opened, not exec()'d: a nested event loop would let training and sweep signals re-enter
    // the window while the dialog is up. The view may go away meanwhile (a sweep view rebuilt).
    auto* dialog = new ChartExportDialog(view, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<QObject> alive(dynamic_cast<QObject*>(view));
    QObject::connect(dialog, &QDialog::accepted, dialog, [dialog, view, alive, parent] {
        if (!alive) return;
        QString error;
        if (!exportChart(view, dialog->filePath(), dialog->options(), &error)) {
            QMessageBox::warning(
                parent, QCoreApplication::translate("ChartExport", "Export chart"),
                Qt::convertFromPlainText(
                    QCoreApplication::translate("ChartExport", "Export failed: %1").arg(error),
                    Qt::WhiteSpaceNormal));
        }
    });
    dialog->open();
}

void paintChartForExport(ChartView* view, QPainter* painter, const QRectF& target,
                         const ExportHeading& heading) {
    QChart* chart = view->chart();
    if (!chart) return;
    // Pending layouts (a legend entry just added) first, or the export would miss them.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    std::vector<QPointer<QObject>> decorated;
    for (QObject* object = view->parent(); object; object = object->parent()) {
        if (auto* decorations = dynamic_cast<ExportDecorations*>(object)) {
            decorations->setExportMode(true);
            decorated.emplace_back(object);
        }
    }
    QToolTip::hideText();

    // The heading is drawn here, word-wrapped, not as the chart's title: Qt Charts cuts a
    // title that is wider than the chart short ("Error vs fairness violation (mean ...").
    const double margin = 6.0;
    const double width = target.width() - 2 * margin;
    const int flags = Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap;
    double top = target.top();
    const auto drawLine = [&](const QString& text, const QFont& font, QColor color) {
        if (text.isEmpty()) return;
        const QRectF box = QFontMetricsF(font).boundingRect(QRectF(0, 0, width, 1e6), flags, text);
        painter->save();
        painter->setFont(font);
        painter->setPen(color);
        painter->drawText(QRectF(target.left() + margin, top + margin, width, box.height()), flags,
                          text);
        painter->restore();
        top += box.height() + 2;
    };
    drawLine(heading.title, chart_style::titleFont(), QColor(40, 40, 40));
    drawLine(heading.caption, chart_style::axisFont(), QColor(70, 70, 70));
    if (top > target.top()) top += margin;
    const QRectF area(target.left(), top, target.width(), target.bottom() - top);

    const QRectF shown = chart->geometry();
    const QString title = chart->title();
    const QLegend::MarkerShape markerShape = chart->legend()->markerShape();
    const Qt::Alignment legendAlignment = chart->legend()->alignment();
    chart->setTitle(QString());
    // Axis titles at the size of the tick labels, as in most papers' figures (on screen they
    // are a little larger); a long one would otherwise be cut short on a narrow figure.
    std::vector<std::pair<QAbstractAxis*, QFont>> axisTitleFonts;
    for (QAbstractAxis* axis : chart->axes()) {
        axisTitleFonts.emplace_back(axis, axis->titleFont());
        QFont font = axis->titleFont();
        font.setPointSizeF(axis->labelsFont().pointSizeF());
        axis->setTitleFont(font);
    }
    // Legend glyphs drawn like the series: a line, the scatter marker, the dashed front.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    // A narrow figure has no room for a legend beside the plot (its entries would be cut).
    if (area.width() < 700) chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setGeometry(QRectF(QPointF(0, 0), area.size()));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (chart->layout()) chart->layout()->activate();

    view->scene()->render(painter, area, QRectF(QPointF(0, 0), area.size()), Qt::IgnoreAspectRatio);

    for (const auto& [axis, font] : axisTitleFonts) axis->setTitleFont(font);
    chart->legend()->setAlignment(legendAlignment);
    chart->legend()->setMarkerShape(markerShape);
    chart->setTitle(title);
    chart->setGeometry(shown);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (chart->layout()) chart->layout()->activate();
    for (const QPointer<QObject>& object : decorated) {
        if (object) dynamic_cast<ExportDecorations*>(object.data())->setExportMode(false);
    }
}

}  // namespace pfa::ui
