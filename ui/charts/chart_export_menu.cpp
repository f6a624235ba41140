#include "ui/charts/chart_export_menu.h"

#include <QMenu>

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/sweep_views_panel.h"

namespace pfa::ui {

void fillChartExportMenu(QMenu* menu, LiveChartsPanel* live, TradeoffChart* tradeoff,
                         SweepViewsPanel* sweepViews, QWidget* dialogParent) {
    const QString names[] = {QObject::tr("Training loss…"), QObject::tr("Test error…"),
                             QObject::tr("Fairness violation…"), QObject::tr("Privacy spent…")};
    for (int i = 0; i < 4; ++i) {
        menu->addAction(names[i], live->views()[static_cast<std::size_t>(i)],
                        &ChartView::exportWithDialog);
    }
    menu->addAction(QObject::tr("Tradeoff…"), tradeoff->view(), &ChartView::exportWithDialog);
    menu->addSeparator();
    menu->addAction(QObject::tr("Sweep: tradeoff curves…"), sweepViews->tradeoffView()->view(),
                    &ChartView::exportWithDialog);
    menu->addAction(QObject::tr("Sweep: price of privacy, error…"),
                    sweepViews->priceView()->errorView(), &ChartView::exportWithDialog);
    menu->addAction(QObject::tr("Sweep: price of privacy, violation…"),
                    sweepViews->priceView()->violationView(), &ChartView::exportWithDialog);
    menu->addAction(QObject::tr("Sweep: heat map…"), sweepViews, [sweepViews, dialogParent] {
        exportWithDialog(sweepViews->heatMap(), dialogParent);
    });
}

}  // namespace pfa::ui
