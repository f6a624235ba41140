#pragma once

#include <QSize>
#include <QString>

class QPainter;
class QRectF;
class QWidget;

namespace pfa::ui {

/// Output formats of a chart export.
enum class ExportFormat { Png, Svg, Pdf };

/// A view that can draw itself for export: charts and the sweep heat map. Its paint routine is
/// the one used on screen, so exports look exactly like the window.
class ExportableView {
public:
    virtual ~ExportableView() = default;
    /// Size in logical pixels (96 per inch) of the exported picture.
    virtual QSize exportSize() const = 0;
    /// Draws the view into `target` (logical coordinates scaled to fit).
    virtual void paintExport(QPainter* painter, const QRectF& target) = 0;
    /// A title for file metadata and suggested file names.
    virtual QString exportTitle() const = 0;
};

/// The format implied by a file name's extension (.png, .svg, .pdf); false if none matches.
bool exportFormatForPath(const QString& path, ExportFormat* format);

/// Writes `view` to `path`. PNG: (export size × dpi/96) pixels with the DPI stored in the
/// file; SVG and PDF: vector, at the export size in points. Returns false and fills `error`
/// on failure.
bool exportChart(ExportableView* view, const QString& path, ExportFormat format, int dpi,
                 QString* error);

/// Asks for a file name (and the DPI for PNG) and exports `view`; errors are shown in a
/// message box. Used by every view's context menu.
void exportWithDialog(ExportableView* view, QWidget* parent);

}  // namespace pfa::ui
