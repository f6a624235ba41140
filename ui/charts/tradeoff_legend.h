#pragma once

#include <QObject>
#include <QPen>
#include <QString>
#include <QtCharts/QScatterSeries>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/config/train_config.h"
#include "ui/support/palette.h"

class QChart;

namespace pfa::ui {

class ChartLegend;
class EpsilonColorBar;
class TradeoffProtections;

/// The legend and the ε colour bar of the tradeoff chart, drawn in the chart's scene (so every
/// export has them): the legend wraps its entries in rows under the plot, the bar stands right
/// of it, and the chart's margins keep room for both.
class TradeoffLegend : public QObject {
    Q_OBJECT
public:
    /// What the legend names.
    struct Contents {
        /// The algorithms of the points (trail excluded), each with the index of its protection
        /// when the chart mixes protections (−1: not private), else −2.
        std::set<std::pair<std::string, int>> algorithms;
        /// The marker of each name in `algorithms` when it is not the algorithm's own (runs
        /// that differ in an own setting, e.g. "isrl-dp-sgd (trust = local)").
        std::map<std::string, QScatterSeries::MarkerShape> shapes;
        /// Names in `algorithms` whose points a legend click hid: drawn faded.
        std::set<std::string> hidden;
        int curves = 0;      ///< runs drawn with their own curve
        bool front = false;  ///< a Pareto front of two points or more is drawn
        int trail = 0;       ///< runs on the live-mode trail
        /// The running run's settings and ring, when its point is drawn (else null).
        const pfa::TrainConfig* live = nullptr;
        QPen livePen;
        /// The constant classifier's entry ("always “≤50K”: error 0.248, violation 0"), empty
        /// when none is drawn, and its line.
        QString constant;
        QPen constantPen;
        /// The colours of the budgets drawn (a ranked palette turns the bar into swatches).
        chart_style::EpsilonPalette palette;
        /// The budgets drawn (any order, repeats allowed), marked beside the colour bar.
        std::vector<double> epsilons;
    };

    explicit TradeoffLegend(QChart* chart, QObject* parent = nullptr);

    /// Shows `contents` (`protections` names the kinds) and lays the chart out again.
    void show(const Contents& contents, const TradeoffProtections& protections);
    /// Places the legend and colour bar and reserves their room in the chart's margins.
    void layout();

    const ChartLegend* legend() const { return m_legend; }
    const EpsilonColorBar* colorBar() const { return m_colorBar; }

signals:
    /// A click on an algorithm's entry (its name as in Contents::algorithms).
    void algorithmClicked(const QString& name);

private:
    QChart* m_chart;
    ChartLegend* m_legend;
    std::vector<QString> m_entryAlgorithm;  ///< per entry: the algorithm it names, or empty
    EpsilonColorBar* m_colorBar;
    bool m_layingOut = false;
};

}  // namespace pfa::ui
