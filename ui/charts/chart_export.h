#pragma once

#include <QSize>
#include <QSizeF>
#include <QString>
#include <functional>

class QPainter;
class QRectF;
class QWidget;

namespace pfa::ui {

/// Output formats of a chart export.
enum class ExportFormat { Png, Svg, Pdf };

/// The lines above an exported figure; either may be empty (then it is left out).
struct ExportHeading {
    QString title;
    /// A smaller line under the title, e.g. the data set and fairness notion of a sweep chart.
    QString caption;
};

/// What a view's surroundings know about the data it shows, for exports: the sweep views get
/// the data set and notion from their panel's filters.
struct ExportContext {
    /// The caption line, e.g. "adult · demographic parity"; empty when there is none.
    QString caption;
    /// Appended to the default file name, e.g. "adult-dp"; empty when there is none.
    QString fileNameSuffix;
};

/// A view that can draw itself for export: charts and the sweep heat map. Its paint routine is
/// the one used on screen, laid out at the size the export asks for.
class ExportableView {
public:
    virtual ~ExportableView() = default;
    /// The on-screen size in logical pixels (it gives the default aspect ratio).
    virtual QSize exportSize() const = 0;
    /// Draws the view laid out at `target` (logical pixels of the screen, so fonts and pens
    /// keep their screen sizes relative to each other) with `heading` instead of its own title.
    virtual void paintExport(QPainter* painter, const QRectF& target,
                             const ExportHeading& heading) = 0;
    /// The view's title, for file metadata and the default heading.
    virtual QString exportTitle() const = 0;
    /// The start of the default file name (lower case, words joined by hyphens): the one set
    /// with setExportFileStem, else made from the title.
    virtual QString exportFileStem() const;
    void setExportFileStem(const QString& stem) { m_fileStem = stem; }

    /// Sets where the data set and notion of this view come from (see ExportContext).
    void setExportContextSource(std::function<ExportContext()> source) {
        m_contextSource = std::move(source);
    }
    /// The current context (empty when no source was set).
    ExportContext exportContext() const {
        return m_contextSource ? m_contextSource() : ExportContext{};
    }

private:
    std::function<ExportContext()> m_contextSource;
    QString m_fileStem;
};

/// One chart File → Export chart offers. Each panel or chart lists its own (exportEntries()),
/// so the menu names none: its menu text, its default file-name stem, the view, where its data
/// set and notion come from (optional), what to do before the dialog opens (optional: e.g.
/// bring a view up to date that was not shown since the last runs came in), and the dialog's
/// parent (null: the window).
struct ChartExportEntry {
    QString name;
    ExportableView* view = nullptr;
    QString stem;
    std::function<ExportContext()> context;
    std::function<void()> prepare;
    QWidget* dialogParent = nullptr;
};

/// Widgets that hold an exported chart and draw interactive decorations on it (a selection
/// ring, hover state) implement this; the export hides them while it paints.
class ExportDecorations {
public:
    virtual ~ExportDecorations() = default;
    /// `exporting` true: hide the decorations; false: show them again as before.
    virtual void setExportMode(bool exporting) = 0;
};

/// Unit of the sizes in the export dialog and of the SVG's width and height.
enum class LengthUnit { Inch, Centimetre };

/// How a figure is exported: its printed size and font size, whatever the window looks like.
struct ExportOptions {
    ExportFormat format = ExportFormat::Pdf;
    /// Printed size in inches.
    QSizeF sizeInches{3.3, 2.4};
    /// The unit the user chose (the SVG states its width and height in it).
    LengthUnit unit = LengthUnit::Inch;
    /// Size of the tick labels, the legend and the charts' axis titles in points when printed
    /// at `sizeInches`; the title and caption keep their on-screen proportions to it.
    double fontPoints = 8.0;
    /// PNG only: pixels per inch (the PNG is sizeInches × dpi pixels).
    int dpi = 300;
    bool showTitle = true;
    /// Shows the context's caption (data set and notion) under the title.
    bool showCaption = true;
};

/// Point size of the on-screen tick and legend labels (chart_style::labelFont()).
double screenLabelPoints();

/// The format implied by a file name's extension (.png, .svg, .pdf); false if none matches.
bool exportFormatForPath(const QString& path, ExportFormat* format);
/// ".png", ".svg" or ".pdf".
QString exportSuffix(ExportFormat format);

/// The default file name (without folder or extension): the view's stem and its context's
/// suffix, e.g. "tradeoff-curves-adult-dp"; never ends in a hyphen.
QString defaultExportFileName(const ExportableView* view);

/// Turns `text` into a file-name part: lower case ASCII letters and digits joined by single
/// hyphens, no hyphen at either end ("ε" becomes "epsilon", "λ" "lambda").
QString fileNameSlug(const QString& text);

/// Paints `view` as the figure described by `options` on a device of `deviceSize` units
/// (the whole figure, white background). The one routine behind PNG, SVG and PDF; the device
/// must report the screen's logical DPI (see exportChart).
void paintFigure(ExportableView* view, QPainter* painter, const QSizeF& deviceSize,
                 const ExportOptions& options);

/// Writes `view` to `path` as described by `options`: PNG of sizeInches × dpi pixels with the
/// DPI stored in the file; SVG whose width and height are in inches and whose user unit is the
/// point; PDF whose page is the figure, without margins. Returns false and fills `error` on
/// failure.
bool exportChart(ExportableView* view, const QString& path, const ExportOptions& options,
                 QString* error);

/// The figure as on screen: the on-screen size at 96 per inch and the screen fonts, `dpi` for
/// PNG (scripts and tests that want the window's look).
bool exportChart(ExportableView* view, const QString& path, ExportFormat format, int dpi,
                 QString* error);

/// Opens the export dialog (size, font, format, file) for `view` and exports it; errors are
/// shown in a message box. Used by every view's context menu and File → Export chart.
void exportWithDialog(ExportableView* view, QWidget* parent);

/// Lays `chart`'s view out at `target`'s size with `heading` and legend glyphs that match the
/// series, hides interactive decorations, renders it and puts everything back (ChartView's
/// paintExport).
class ChartView;
void paintChartForExport(ChartView* view, QPainter* painter, const QRectF& target,
                         const ExportHeading& heading);

}  // namespace pfa::ui
