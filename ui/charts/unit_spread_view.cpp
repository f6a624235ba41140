#include "ui/charts/unit_spread_view.h"

#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBoxPlotSeries>
#include <QtCharts/QBoxSet>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/report/group_bootstrap.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/series_legend.h"

namespace pfa::ui {

UnitSpreadView::UnitSpreadView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart();
    chart_style::apply(m_chart);
    m_legend = new SeriesLegend(m_chart);
    m_chart->setTitle(titleFor(QString()));
    m_x = new QBarCategoryAxis();
    m_y = new QValueAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, QString());
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, tr("test error"));
    m_view = new ChartView(m_chart, this);
    m_view->setToolTip(
        tr("One box per line of runs: the box spans the middle half of the units' test errors, "
           "the bar inside is the median, the whiskers reach the best and the worst unit."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

QString UnitSpreadView::titleFor(const QString& unitKind) {
    if (unitKind == QLatin1String("silo")) return tr("Test error per silo");
    if (unitKind == QLatin1String("user")) return tr("Test error per user");
    return tr("Test error per unit");
}

bool UnitSpreadView::isEmpty() const { return m_view->isEmpty(); }
QString UnitSpreadView::emptyReason() const { return m_emptyReason; }

std::array<double, 5> UnitSpreadView::fiveNumbers(std::vector<double> values) {
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
        values.end());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (values.empty()) return {nan, nan, nan, nan, nan};
    std::sort(values.begin(), values.end());
    const double q1 = report::quantile(values, 0.25), median = report::quantile(values, 0.5),
                 q3 = report::quantile(values, 0.75);
    return {values.front(), q1, median, q3, values.back()};
}

void UnitSpreadView::setSeries(const QString& unitKind, const QStringList& categories,
                               const std::vector<Series>& series, const QString& emptyReason) {
    for (QAbstractSeries* old : m_chart->series()) {
        m_chart->removeSeries(old);
        delete old;
    }
    m_boxes = 0;
    double yMax = 0.0;
    for (const Series& s : series) {
        auto* boxes = new QBoxPlotSeries();
        boxes->setName(s.name.toHtmlEscaped());
        QColor fill = s.color;
        fill.setAlphaF(0.35f);
        boxes->setBrush(fill);
        boxes->setPen(QPen(s.color.darker(130), 1.6));
        boxes->setBoxWidth(0.6);
        for (int c = 0; c < categories.size(); ++c) {
            const std::vector<double> none;
            const auto& values = static_cast<std::size_t>(c) < s.values.size() ? s.values[c] : none;
            const std::array<double, 5> five = fiveNumbers(values);
            auto* set = new QBoxSet(categories[c]);
            if (std::isfinite(five[2])) {
                for (int v = 0; v < 5; ++v) set->setValue(v, five[static_cast<std::size_t>(v)]);
                yMax = std::max(yMax, five[4]);
                ++m_boxes;
            } else {
                // A category without units keeps an empty place (QBoxSet places boxes by
                // index). A set left at its zero values would draw a flat box at 0 that no
                // unit has; NaN values draw nothing.
                const double nan = std::numeric_limits<double>::quiet_NaN();
                for (int v = 0; v < 5; ++v) set->setValue(v, nan);
            }
            boxes->append(set);
        }
        m_chart->addSeries(boxes);
        boxes->attachAxis(m_x);
        boxes->attachAxis(m_y);
    }
    m_x->setCategories(categories);
    // One series needs no legend: the axis names its category.
    for (QAbstractSeries* shown : m_chart->series())
        SeriesLegend::leaveOut(shown, series.size() <= 1);
    m_legend->refresh();
    m_chart->setTitle(titleFor(unitKind));
    chart_style::setNiceRange(m_y, 0.0, std::max(0.01, yMax * 1.08), 4);
    // Without a box the axes would only show what an earlier sweep left on them.
    m_x->setVisible(m_boxes > 0);
    m_y->setVisible(m_boxes > 0);
    m_emptyReason = m_boxes == 0 ? emptyReason : QString();
    m_view->setEmptyMessage(emptyReason);
    m_view->setEmpty(m_boxes == 0);
}

void UnitSpreadView::showRun(const pfa::RunResult& result, const QString& label) {
    std::vector<double> errors;
    for (const pfa::UnitMetrics& unit : result.units) errors.push_back(unit.testError);
    const QString kind = QString::fromStdString(result.unitKind);
    const QString category =
        kind == QLatin1String("user")   ? tr("%1 (%2 users)").arg(label).arg(errors.size())
        : kind == QLatin1String("silo") ? tr("%1 (%2 silos)").arg(label).arg(errors.size())
                                        : label;
    setSeries(kind, {category}, {{label, compare_palette::color(0), {errors}}},
              tr("No per-unit results: this run's data is not split into silos or users."));
}

}  // namespace pfa::ui
