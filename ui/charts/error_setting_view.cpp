#include "ui/charts/error_setting_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/util/format.h"
#include "ui/charts/category_ticks.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/series_legend.h"
#include "ui/charts/sweep_final_metrics.h"
#include "ui/charts/whisker_item.h"

namespace pfa::ui {

namespace {

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

}  // namespace

ErrorSettingView::ErrorSettingView(QWidget* parent) : QWidget(parent) {
    m_axisBox = new QComboBox();
    m_axisBox->setToolTip(
        tr("The setting on the x axis: any number the sweep varies — a training "
           "setting, or a knob of the generated data set (\"data: …\")"));
    m_metricBox = new QComboBox();
    m_metricBox->setToolTip(
        tr("The final value of each run to plot, mean ± standard error over the seeds"));
    m_scaleBox = new QComboBox();
    m_scaleBox->addItem(tr("linear"), static_cast<int>(Scale::Linear));
    m_scaleBox->addItem(tr("log"), static_cast<int>(Scale::Log));
    m_scaleBox->addItem(tr("evenly spaced"), static_cast<int>(Scale::Even));
    m_scaleBox->setToolTip(
        tr("How the x values are spaced: linear, logarithmic (positive values only), or "
           "evenly in grid order (a grid with 0 and values decades apart)"));
    // Two rows, x then y, so that the view fits a narrow dock (1280×720); the boxes show a
    // bounded width of their names (the open list shows them whole).
    for (auto [box, characters] :
         {std::pair{m_axisBox, 10}, std::pair{m_metricBox, 10}, std::pair{m_scaleBox, 6}}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(characters);
    }
    auto* controls = new QGridLayout();
    controls->setContentsMargins(0, 0, 0, 0);
    controls->setHorizontalSpacing(6);
    controls->setVerticalSpacing(2);
    controls->addWidget(new QLabel(tr("x:")), 0, 0);
    controls->addWidget(m_axisBox, 0, 1);
    controls->addWidget(new QLabel(tr("spacing:")), 0, 2);
    controls->addWidget(m_scaleBox, 0, 3);
    m_logYBox = new QCheckBox(tr("log y"));
    m_logYBox->setToolTip(
        tr("A logarithmic y axis, for values that span decades (automatic until you choose); "
           "whiskers are then ± one standard error mapped through the logarithm"));
    controls->addWidget(new QLabel(tr("y:")), 1, 0);
    controls->addWidget(m_metricBox, 1, 1);
    controls->addWidget(m_logYBox, 1, 2, 1, 2);
    controls->setColumnStretch(1, 1);
    controls->setColumnStretch(4, 1);

    m_chart = new QChart();
    chart_style::apply(m_chart);
    // Wraps under the plot with every name in full; a click hides or shows a line.
    m_legend = new SeriesLegend(m_chart);
    m_x = new QCategoryAxis();
    m_y = new QValueAxis();
    m_yLog = new QCategoryAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, QString());
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, QString());
    chart_style::addAxis(m_chart, m_yLog, Qt::AlignLeft, QString());
    m_yLog->setVisible(false);
    m_view = new ChartView(m_chart, this);
    m_view->setEmptyMessage(
        tr("Needs finished runs of a sweep over a numeric setting "
           "(e.g. public-share, clip-norm, restart-period) or a data knob"));
    m_note = new QLabel();
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setStyleSheet(QStringLiteral("color: #555555"));
    m_note->setToolTip(
        tr("Dashed: the theory's rate evaluated at each point's own settings (ε, sizes, the "
           "swept setting), times one constant c fitted by least squares to the means. "
           "Constants and logarithmic factors of the analysis are unknown."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_note);
    connect(m_axisBox, &QComboBox::currentIndexChanged, this, [this] {
        m_scaleChosen = false;
        redraw();
    });
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    connect(m_scaleBox, &QComboBox::activated, this, [this] {
        m_scaleChosen = true;
        redraw();
    });
    connect(m_logYBox, &QCheckBox::clicked, this, [this] {
        m_logYChosen = true;
        redraw();
    });
}

