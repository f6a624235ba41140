#include "ui/charts/error_epsilon_view.h"

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
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/series_legend.h"
#include "ui/charts/whisker_item.h"

namespace pfa::ui {

namespace {

/// Excess risk when every run of the cell reported one, else the test error.
const pfa::MeanSd& valueOf(const pfa::SweepCell& cell, bool excess) {
    return excess ? cell.excessRisk : cell.testError;
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

}  // namespace

ErrorEpsilonView::ErrorEpsilonView(QWidget* parent) : QWidget(parent) {
    m_chart = new QChart();
    chart_style::apply(m_chart);
    // Wraps under the plot with every name in full; a click hides or shows a line.
    m_legend = new SeriesLegend(m_chart);
    m_chart->setTitle(tr("Test error vs ε"));
    m_x = new QCategoryAxis();
    m_y = new QValueAxis();
    chart_style::addAxis(m_chart, m_x, Qt::AlignBottom, tr("ε (log scale)"));
    chart_style::addAxis(m_chart, m_y, Qt::AlignLeft, tr("test error"));
    m_view = new ChartView(m_chart, this);
    m_view->setEmptyMessage(tr("Needs finished runs at one ε or more"));
    m_note = new QLabel();
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setStyleSheet(QStringLiteral("color: #555555"));
    m_note->setToolTip(noteToolTip());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_note);
}

QString ErrorEpsilonView::noteToolTip() {
    return tr(
        "The dashed lines are the shapes of the rates the theory proves, with constants and "
        "logarithmic factors unknown: one constant c per line is fitted by least squares to "
        "the measured means. When the same settings were also run without privacy (ε = ∞, "
        "dotted), only the excess over that level is fitted to the rate's privacy part.");
}

QStringList ErrorEpsilonView::legendNames() const { return m_legend->names(); }

QString ErrorEpsilonView::yTitle() const { return m_y->titleText(); }
QString ErrorEpsilonView::noteText() const { return m_note->text(); }

void ErrorEpsilonView::setCells(const std::vector<pfa::SweepCell>& cells,
                                const std::vector<std::optional<pfa::RateShape>>& rates) {
    // The whisker item maps through a series' axes: it goes before the series do.
    delete m_whiskers;
    m_whiskers = nullptr;
    for (QAbstractSeries* series : m_chart->series()) {
        m_chart->removeSeries(series);
        delete series;
    }
    m_lines.clear();
    std::vector<pfa::SweepCell> measured;
    std::vector<std::size_t> measuredIndex;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].testError.n == 0 && cells[i].excessRisk.n == 0) continue;
        measured.push_back(cells[i]);
        measuredIndex.push_back(i);
    }
    // A method traced by its own setting (post-processing's γ: fifty values) is one line of its
    // best point per ε, not a line per value.
    std::vector<pfa::CurveBest> chosen;
    std::vector<std::size_t> sources;
    const std::vector<pfa::SweepCell> usable =
        pfa::bestPointPerCurve(measured, &chosen, std::string(), &sources);
    std::vector<std::optional<pfa::RateShape>> usableRates;
    for (std::size_t source : sources) {
        const std::size_t i = measuredIndex[source];
        usableRates.push_back(i < rates.size() ? rates[i] : std::nullopt);
    }
    std::set<double> ticks;
    for (const pfa::SweepCell& cell : usable) ticks.insert(cell.shownEpsilon());
    const auto [xLow, xHigh] = chart_style::setLogEpsilonAxis(m_x, ticks);

    std::vector<WhiskerItem::Whisker> whiskers;
    // The y range covers the data, not 0 … max: the differences between trust models are often
    // a few points of error on top of a large non-private level.
    double yMin = INFINITY, yMax = 0.0;
    bool anyError = false, anyExcess = false;
    QAbstractSeries* anySeries = nullptr;
    QStringList notes;
    int index = 0;
    for (const pfa::SweepGroup& group : pfa::groupCells(usable, {"epsilon"}, {"algorithm"})) {
        // Colours by position among the groups, as in the per-unit spread view.
        const QColor color = compare_palette::color(index++);
        const pfa::SweepCell& first = usable[group.cells.front()];
        // A line shows excess risk when every one of its cells has it (runs on data whose
        // optimum is known), else test error: one quantity per line.
        const bool excess = std::all_of(group.cells.begin(), group.cells.end(),
                                        [&](std::size_t c) { return usable[c].excessRisk.n > 0; });
        std::vector<std::size_t> finite;
        const pfa::SweepCell* unlimited = nullptr;
        for (std::size_t c : group.cells) {
            if (valueOf(usable[c], excess).n == 0) continue;
            if (std::isinf(usable[c].shownEpsilon())) {
                unlimited = &usable[c];
            } else {
                finite.push_back(c);
            }
        }
        if (finite.empty() && !unlimited) continue;
        std::sort(finite.begin(), finite.end(), [&](std::size_t a, std::size_t b) {
            return usable[a].shownEpsilon() < usable[b].shownEpsilon();
        });
        (excess ? anyExcess : anyError) = true;
        std::string name =
            first.knownGaps ? first.algorithm + " (published, certified ε)" : first.algorithm;
        if (!group.distinction.empty()) name += " (" + group.distinction + ")";
        // The line of a collapsed curve says so, and the note which value each ε took.
        QStringList picks;
        QString pickedSetting;
        for (std::size_t c : group.cells) {
            for (const pfa::CurveBest& best : chosen) {
                if (best.cell != c) continue;
                pickedSetting = chart_style::curveSettingSymbol(best.setting);
                picks << tr("%1 at %2")
                             .arg(QString::fromStdString(best.value),
                                  chart_style::epsilonLabel(usable[c].shownEpsilon()));
            }
        }
        if (!picks.isEmpty()) name += " (best " + pickedSetting.toStdString() + " per ε)";
        Line line;
        line.name = QString::fromStdString(name);
        line.excessRisk = excess;

        auto* measured = new QLineSeries();
        measured->setName(line.name.toHtmlEscaped());  // rich text in Qt Charts
        measured->setPen(QPen(color, 2.2));
        auto* dots = new QScatterSeries();
        dots->setColor(color);
        dots->setBorderColor(color);
        dots->setMarkerSize(9);
        std::vector<pfa::RatePoint> points;
        for (std::size_t c : finite) {
            const pfa::MeanSd& s = valueOf(usable[c], excess);
            const double x = std::log10(usable[c].shownEpsilon());
            measured->append(x, s.mean);
            dots->append(x, s.mean);
            whiskers.push_back({x, s.mean, 0.0, s.standardError(), color, measured});
            yMax = std::max(yMax, s.mean + s.standardError());
            yMin = std::min(yMin, s.mean - s.standardError());
            points.push_back({usable[c].shownEpsilon(), s.mean});
        }
        line.points = static_cast<int>(finite.size());
        attach(m_chart, measured, m_x, m_y);
        attach(m_chart, dots, m_x, m_y);
        SeriesLegend::tie(measured, dots);
        anySeries = measured;

        // The non-private level of the same settings: dotted (dashed is the theory's).
        std::optional<double> level;
        if (unlimited) {
            level = valueOf(*unlimited, excess).mean;
            auto* flat = new QLineSeries();
            flat->setName(tr("ε = ∞"));
            flat->setPen(QPen(color, 1.6, Qt::DotLine));
            flat->append(xLow, *level);
            flat->append(xHigh, *level);
            yMax = std::max(yMax, *level);
            yMin = std::min(yMin, *level);
            attach(m_chart, flat, m_x, m_y);
        }

        // The theory rate of the line's runs (all cells of a line share their settings but ε).
        // (Only a rate of the plotted quantity: one that bounds another metric, e.g. the squared
        // gradient norm, is drawn by the error-vs-setting view.)
        std::optional<pfa::RateShape> rate = usableRates[group.cells.front()];
        QString otherMetric;
        if (rate && !rate->metric.empty()) {
            otherMetric = QString::fromStdString(rate->metric);
            rate.reset();
        }
        if (rate && !points.empty()) {
            const pfa::RateFit fit = pfa::fitRate(*rate, points, level);
            if (fit.valid) {
                line.overlay = true;
                line.c = fit.c;
                line.overPrivateLevel = level.has_value();
                auto* overlay = new QLineSeries();
                overlay->setName(tr("rate (constants unknown, 1 fitted: c = %1)")
                                     .arg(QString::fromStdString(pfa::formatNumber(fit.c, 3))));
                QPen pen(color, 1.8, Qt::DashLine);
                pen.setDashPattern({5.0, 3.0});
                overlay->setPen(pen);
                for (const auto& [epsilon, value] : fit.curve) {
                    overlay->append(std::log10(epsilon), value);
                    yMax = std::max(yMax, value);
                    yMin = std::min(yMin, value);
                }
                attach(m_chart, overlay, m_x, m_y);
                notes << tr("%1: %2, fitted %3.")
                             .arg(line.name, QString::fromStdString(rate->label),
                                  level ? tr("over the ε = ∞ level") : tr("to the whole rate"));
            } else {
                notes << tr("%1: the measured points do not follow the rate %2 (no positive c).")
                             .arg(line.name, QString::fromStdString(rate->label));
            }
        } else if (!otherMetric.isEmpty()) {
            notes << tr("%1: its theory rate bounds %2 (the Error vs setting view draws it).")
                         .arg(line.name, otherMetric);
        } else if (!rate) {
            notes << tr("%1: no theory rate known for these settings.").arg(line.name);
        }
        if (!picks.isEmpty()) {
            notes << tr("%1: the lowest mean %2 over its %3 values at each ε: %4.")
                         .arg(QString::fromStdString(first.algorithm),
                              excess ? tr("excess risk") : tr("test error"), pickedSetting,
                              picks.join(QStringLiteral(", ")));
        }
        m_lines.push_back(line);
    }
    const QString quantity = anyExcess && anyError ? tr("test error / excess risk")
                             : anyExcess           ? tr("excess risk")
                                                   : tr("test error");
    m_y->setTitleText(quantity);
    QString title = quantity + tr(" vs ε");
    title[0] = title[0].toUpper();
    m_chart->setTitle(title + tr("<br>(mean ± standard error over seeds)"));
    if (!std::isfinite(yMin)) yMin = 0.0;
    const double span = std::max(yMax - yMin, 0.01 * std::max(yMax, 1e-3));
    chart_style::setNiceRange(m_y, std::max(0.0, yMin - 0.08 * span), yMax + 0.08 * span, 5);
    if (anySeries) {
        m_whiskers = new WhiskerItem(m_chart, anySeries);
        m_whiskers->setWhiskers(std::move(whiskers));
    }
    // At most four lines under the chart (it needs the height at 1280×720); all in the tooltip.
    constexpr int kNoteLines = 4;
    QStringList shown = notes.mid(0, kNoteLines);
    if (notes.size() > kNoteLines) {
        shown.back() += tr(" (%1 more lines: hover here)").arg(notes.size() - kNoteLines);
    }
    m_note->setText(shown.join(QLatin1Char('\n')));
    m_note->setToolTip(notes.size() > kNoteLines
                           ? notes.join(QLatin1Char('\n')) + QStringLiteral("\n\n") + noteToolTip()
                           : noteToolTip());
    m_note->setVisible(!notes.isEmpty());
    m_view->setEmpty(m_lines.empty());
    m_legend->refresh();
}

}  // namespace pfa::ui
