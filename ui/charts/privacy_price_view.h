#pragma once

#include <QWidget>
#include <array>
#include <vector>

#include "core/sweep/sweep_summary.h"

class QChart;
class QCategoryAxis;
class QValueAxis;

namespace pfa::ui {

class ChartView;
class WhiskerItem;

/// Sweep view (b), the price of privacy: at one fixed λ, test error against ε and fairness
/// violation against ε (logarithmic ε axis), one line per algorithm with ± one standard
/// deviation whiskers. Runs without privacy (ε = ∞) are a dashed horizontal reference line.
class PrivacyPriceView : public QWidget {
    Q_OBJECT
public:
    explicit PrivacyPriceView(QWidget* parent = nullptr);

    /// Shows the cells with λ == `lambda`.
    void setCells(const std::vector<pfa::SweepCell>& cells, double lambda, const QString& notion);

    int pointCount() const { return m_points; }
    ChartView* errorView() const { return m_views[0]; }
    ChartView* violationView() const { return m_views[1]; }

private:
    std::array<ChartView*, 2> m_views{};
    std::array<QChart*, 2> m_charts{};
    std::array<QCategoryAxis*, 2> m_x{};
    std::array<QValueAxis*, 2> m_y{};
    std::array<WhiskerItem*, 2> m_whiskers{};
    int m_points = 0;
};

}  // namespace pfa::ui
