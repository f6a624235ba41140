#pragma once

#include <QUndoCommand>
#include <utility>
#include <vector>

#include "ui/runs/run_entry.h"

namespace pfa::ui {

class RunHistoryModel;

/// Removes runs from the history, undoably (Edit → Undo brings them back in place).
class DeleteRunsCommand : public QUndoCommand {
public:
    DeleteRunsCommand(RunHistoryModel* model, std::vector<int> ids);
    void redo() override;
    void undo() override;

private:
    RunHistoryModel* m_model;
    std::vector<int> m_ids;
    std::vector<std::pair<int, RunEntryPtr>> m_removed;  // (row, entry), in removal order
};

}  // namespace pfa::ui
