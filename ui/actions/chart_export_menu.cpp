#include "ui/actions/chart_export_menu.h"

#include <QMenu>

#include "ui/charts/chart_export.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/error_epsilon_view.h"
#include "ui/charts/error_setting_view.h"
#include "ui/charts/heat_map_view.h"
#include "ui/charts/privacy_price_view.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/charts/tradeoff_curves_view.h"
#include "ui/charts/unit_spread_view.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/sweep_views_panel.h"

namespace pfa::ui {

void fillChartExportMenu(QMenu* menu, LiveChartsPanel* live, TradeoffChart* tradeoff,
                         SweepViewsPanel* sweepViews, QWidget* dialogParent) {
    // Short default file names; the tradeoff chart and the sweep views add their data set and
    // notion (the context menu of each view uses the same names and captions).
    const QString names[] = {QObject::tr("Training loss…"), QObject::tr("Test error…"),
                             QObject::tr("Fairness violation…"), QObject::tr("Privacy spent…")};
    const QString stems[] = {QStringLiteral("training-loss"), QStringLiteral("test-error"),
                             QStringLiteral("fairness-violation"), QStringLiteral("privacy-spent")};
    for (int i = 0; i < 4; ++i) {
        ChartView* view = live->views()[static_cast<std::size_t>(i)];
        view->setExportFileStem(stems[i]);
        menu->addAction(names[i], view, &ChartView::exportWithDialog);
    }
    tradeoff->view()->setExportFileStem(QStringLiteral("tradeoff"));
    tradeoff->view()->setExportContextSource([tradeoff] { return tradeoff->exportContext(); });
    menu->addAction(QObject::tr("Tradeoff…"), tradeoff->view(), &ChartView::exportWithDialog);
    menu->addSeparator();

    const auto context = [sweepViews] { return sweepViews->exportContext(); };
    struct SweepEntry {
        QString name;
        ExportableView* view;
        QString stem;
    };
    const SweepEntry sweeps[] = {
        {QObject::tr("Sweep: tradeoff curves…"), sweepViews->tradeoffView()->view(),
         QStringLiteral("tradeoff-curves")},
        {QObject::tr("Sweep: price of privacy, error…"), sweepViews->priceView()->errorView(),
         QStringLiteral("price-of-privacy-error")},
        {QObject::tr("Sweep: price of privacy, violation…"),
         sweepViews->priceView()->violationView(), QStringLiteral("price-of-privacy-violation")},
        {QObject::tr("Sweep: heat map…"), sweepViews->heatMap(), QStringLiteral("heat-map")},
        {QObject::tr("Sweep: error vs ε…"), sweepViews->errorEpsilonView()->view(),
         QStringLiteral("error-vs-epsilon")},
        {QObject::tr("Sweep: error vs setting…"), sweepViews->errorSettingView()->view(),
         QStringLiteral("error-vs-setting")},
        {QObject::tr("Sweep: per-unit spread…"), sweepViews->unitSpreadView()->view(),
         QStringLiteral("unit-spread")},
    };
    for (const SweepEntry& entry : sweeps) {
        entry.view->setExportFileStem(entry.stem);
        entry.view->setExportContextSource(context);
        ExportableView* view = entry.view;
        menu->addAction(entry.name, sweepViews, [sweepViews, view, dialogParent] {
            sweepViews->bringUpToDate();  // a view not shown since the last runs came in
            exportWithDialog(view, dialogParent);
        });
    }
}

}  // namespace pfa::ui
