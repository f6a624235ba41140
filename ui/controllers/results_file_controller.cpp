#include "ui/controllers/results_file_controller.h"

#include <QFileInfo>

#include "core/sweep/results_file.h"
#include "core/sweep/run_record.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui/shell/background.h"

namespace pfa::ui {

namespace {

/// What the background read hands to the GUI thread.
struct ReadOutcome {
    std::vector<std::pair<pfa::RunResult, pfa::RunContext>> runs;
    std::size_t damaged = 0;
    QString error;
};

ReadOutcome readRuns(const QString& path) {
    ReadOutcome out;
    if (!QFileInfo(path).isFile()) {
        out.error = QObject::tr("%1: no such file").arg(path);
        return out;
    }
    try {
        const pfa::ResultsFileContent content = pfa::readResultsFile(path.toStdString());
        out.damaged = content.damagedLines;
        for (const pfa::JsonValue& record : content.records) {
            pfa::RunContext context;
            try {
                pfa::RunResult result = pfa::runResultFromJson(record, &context);
                out.runs.emplace_back(std::move(result), std::move(context));
            } catch (const std::exception&) {
                ++out.damaged;  // a record of another kind or version
            }
        }
    } catch (const std::exception& problem) {
        out.error = QString::fromStdString(problem.what());
    }
    return out;
}

}  // namespace

ResultsFileController::ResultsFileController(RunHistoryModel* history, LedgerBook* ledger,
                                             std::function<int()> allocateId, QObject* parent)
    : QObject(parent), m_history(history), m_ledger(ledger), m_allocateId(std::move(allocateId)) {}

void ResultsFileController::open(const QString& path) {
    emit reading(path);
    runInBackground(
        this, [path] { return readRuns(path); },
        [this, path](ReadOutcome outcome) {
            if (!outcome.error.isEmpty()) {
                emit opened(path, 0, 0, 0, outcome.error);
                return;
            }
            std::vector<RunEntryPtr> entries;
            const QDateTime written = QFileInfo(path).lastModified();
            for (auto& [result, context] : outcome.runs) {
                entries.push_back(
                    makeRunEntry(m_allocateId(), std::move(result), std::move(context), written));
            }
            const int added = merge(entries);
            emit opened(path, added, static_cast<int>(entries.size()) - added,
                        static_cast<int>(outcome.damaged), QString());
        });
}

int ResultsFileController::merge(const std::vector<RunEntryPtr>& entries) {
    // Every run in a results file or sweep ran on the data: charged once each, before the
    // history leaves out runs it already lists.
    m_ledger->charge(entries);
    return m_history->appendUnlisted(entries);
}

}  // namespace pfa::ui
