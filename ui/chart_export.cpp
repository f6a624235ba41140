#include "ui/chart_export.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QtCharts/QChartView>
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

void paintChart(QChartView* view, QPainter* painter, const QRectF& target) {
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    // Render the chart's scene region (not the widget), so no scroll bars or frames leak in.
    QGraphicsScene* scene = view->scene();
    scene->render(painter, target, view->mapToScene(view->viewport()->rect()).boundingRect(),
                  Qt::IgnoreAspectRatio);
}

bool exportChart(QChartView* view, const QString& path, ExportFormat format, int dpi,
                 QString* error) {
    const QSize logical = view->viewport()->size();
    if (logical.isEmpty()) {
        if (error) *error = QStringLiteral("the chart has no size yet");
        return false;
    }
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
            paintChart(view, &painter, QRectF(QPointF(0, 0), QSizeF(image.size())));
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
            generator.setTitle(view->chart() ? view->chart()->title() : QString());
            generator.setDescription(QStringLiteral("Exported from PFA Explorer"));
            QPainter painter;
            if (!painter.begin(&generator)) {
                if (error) *error = QStringLiteral("cannot write %1").arg(path);
                return false;
            }
            paintChart(view, &painter, QRectF(QPointF(0, 0), QSizeF(logical)));
            painter.end();
            return true;
        }
        case ExportFormat::Pdf: {
            QPdfWriter writer(path);
            writer.setResolution(96);
            writer.setPageSize(QPageSize(QSizeF(logical) * 72.0 / 96.0, QPageSize::Point));
            writer.setPageMargins(QMarginsF(0, 0, 0, 0));
            writer.setTitle(view->chart() ? view->chart()->title() : QString());
            writer.setCreator(QStringLiteral("PFA Explorer"));
            QPainter painter;
            if (!painter.begin(&writer)) {
                if (error) *error = QStringLiteral("cannot write %1").arg(path);
                return false;
            }
            const QRect page = writer.pageLayout().paintRectPixels(writer.resolution());
            paintChart(view, &painter, QRectF(page));
            painter.end();
            return true;
        }
    }
    return false;
}

}  // namespace pfa::ui