QString ErrorSettingView::currentAxis() const { return m_axisBox->currentText(); }

bool ErrorSettingView::selectAxis(const QString& label) {
    const int index = m_axisBox->findText(label);
    if (index < 0) return false;
    m_axisBox->setCurrentIndex(index);
    return true;
}

QStringList ErrorSettingView::metrics() const {
    QStringList list;
    for (int i = 0; i < m_metricBox->count(); ++i) list << m_metricBox->itemData(i).toString();
    return list;
}

bool ErrorSettingView::selectMetric(const QString& metric) {
    const int index = m_metricBox->findData(metric);
    if (index < 0) return false;
    m_metricBox->setCurrentIndex(index);
    return true;
}

ErrorSettingView::Scale ErrorSettingView::scale() const {
    return static_cast<Scale>(m_scaleBox->currentData().toInt());
}

void ErrorSettingView::setScale(Scale scale) {
    m_scaleBox->setCurrentIndex(m_scaleBox->findData(static_cast<int>(scale)));
    m_scaleChosen = true;
    redraw();
}

bool ErrorSettingView::logY() const { return m_logYBox->isChecked(); }

void ErrorSettingView::setLogY(bool on) {
    m_logYBox->setChecked(on);
    m_logYChosen = true;
    redraw();
}

QStringList ErrorSettingView::legendNames() const { return m_legend->names(); }

QString ErrorSettingView::xTitle() const { return m_x->titleText(); }
QString ErrorSettingView::yTitle() const {
    return (m_yLog->isVisible() ? m_yLog : static_cast<QAbstractAxis*>(m_y))->titleText();
}
QString ErrorSettingView::noteText() const { return m_note->text(); }

void ErrorSettingView::setCells(const std::vector<pfa::SweepCell>& cells,
                                const std::vector<std::optional<pfa::RateShape>>& rates) {
    m_cells = cells;
    m_rates = rates;
    m_rates.resize(m_cells.size());
    fillBoxes();
    redraw();
}

void ErrorSettingView::fillBoxes() {
    // Keep what the user picked when it is still on offer (the views refresh as runs stream in).
    const QString axis = m_axisBox->currentText();
    const QString metric = m_metricBox->currentData().toString();
    const QSignalBlocker blockAxis(m_axisBox), blockMetric(m_metricBox);
    m_axes = pfa::settingAxesOf(m_cells);
    m_axisBox->clear();
    for (const pfa::SettingAxis& a : m_axes) m_axisBox->addItem(QString::fromStdString(a.label()));
    if (const int index = m_axisBox->findText(axis); index >= 0) m_axisBox->setCurrentIndex(index);

    m_metricBox->clear();
    for (const QString& name : sweep_final_metrics::offered(m_cells))
        m_metricBox->addItem(sweep_final_metrics::label(name), name);
    if (const int index = m_metricBox->findData(metric); index >= 0)
        m_metricBox->setCurrentIndex(index);
}

