#include "ui/charts/series_legend.h"

#include <QGraphicsScene>
#include <QTextDocumentFragment>
#include <QtCharts/QCategoryAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/report/group_bootstrap.h"
#include "ui/charts/chart_legend.h"
#include "ui/charts/chart_style.h"

namespace pfa::ui {

namespace {
const char* const kOwner = "pfaLegendOwner";
const char* const kLeftOut = "pfaLegendLeftOut";
constexpr int kEdge = 6;

QAbstractSeries* ownerOf(const QAbstractSeries* series) {
    return qobject_cast<QAbstractSeries*>(series->property(kOwner).value<QObject*>());
}

/// Series names are rich text in Qt Charts (views escape what comes from files); the legend
/// draws plain text.
QString plainText(const QString& name) {
    return QTextDocumentFragment::fromHtml(name).toPlainText();
}
}  // namespace

SeriesLegend::SeriesLegend(QChart* chart)
    : QObject(chart), m_chart(chart), m_legend(new ChartLegend(chart)) {
    m_chart->legend()->hide();
    m_legend->setClickHandler([this](std::size_t index) { toggle(static_cast<int>(index)); });
    m_legend->setToolTip(
        tr("Click an entry to hide or show its series; the axes follow what "
           "is shown"));
    connect(m_chart, &QChart::geometryChanged, this, &SeriesLegend::layout);
}

SeriesLegend* SeriesLegend::of(const QChart* chart) {
    return chart ? chart->findChild<SeriesLegend*>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void SeriesLegend::tie(QAbstractSeries* owner, QAbstractSeries* follower) {
    follower->setProperty(kOwner, QVariant::fromValue<QObject*>(owner));
}

void SeriesLegend::leaveOut(QAbstractSeries* series, bool leftOut) {
    series->setProperty(kLeftOut, leftOut);
}

bool SeriesLegend::isShown(const QAbstractSeries* series) {
    if (!series || !series->isVisible()) return false;
    const QAbstractSeries* owner = ownerOf(series);
    return !owner || owner->isVisible();
}

QString SeriesLegend::keyOf(int index) const {
    const QString& name = m_names[index];
    const auto before = std::count(m_names.begin(), m_names.begin() + index, name);
    return name + QLatin1Char('#') + QString::number(before);
}

QStringList SeriesLegend::names() const { return m_names; }

QStringList SeriesLegend::hiddenNames() const {
    QStringList hidden;
    for (int i = 0; i < m_names.size(); ++i) {
        if (m_hidden.count(keyOf(i))) hidden << m_names[i];
    }
    return hidden;
}

void SeriesLegend::refresh() {
    m_series.clear();
    m_names.clear();
    for (QAbstractSeries* series : m_chart->series()) {
        if (series->name().isEmpty() || series->property(kLeftOut).toBool() || ownerOf(series))
            continue;
        m_series.push_back(series);
        m_names << plainText(series->name());
    }
    m_viewRanges.clear();
    for (QAbstractAxis* axis : m_chart->axes()) {
        // Value axes only: a category axis (a log scale's labelled ticks) is a QValueAxis too,
        // but its labels are its categories, which a range of its own would not match.
        if (qobject_cast<QCategoryAxis*>(axis) || !axis->isVisible()) continue;
        if (auto* value = qobject_cast<QValueAxis*>(axis))
            m_viewRanges.push_back({value, value->min(), value->max(), value->tickInterval(),
                                    value->tickAnchor(), value->labelFormat()});
    }
    // Keys of entries that are gone are forgotten: "hidden" always describes what is drawn.
    std::set<QString> present;
    for (int i = 0; i < m_names.size(); ++i) present.insert(keyOf(i));
    for (auto it = m_hidden.begin(); it != m_hidden.end();)
        it = present.count(*it) ? std::next(it) : m_hidden.erase(it);
    apply();
}

void SeriesLegend::toggle(int index) {
    if (index < 0 || index >= m_names.size()) return;
    const QString key = keyOf(index);
    if (!m_hidden.erase(key)) m_hidden.insert(key);
    apply();
}

void SeriesLegend::showAll() {
    m_hidden.clear();
    apply();
}

void SeriesLegend::setIgnoreOutliers(bool ignore) {
    if (m_ignoreOutliers == ignore) return;
    m_ignoreOutliers = ignore;
    apply();
}

void SeriesLegend::apply() {
    using Entry = ChartLegend::Entry;
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < m_series.size(); ++i) {
        QAbstractSeries* series = m_series[i];
        const bool hidden = m_hidden.count(keyOf(static_cast<int>(i))) > 0;
        series->setVisible(!hidden);
        for (QAbstractSeries* other : m_chart->series()) {
            if (ownerOf(other) == series) other->setVisible(!hidden);
        }
        Entry entry;
        entry.text = m_names[static_cast<int>(i)];
        entry.dimmed = hidden;
        const QList<QLegendMarker*> markers = m_chart->legend()->markers(series);
        if (!markers.isEmpty()) {
            entry.brush = markers.front()->brush();
            entry.pen = markers.front()->pen();
        }
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            entry.symbol = Entry::Symbol::Marker;
            entry.shape = scatter->markerShape();
        } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
            entry.symbol = Entry::Symbol::Line;
            entry.pen = line->pen();
        } else {
            entry.symbol = Entry::Symbol::Marker;
            entry.shape = QScatterSeries::MarkerShapeRectangle;
        }
        entries.push_back(entry);
    }
    m_legend->setEntries(std::move(entries));
    layout();
    fitAxes();
    if (m_chart->scene()) m_chart->scene()->update();
}

