#include "ui/charts/chart_export.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QInputDialog>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextDocument>
#include <cmath>

namespace pfa::ui {

bool exportFormatForPath(const QString& path, ExportFormat* format) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png") *format = ExportFormat::Png;
    else if (suffix == "svg") *format = ExportFormat::Svg;
    else if (suffix == "pdf") *format = ExportFormat::Pdf;
    else return false;
    return true;
}

bool exportChart(ExportableView* view, const QString& path, ExportFormat format, int dpi, QString* error) {
    const QSize logical = view->exportSize();
    if (logical.isEmpty()) {
        if (error) *error = QStringLiteral("the chart has no size yet");
        return false;
    }
    auto prepare = [](QPainter& painter) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
    };
    switch (format) {
        case ExportFormat::Png: {
            if (dpi < 36 || dpi > 1200) {
                if (error) *error = QStringLiteral("DPI %1 is outside 36–1200").arg(dpi);
                return false;
            }
            const double scale = dpi / 96.0;
            QImage image(QSize(static_cast<int>(std::lround(logical.width() * scale)),
                               static_cast<int>(std::lround(logical.height() * scale))),
                         QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            const int dotsPerMeter = static_cast<int>(std::lround(dpi / 0.0254));
            image.setDotsPerMeterX(dotsPerMeter);
            image.setDotsPerMeterY(dotsPerMeter);
            QPainter painter(&image);
            prepare(painter);
            view->paintExport(&painter, QRectF(QPointF(0, 0), QSizeF(image.size())));
            painter.end();
            if (!image.save(path, "PNG")) {
                if (error) *error = QStringLiteral("cannot write %1").arg(path);
                return false;
            }
            return true;
        }
        case ExportFormat::Svg: {
            QSvgGenerator generator;
            generator.setFileName(path);
            generator.setSize(logical);
            generator.setViewBox(QRect(QPoint(0, 0), logical));
            generator.setTitle(view->exportTitle());
            generator.setDescription(QStringLiteral("Exported from PFA Explorer"));
            QPainter painter;
            if (!painter.begin(&generator)) {
                if (error) *error = QStringLiteral("cannot write %1").arg(path);
                return false;
            }
            prepare(painter);
            view->paintExport(&painter, QRectF(QPointF(0, 0), QSizeF(logical)));
            painter.end();
            return true;
        }
        case ExportFormat::Pdf: {
            QPdfWriter writer(path);
            writer.setResolution(96);
            writer.setPageSize(QPageSize(QSizeF(logical) * 72.0 / 96.0, QPageSize::Point));
            writer.setPageMargins(QMarginsF(0, 0, 0, 0));
            writer.setTitle(view->exportTitle());
            writer.setCreator(QStringLiteral("PFA Explorer"));
            QPainter painter;
            if (!painter.begin(&writer)) {
                if (error) *error = QStringLiteral("cannot write %1").arg(path);
                return false;
            }
            prepare(painter);
            view->paintExport(&painter, QRectF(writer.pageLayout().paintRectPixels(writer.resolution())));
            painter.end();
            return true;
        }
    }
    return false;
}

void exportWithDialog(ExportableView* view, QWidget* parent) {
    QString suggested = view->exportTitle().isEmpty() ? QStringLiteral("chart") : view->exportTitle();
    suggested.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export chart"), suggested.toLower() + ".png",
        QObject::tr("PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty()) return;
    ExportFormat format;
    if (!exportFormatForPath(path, &format)) {
        QMessageBox::warning(parent, QObject::tr("Export chart"),
                             QObject::tr("Please choose a file name ending in .png, .svg or .pdf."));
        return;
    }
    int dpi = 96;
    if (format == ExportFormat::Png) {
        bool ok = false;
        dpi = QInputDialog::getInt(parent, QObject::tr("PNG resolution"),
                                   QObject::tr("Dots per inch (96 = screen, 300 = print):"), 300, 36, 1200, 1, &ok);
        if (!ok) return;
    }
    QString error;
    if (!exportChart(view, path, format, dpi, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export chart"),
                             Qt::convertFromPlainText(QObject::tr("Export failed: %1").arg(error), Qt::WhiteSpaceNormal));
    }
}

}  // namespace pfa::ui
