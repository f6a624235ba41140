#pragma once

#include <QSize>
#include <QString>

class QPainter;
class QRectF;
class QChartView;

namespace pfa::ui {

/// Output formats of a chart export.
enum class ExportFormat { Png, Svg, Pdf };

/// The format implied by a file name's extension (.png, .svg, .pdf); false if none matches.
bool exportFormatForPath(const QString& path, ExportFormat* format);

/// The one paint routine behind every export: draws the chart shown in `view` into `target`
/// on `painter` (vector output for SVG/PDF, scaled raster for PNG).
void paintChart(QChartView* view, QPainter* painter, const QRectF& target);

/// Writes the chart in `view` to `path`. PNG: (view size × dpi/96) pixels with the DPI stored
/// in the file; SVG and PDF: vector, at the view's size in points. Returns false and fills
/// `error` on failure.
bool exportChart(QChartView* view, const QString& path, ExportFormat format, int dpi,
                 QString* error);

}  // namespace pfa::ui
