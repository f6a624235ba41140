#include "ui/actions/chart_export_menu.h"

#include <QMenu>

namespace pfa::ui {

void fillChartExportMenu(QMenu* menu, const std::vector<std::vector<ChartExportEntry>>& groups,
                         QWidget* dialogParent) {
    bool first = true;
    for (const std::vector<ChartExportEntry>& group : groups) {
        if (!first) menu->addSeparator();
        first = false;
        for (const ChartExportEntry& entry : group) {
            entry.view->setExportFileStem(entry.stem);
            if (entry.context) entry.view->setExportContextSource(entry.context);
            QWidget* parent = entry.dialogParent ? entry.dialogParent : dialogParent;
            menu->addAction(entry.name, menu, [entry, parent] {
                if (entry.prepare) entry.prepare();
                exportWithDialog(entry.view, parent);
            });
        }
    }
}

}  // namespace pfa::ui
