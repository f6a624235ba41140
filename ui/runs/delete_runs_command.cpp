#include "ui/runs/delete_runs_command.h"

#include "ui/runs/run_history_model.h"

namespace pfa::ui {

DeleteRunsCommand::DeleteRunsCommand(RunHistoryModel* model, std::vector<int> ids)
    : m_model(model), m_ids(std::move(ids)) {
    setText(m_ids.size() == 1 ? QObject::tr("delete run %1").arg(m_ids.front())
                              : QObject::tr("delete %1 runs").arg(m_ids.size()));
}

void DeleteRunsCommand::redo() {
    m_removed.clear();
    for (int id : m_ids) {
        RunEntryPtr entry = m_model->entry(id);
        if (!entry) continue;
        const int row = m_model->remove(id);
        m_removed.emplace_back(row, entry);
    }
}

void DeleteRunsCommand::undo() {
    // Re-insert in reverse order so every row index is valid again.
    for (auto it = m_removed.rbegin(); it != m_removed.rend(); ++it)
        m_model->insert(it->first, it->second);
    m_removed.clear();
}

}  // namespace pfa::ui
