#pragma once

#include <vector>

#include "ui/charts/chart_export.h"

class QMenu;
class QWidget;

namespace pfa::ui {

/// Fills File → Export chart with the charts the window's panels list (each panel's
/// exportEntries(), one group after another, separated): each entry opens the export dialog
/// (PNG, SVG or PDF). Gives each view its file-name stem and context source, which its own
/// context menu then uses too. `dialogParent` parents the dialogs of entries that name none.
void fillChartExportMenu(QMenu* menu, const std::vector<std::vector<ChartExportEntry>>& groups,
                         QWidget* dialogParent);

}  // namespace pfa::ui
