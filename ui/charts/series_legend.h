#pragma once

#include <QObject>
#include <QStringList>
#include <set>
#include <vector>

class QChart;
class QAbstractSeries;
class QValueAxis;

namespace pfa::ui {

class ChartLegend;

/// The legend of a chart's series, drawn in the chart's scene under the plot in place of Qt's:
/// its entries wrap onto rows and keep every label in full at any width (a one-column export
/// too, where Qt's legend drops the labels). A click on an entry hides its series, and the
/// series tied to it, or shows them again; the value axes then fit what is shown, optionally
/// ignoring outlying points. Views call refresh() whenever they have rebuilt their series.
class SeriesLegend : public QObject {
    Q_OBJECT
public:
    /// Takes the place of `chart`'s legend; a child of the chart.
    explicit SeriesLegend(QChart* chart);

    /// `follower` is hidden and shown with `owner` and has no entry of its own (e.g. the line
    /// through a curve's markers, or its ε = ∞ level).
    static void tie(QAbstractSeries* owner, QAbstractSeries* follower);
    /// `series` has no entry (e.g. the mean dots under a line); `leftOut` false gives it one
    /// again.
    static void leaveOut(QAbstractSeries* series, bool leftOut = true);
    /// False when `series` or the series it is tied to is hidden from the legend (decorations
    /// such as whiskers and point labels of a hidden series are not drawn).
    static bool isShown(const QAbstractSeries* series);

    /// Rebuilds the entries from the chart's series, hides again what was hidden (entries are
    /// known by their label) and fits the axes. Call after the view rebuilt its series, which
    /// also set the axes' ranges for everything (restored when everything is shown again).
    void refresh();
    /// Hides or shows the series of entry `index` (what a click does).
    void toggle(int index);
    /// Shows every series again.
    void showAll();
    /// Whether the value axes leave out points beyond Tukey's fences (1.5 interquartile
    /// ranges past the quartiles) of what is shown.
    void setIgnoreOutliers(bool ignore);
    bool ignoresOutliers() const { return m_ignoreOutliers; }

    /// The entries' labels, in order.
    QStringList names() const;
    /// Labels of the entries that are hidden.
    QStringList hiddenNames() const;
    bool anyHidden() const { return !hiddenNames().isEmpty(); }
    const ChartLegend* legend() const { return m_legend; }

    /// The SeriesLegend of `chart`, or null.
    static SeriesLegend* of(const QChart* chart);

private:
    /// Places the legend under the plot and reserves its room in the chart's margins.
    void layout();
    void apply();
    void fitAxes();
    /// An entry's key: its label and how many entries before it have the same label.
    QString keyOf(int index) const;

    QChart* m_chart;
    ChartLegend* m_legend;
    std::vector<QAbstractSeries*> m_series;  ///< one per entry
    QStringList m_names;
    std::set<QString> m_hidden;  ///< keys (keyOf) of hidden entries
    bool m_ignoreOutliers = false;
    struct ViewRange {
        QValueAxis* axis;
        double min, max, interval, anchor;
        QString format;
    };
    std::vector<ViewRange> m_viewRanges;  ///< the ranges the view set, for everything shown
    bool m_layingOut = false;
};

}  // namespace pfa::ui
