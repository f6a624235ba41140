#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <vector>

#include "ui/support/palette.h"

namespace pfa::ui {

/// The colour bar of ε (chart_style::colorForEpsilon), drawn inside a chart's scene so that it
/// is on screen and in every export: the title "ε", a swatch for ∞ (no privacy), then the
/// log-scale bar from 100 (top) down to 0.05 with labelled ticks. Small marks beside the bar
/// show the budgets present in the chart. With a ranked palette (two budgets or more, each
/// coloured by its rank) it is a key instead: one labelled swatch per budget, largest on top.
class EpsilonColorBar : public QGraphicsItem {
public:
    explicit EpsilonColorBar(QGraphicsItem* parent = nullptr);

    /// The box the bar draws in (parent coordinates), as wide as preferredWidth().
    void setArea(const QRectF& area);
    /// The budgets marked beside the bar (∞ marks the swatch).
    void setMarkedEpsilons(std::vector<double> epsilons);
    /// The colours of the chart's budgets; a ranked one draws swatches instead of the scale.
    void setPalette(chart_style::EpsilonPalette palette);
    /// Width needed by the bar and its labels.
    qreal preferredWidth() const;

    /// "ε" (tests, accessibility).
    QString title() const;
    /// The tick labels drawn, from the top ("∞", "100", …).
    QStringList tickLabels() const;
    /// The rectangle of the gradient or of the swatches (item coordinates), and of the ∞ swatch.
    QRectF barRect() const;
    QRectF infinityRect() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option,
               QWidget* widget = nullptr) override;

private:
    /// Vertical position in the bar of a finite ε (clamped to the scale).
    qreal yFor(double epsilon) const;
    /// The ticks that fit the bar's height without overlapping labels.
    std::vector<double> ticks() const;

    /// Swatch i (of the ranked palette's values, largest first) in item coordinates.
    QRectF swatchRect(std::size_t i) const;

    QRectF m_area;
    chart_style::EpsilonPalette m_palette;
    std::vector<double> m_marked;
    QFont m_font;
    QFont m_titleFont;
};

}  // namespace pfa::ui
