#pragma once

#include <QStringList>
#include <QWidget>
#include <array>
#include <vector>

#include "core/sweep/sweep_summary.h"

class QChart;
class QCategoryAxis;
class QValueAxis;

namespace pfa::ui {

class ChartView;
class SeriesLegend;
class WhiskerItem;

/// Sweep view (b), the price of privacy: at one fixed λ, test error against ε and fairness
/// violation against ε (logarithmic ε axis), one line per algorithm with ± one standard
/// deviation whiskers; runs that differ in settings other than ε and the seed form lines of
/// their own, named by the difference. Runs without privacy (ε = ∞) are a dashed horizontal
/// reference line.
class PrivacyPriceView : public QWidget {
    Q_OBJECT
public:
    explicit PrivacyPriceView(QWidget* parent = nullptr);

    /// Shows the cells with λ == `lambda`.
    void setCells(const std::vector<pfa::SweepCell>& cells, double lambda, const QString& notion);

    int pointCount() const { return m_points; }
    /// The legend names of the lines over ε, in order (tests).
    QStringList lineNames() const { return m_lineNames; }
    ChartView* errorView() const { return m_views[0]; }
    ChartView* violationView() const { return m_views[1]; }

    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    std::array<ChartView*, 2> m_views{};
    std::array<QChart*, 2> m_charts{};
    std::array<SeriesLegend*, 2> m_legends{};
    std::array<QCategoryAxis*, 2> m_x{};
    std::array<QValueAxis*, 2> m_y{};
    std::array<WhiskerItem*, 2> m_whiskers{};
    int m_points = 0;
    std::vector<pfa::SweepCell> m_cells;  ///< the cells shown (at the chosen λ)
    QStringList m_lineNames;
};

}  // namespace pfa::ui