void SeriesLegend::fitAxes() {
    const bool restricted = m_ignoreOutliers || !hiddenNames().isEmpty();
    for (const ViewRange& view : m_viewRanges) {
        QValueAxis* axis = view.axis;
        if (!m_chart->axes().contains(axis)) continue;
        std::vector<double> values;
        if (restricted) {
            for (QAbstractSeries* series : m_chart->series()) {
                auto* xy = qobject_cast<QXYSeries*>(series);
                if (!xy || !series->isVisible() || !series->attachedAxes().contains(axis)) continue;
                for (const QPointF& p : xy->points()) {
                    const double v = axis->orientation() == Qt::Horizontal ? p.x() : p.y();
                    if (std::isfinite(v)) values.push_back(v);
                }
            }
        }
        if (values.empty()) {
            // Everything shown (or nothing to fit): the view's own range, ticks and labels.
            axis->setTickType(QValueAxis::TicksDynamic);
            axis->setTickAnchor(view.anchor);
            axis->setTickInterval(view.interval);
            axis->setLabelFormat(view.format);
            axis->setRange(view.min, view.max);
            continue;
        }
        std::sort(values.begin(), values.end());
        double low = values.front(), high = values.back();
        if (m_ignoreOutliers && values.size() >= 4) {
            const double q1 = report::quantile(values, 0.25);
            const double q3 = report::quantile(values, 0.75);
            const double fence = 1.5 * (q3 - q1);
            low = *std::lower_bound(values.begin(), values.end(), q1 - fence);
            high = *(std::upper_bound(values.begin(), values.end(), q3 + fence) - 1);
        }
        const double pad = std::max((high - low) * 0.08, 0.01 * std::max(std::abs(high), 1e-3));
        low = std::max(low - pad, view.min);
        high = std::min(high + pad, view.max);
        chart_style::setNiceRange(axis, low, high, 5);
    }
}

void SeriesLegend::layout() {
    if (m_layingOut) return;
    m_layingOut = true;
    const QRectF area = m_chart->rect();
    const qreal height = m_legend->layoutForWidth(area.width() - 2 * kEdge);
    // A chart never laid out (a hidden tab, a few pixels wide) would reserve a legend of one
    // word per row, and QChart keeps that as its minimum size: an export at a real size would
    // then be drawn taller than its page. Such a chart reserves at most half its height.
    constexpr qreal kLaidOutWidth = 200;
    const qreal room =
        area.width() < kLaidOutWidth ? std::min(height, 0.5 * area.height()) : height;
    const QMargins wanted(kEdge, kEdge, kEdge,
                          kEdge + static_cast<int>(std::ceil(room)) + (room > 0 ? 4 : 0));
    if (m_chart->margins() != wanted) m_chart->setMargins(wanted);
    m_legend->setPos(area.left() + kEdge, area.bottom() - kEdge - room);
    m_layingOut = false;
}

}  // namespace pfa::ui