void ErrorSettingView::redraw() {
    delete m_whiskers;
    m_whiskers = nullptr;
    for (QAbstractSeries* series : m_chart->series()) {
        m_chart->removeSeries(series);
        delete series;
    }
    m_lines.clear();
    const int axisIndex = m_axisBox->currentIndex();
    if (axisIndex < 0 || axisIndex >= static_cast<int>(m_axes.size())) {
        m_chart->setTitle(QString());
        m_note->setVisible(false);
        m_view->setEmpty(true);
        m_legend->refresh();
        return;
    }
    const pfa::SettingAxis& axis = m_axes[static_cast<std::size_t>(axisIndex)];
    // A method traced by its own setting (post-processing's γ: fifty values) is one line of its
    // best point per x, not a line per value (unless that setting is the axis).
    std::vector<std::size_t> sources;
    const std::vector<pfa::SweepCell> cells =
        pfa::bestPointPerCurve(m_cells, nullptr, axis.name, &sources);
    std::vector<std::optional<pfa::RateShape>> rates;
    for (std::size_t source : sources) rates.push_back(m_rates[source]);
    const QString metric = m_metricBox->currentData().toString();
    const std::string metricKey = metric.toStdString();

    // The value a cell shows: the auto quantity is excess risk when the whole line has one.
    auto valueOf = [&](const pfa::SweepCell& cell, bool excess) {
        return sweep_final_metrics::valueOf(cell, metric, excess);
    };

    // The swept values, placed along x on the scale chosen (automatic until the user picks).
    const std::set<double> xs = setting_scale::sweptValues(cells, axis);
    if (!m_scaleChosen)
        m_scaleBox->setCurrentIndex(
            m_scaleBox->findData(static_cast<int>(setting_scale::automatic(xs))));
    const Scale mode = scale();
    const std::map<double, double> position = setting_scale::positions(xs, mode);
    // Ticks at the swept values (a sweep has a handful).
    const auto [xLow, xHigh] = category_ticks::setValueTicks(m_x, position);
    const QString spacing = mode == Scale::Log    ? tr(" (log scale)")
                            : mode == Scale::Even ? tr(" (grid order)")
                                                  : QString();
    m_x->setTitleText(QString::fromStdString(axis.label()) + spacing);

    // The lines and their points first: whether y goes on a log scale depends on all of them.
    struct PlannedLine {
        const pfa::SweepGroup* group;
        bool excess;
        std::vector<std::pair<double, std::size_t>> points;  // (x, cell), by x
    };
    const std::vector<pfa::SweepGroup> groups = pfa::groupAlongAxis(cells, axis);
    std::vector<PlannedLine> planned, levels;
    int skippedNonPositive = 0;
    double lowestValue = INFINITY, highestValue = -INFINITY;
    for (const pfa::SweepGroup& group : groups) {
        const bool excess = metric.isEmpty() &&
                            std::all_of(group.cells.begin(), group.cells.end(),
                                        [&](std::size_t c) { return cells[c].excessRisk.n > 0; });
        PlannedLine line{&group, excess, {}};
        for (std::size_t c : group.cells) {
            const auto x = pfa::axisValue(cells[c], axis);
            const pfa::MeanSd* s = valueOf(cells[c], excess);
            if (!x || !s || s->n == 0 || !std::isfinite(s->mean)) continue;
            if (!position.count(*x)) {
                ++skippedNonPositive;
                continue;
            }
            line.points.emplace_back(*x, c);
            lowestValue = std::min(lowestValue, s->mean);
            highestValue = std::max(highestValue, s->mean);
        }
        if (line.points.empty()) {
            // Runs of an algorithm that does not read the setting (a baseline without public
            // rows, say): one level across the plot, dotted, instead of nothing.
            if (group.cells.size() == 1 && !pfa::axisValue(cells[group.cells.front()], axis)) {
                const pfa::MeanSd* s = valueOf(cells[group.cells.front()], excess);
                if (s && s->n > 0 && std::isfinite(s->mean)) {
                    levels.push_back({&group, excess, {{NAN, group.cells.front()}}});
                    lowestValue = std::min(lowestValue, s->mean);
                    highestValue = std::max(highestValue, s->mean);
                }
            }
            continue;
        }
        std::sort(line.points.begin(), line.points.end());
        planned.push_back(std::move(line));
    }
    if (!m_logYChosen) {
        const QSignalBlocker block(m_logYBox);
        m_logYBox->setChecked(lowestValue > 0.0 && highestValue / lowestValue >= 100.0);
    }
    const bool logScaleY = logY();
    QAbstractAxis* yAxis = logScaleY ? static_cast<QAbstractAxis*>(m_yLog) : m_y;
    m_y->setVisible(!logScaleY);
    m_yLog->setVisible(logScaleY);
    // Only the y axis in use is in the chart: a hidden one still took its share of the room
    // left of the plot, and in a one-column export the shown axis's labels were cut to "…".
    QAbstractAxis* unused = logScaleY ? static_cast<QAbstractAxis*>(m_y) : m_yLog;
    if (m_chart->axes().contains(unused)) {
        m_chart->removeAxis(unused);
        unused->setParent(this);  // removeAxis hands it back; kept for a later switch
    }
    if (!m_chart->axes().contains(yAxis)) m_chart->addAxis(yAxis, Qt::AlignLeft);
    // On a log scale values ≤ 0 have no place: counted under the chart, not drawn.
    auto yOf = [&](double value) { return logScaleY ? std::log10(value) : value; };
    auto drawable = [&](double value) {
        return std::isfinite(value) && (!logScaleY || value > 0.0);
    };

    std::vector<WhiskerItem::Whisker> whiskers;
    double yMin = INFINITY, yMax = -INFINITY;
    bool anyExcess = false, anyError = false;
    QAbstractSeries* anySeries = nullptr;
    QStringList notes;
    int skippedY = 0;
    int index = 0;
    for (const PlannedLine& plan : planned) {
        const pfa::SweepGroup& group = *plan.group;
        const bool excess = plan.excess;
        std::vector<std::pair<double, std::size_t>> points;
        for (const auto& point : plan.points) {
            if (drawable(valueOf(cells[point.second], excess)->mean)) {
                points.push_back(point);
            } else {
                ++skippedY;
            }
        }
        if (points.empty()) continue;
        if (metric.isEmpty()) (excess ? anyExcess : anyError) = true;
        const QColor color = compare_palette::color(index++);
        const pfa::SweepCell& first = cells[points.front().second];
        std::string name = first.algorithm;
        if (!group.distinction.empty()) name += " (" + group.distinction + ")";
        Line line;
        line.name = QString::fromStdString(name);
        line.points = static_cast<int>(points.size());
        auto* measured = new QLineSeries();
        measured->setName(line.name.toHtmlEscaped());
        measured->setPen(QPen(color, 2.2));
        auto* dots = new QScatterSeries();
        dots->setColor(color);
        dots->setBorderColor(color);
        dots->setMarkerSize(9);
        std::vector<double> means, rateValues;
        const pfa::RateShape* rate = nullptr;
        for (const auto& [x, c] : points) {
            const pfa::MeanSd& s = *valueOf(cells[c], excess);
            const double at = position.at(x);
            const double y = yOf(s.mean);
            // ± one standard error; on a log scale through the logarithm's slope (delta method).
            const double dy =
                logScaleY ? s.standardError() / (s.mean * std::log(10.0)) : s.standardError();
            measured->append(at, y);
            dots->append(at, y);
            whiskers.push_back({at, y, 0.0, dy, color, measured});
            yMax = std::max(yMax, y + dy);
            yMin = std::min(yMin, y - dy);
            means.push_back(s.mean);
            // The rate of this point's own settings, when it bounds the plotted quantity.
            const std::optional<pfa::RateShape>& shape = rates[c];
            const bool matches =
                shape && shape->f &&
                (shape->metric == metricKey || (metric.isEmpty() && shape->metric.empty()));
            if (matches && !rate) rate = &*shape;
            rateValues.push_back(matches ? shape->f(cells[c].shownEpsilon()) : NAN);
        }
        attach(m_chart, measured, m_x, yAxis);
        attach(m_chart, dots, m_x, yAxis);
        SeriesLegend::tie(measured, dots);
        anySeries = measured;
        if (rate && points.size() >= 2) {
            if (const auto c = pfa::fitScale(means, rateValues)) {
                line.overlay = true;
                line.c = *c;
                auto* overlay = new QLineSeries();
                overlay->setName(tr("rate (constants unknown, 1 fitted: c = %1)")
                                     .arg(QString::fromStdString(pfa::formatNumber(*c, 3))));
                QPen pen(color, 1.8, Qt::DashLine);
                pen.setDashPattern({5.0, 3.0});
                overlay->setPen(pen);
                for (std::size_t i = 0; i < points.size(); ++i) {
                    const double value = *c * rateValues[i];
                    if (!drawable(value)) continue;
                    overlay->append(position.at(points[i].first), yOf(value));
                    yMax = std::max(yMax, yOf(value));
                    yMin = std::min(yMin, yOf(value));
                }
                attach(m_chart, overlay, m_x, yAxis);
                notes << tr("%1: rate %2 at each point's settings.")
                             .arg(line.name, QString::fromStdString(rate->label));
            } else {
                notes << tr("%1: the measured points do not follow the rate %2 (no positive c).")
                             .arg(line.name, QString::fromStdString(rate->label));
            }
        }
        m_lines.push_back(line);
    }
    for (const PlannedLine& level : levels) {
        const pfa::SweepCell& cell = cells[level.points.front().second];
        const double value = valueOf(cell, level.excess)->mean;
        if (!drawable(value)) {
            ++skippedY;
            continue;
        }
        const QColor color = compare_palette::color(index++);
        std::string name = cell.algorithm;
        if (!level.group->distinction.empty()) name += " (" + level.group->distinction + ")";
        auto* flat = new QLineSeries();
        flat->setName(tr("%1 (does not read %2)")
                          .arg(QString::fromStdString(name), QString::fromStdString(axis.label()))
                          .toHtmlEscaped());
        flat->setPen(QPen(color, 2.0, Qt::DotLine));
        flat->append(xLow, yOf(value));
        flat->append(xHigh, yOf(value));
        yMax = std::max(yMax, yOf(value));
        yMin = std::min(yMin, yOf(value));
        attach(m_chart, flat, m_x, yAxis);
        anySeries = anySeries ? anySeries : flat;
        if (metric.isEmpty()) (level.excess ? anyExcess : anyError) = true;
        Line line;
        line.name = QString::fromStdString(name);
        line.points = 0;  // a level, not a line over the setting
        m_lines.push_back(line);
    }
    if (skippedNonPositive > 0) {
        notes << tr("%1 point(s) at x ≤ 0 or x = ∞ are not drawn on this scale (choose \"evenly "
                    "spaced\").")
                     .arg(skippedNonPositive);
    }
    if (skippedY > 0)
        notes << tr("%1 point(s) with a value ≤ 0 are not drawn on the log y scale.").arg(skippedY);
    QString quantity = metric.isEmpty() ? (anyExcess && anyError ? tr("test error / excess risk")
                                           : anyExcess           ? tr("excess risk")
                                                                 : tr("test error"))
                                        : sweep_final_metrics::label(metric);
    m_y->setTitleText(quantity);
    m_yLog->setTitleText(quantity + tr(" (log scale)"));
    QString title = quantity + tr(" vs ") + QString::fromStdString(axis.label());
    title[0] = title[0].toUpper();
    m_chart->setTitle(title + tr("<br>(mean ± standard error over seeds)"));
    if (!std::isfinite(yMin)) yMin = 0.0, yMax = 1.0;
    if (logScaleY) {
        // Labels at the powers of ten (and 2×, 5× when few decades show).
        category_ticks::setDecadeTicks(m_yLog, yMin, yMax);
    } else {
        const double span = std::max(yMax - yMin, 0.01 * std::max(std::abs(yMax), 1e-3));
        const double floor = yMin >= 0.0 ? std::max(0.0, yMin - 0.08 * span) : yMin - 0.08 * span;
        chart_style::setNiceRange(m_y, floor, yMax + 0.08 * span, 5);
    }
    if (anySeries) {
        m_whiskers = new WhiskerItem(m_chart, anySeries);
        m_whiskers->setWhiskers(std::move(whiskers));
    }
    constexpr int kNoteLines = 3;
    QStringList shown = notes.mid(0, kNoteLines);
    if (notes.size() > kNoteLines)
        shown.back() += tr(" (%1 more: hover here)").arg(notes.size() - kNoteLines);
    m_note->setText(shown.join(QLatin1Char('\n')));
    m_note->setVisible(!notes.isEmpty());
    m_view->setEmpty(m_lines.empty());
    m_legend->refresh();
}

}  // namespace pfa::ui
