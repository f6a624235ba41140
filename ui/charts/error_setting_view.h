#pragma once

#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_summary.h"
#include "core/sweep/theory_rates.h"
#include "ui/charts/setting_scale.h"

class QChart;
class QCategoryAxis;
class QCheckBox;
class QComboBox;
class QLabel;
class QValueAxis;

namespace pfa::ui {

class ChartView;
class SeriesLegend;
class WhiskerItem;

/// Sweep view: a final metric of the runs against any numeric setting the sweep varies — a
/// training setting (public-share, clip-norm, restart-period, λ, …) or a knob of a generated data
/// set (its tail index, its rows) — one line per algorithm and variant (pfa::groupAlongAxis),
/// mean over the seeds with ± one standard error whiskers. The y quantity is the test error
/// (excess risk where every run of a line reports one), the fairness violation, or any metric
/// the runs recorded in their history (train loss, clip fraction, squared gradient norm, …).
/// Where a line's runs have a theory rate for that quantity, its value at each point's own
/// settings, times one constant fitted by least squares, is drawn dashed in the line's colour:
/// the rate's dependence on the swept setting, constants unknown.
class ErrorSettingView : public QWidget {
    Q_OBJECT
public:
    using Scale = SettingScale;

    explicit ErrorSettingView(QWidget* parent = nullptr);

    /// Shows `cells`; `rates[i]` is the rate shape of cell i's runs (none: no overlay).
    void setCells(const std::vector<pfa::SweepCell>& cells,
                  const std::vector<std::optional<pfa::RateShape>>& rates);

    /// The axes offered (in the x box), the selected one, and selecting by label.
    std::vector<pfa::SettingAxis> axes() const { return m_axes; }
    QString currentAxis() const;
    bool selectAxis(const QString& label);
    /// The metrics offered (their record names; "" = test error or excess risk) and selecting one.
    QStringList metrics() const;
    bool selectMetric(const QString& metric);
    Scale scale() const;
    void setScale(Scale scale);
    /// Whether y is on a log scale (automatic while the user has not chosen: when every value
    /// drawn is positive and they span two decades or more).
    bool logY() const;
    void setLogY(bool on);

    /// One measured line, for tests.
    struct Line {
        QString name;
        int points = 0;
        bool overlay = false;
        double c = 0.0;
    };
    const std::vector<Line>& lines() const { return m_lines; }
    QStringList legendNames() const;
    QString xTitle() const;
    QString yTitle() const;
    QString noteText() const;
    ChartView* view() const { return m_view; }
    QChart* chart() const { return m_chart; }

private:
    void redraw();
    void fillBoxes();

    std::vector<pfa::SweepCell> m_cells;
    std::vector<std::optional<pfa::RateShape>> m_rates;
    std::vector<pfa::SettingAxis> m_axes;
    QComboBox* m_axisBox = nullptr;
    QComboBox* m_metricBox = nullptr;
    QComboBox* m_scaleBox = nullptr;
    bool m_scaleChosen = false;
    QCheckBox* m_logYBox = nullptr;
    bool m_logYChosen = false;
    QCategoryAxis* m_yLog = nullptr;
    ChartView* m_view = nullptr;
    QChart* m_chart = nullptr;
    SeriesLegend* m_legend = nullptr;
    QCategoryAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    WhiskerItem* m_whiskers = nullptr;
    QLabel* m_note = nullptr;
    std::vector<Line> m_lines;
};

}  // namespace pfa::ui
