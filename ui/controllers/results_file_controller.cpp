#include "ui/controllers/results_file_controller.h"

#include <QFileInfo>
#include <algorithm>

#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_manifest.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui/support/background.h"

namespace pfa::ui {

namespace {

/// What the background read hands to the GUI thread.
struct ReadOutcome {
    std::vector<std::pair<pfa::RunResult, pfa::RunContext>> runs;
    /// Executions the file records besides its runs (auto-tune's trials), with their run's
    /// context.
    std::vector<std::pair<pfa::RunContext, std::vector<pfa::privacy::LedgerEntry>>> trials;
    std::size_t damaged = 0;
    std::vector<pfa::DamagedLine> damagedList;  // the first ones, in line order
    std::size_t lines = 0;                      // non-blank lines read
    QString error;
    /// A sweep manifest was opened: how far its sweep is ("" otherwise).
    QString sweepProgress;
};

ReadOutcome readRuns(const QString& path);

/// The runs of a sharded sweep's manifest (pfa-cli cluster slurm): every shard file written so
/// far, while the sweep runs or after, with how far it is.
ReadOutcome readSweepShards(const QString& path) {
    ReadOutcome out;
    try {
        const pfa::SweepManifest manifest = pfa::readManifest(path.toStdString());
        const pfa::SweepStatus status = pfa::sweepStatus(manifest);
        for (int shard = 0; shard < manifest.shards; ++shard) {
            const QString file = QString::fromStdString(pfa::shardFileOf(manifest, shard));
            if (!QFileInfo(file).isFile()) continue;
            ReadOutcome part = readRuns(file);
            if (!part.error.isEmpty()) {
                out.error = part.error;
                return out;
            }
            for (auto& run : part.runs) out.runs.push_back(std::move(run));
            for (auto& trial : part.trials) out.trials.push_back(std::move(trial));
            out.damaged += part.damaged;
            out.lines += part.lines;
        }
        const std::vector<int> incomplete = status.incompleteShards();
        out.sweepProgress =
            QObject::tr("%1 of %2 run(s) of the sweep '%3' recorded")
                .arg(status.done)
                .arg(status.expected)
                .arg(QString::fromStdString(manifest.name)) +
            (incomplete.empty() ? QObject::tr(", every shard complete")
                                : QObject::tr(", %1 of %2 shard(s) still incomplete")
                                      .arg(incomplete.size())
                                      .arg(manifest.shards));
        if (out.runs.empty() && out.error.isEmpty())
            out.error = QObject::tr("no shard of the sweep '%1' has written results yet (%2)")
                            .arg(QString::fromStdString(manifest.name), out.sweepProgress);
    } catch (const std::exception& problem) {
        out.error = QString::fromStdString(problem.what());
    }
    return out;
}

ReadOutcome readRuns(const QString& path) {
    ReadOutcome out;
    if (!QFileInfo(path).isFile()) {
        out.error = QObject::tr("%1: no such file").arg(path);
        return out;
    }
    try {
        const pfa::ResultsFileContent content = pfa::readResultsFile(path.toStdString());
        out.damaged = content.damagedLines;
        out.damagedList = content.damaged;
        out.lines = content.records.size() + content.damagedLines;
        for (std::size_t i = 0; i < content.records.size(); ++i) {
            pfa::RunContext context;
            try {
                pfa::RunResult result = pfa::runResultFromJson(content.records[i], &context);
                std::vector<pfa::privacy::LedgerEntry> trials =
                    pfa::tuningTrialEntries(content.records[i]);
                if (!trials.empty()) out.trials.emplace_back(context, std::move(trials));
                out.runs.emplace_back(std::move(result), std::move(context));
            } catch (const std::exception&) {
                // A record of another kind or version.
                ++out.damaged;
                if (out.damagedList.size() < pfa::kListedDamagedLines) {
                    out.damagedList.push_back(
                        {content.recordLines[i], "a JSON record, but not a run"});
                }
            }
        }
        std::sort(
            out.damagedList.begin(), out.damagedList.end(),
            [](const pfa::DamagedLine& a, const pfa::DamagedLine& b) { return a.line < b.line; });
    } catch (const std::exception& problem) {
        out.error = QString::fromStdString(problem.what());
    }
    return out;
}

/// "line 3: not a JSON record" per listed line, and how many more there are.
QString damagedLinesText(const ReadOutcome& outcome) {
    QStringList lines;
    for (const pfa::DamagedLine& d : outcome.damagedList) {
        lines << QObject::tr("line %1: %2").arg(d.line).arg(QString::fromStdString(d.reason));
    }
    if (outcome.damaged > outcome.damagedList.size()) {
        lines << QObject::tr("… and %1 more").arg(outcome.damaged - outcome.damagedList.size());
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace

ResultsFileController::ResultsFileController(RunHistoryModel* history, LedgerBook* ledger,
                                             std::function<int()> allocateId, QObject* parent)
    : QObject(parent), m_history(history), m_ledger(ledger), m_allocateId(std::move(allocateId)) {}

void ResultsFileController::open(const QString& path) {
    emit reading(path);
    runInBackground(
        this,
        [path] {
            // A sweep's manifest stands for its shard files (read as they are so far).
            return path.endsWith(QStringLiteral(".manifest.json")) ? readSweepShards(path)
                                                                   : readRuns(path);
        },
        [this, path](ReadOutcome outcome) {
            const QString name = QFileInfo(path).fileName();
            const QString title = tr("Open sweep results");
            if (!outcome.error.isEmpty()) {
                emit opened(path, 0, 0, 0, outcome.error);
                emit problem(title, tr("%1 could not be read.").arg(name), outcome.error);
                return;
            }
            if (outcome.runs.empty()) {
                // Nothing in it is a run: say so plainly rather than call every line damaged.
                const QString text =
                    outcome.lines == 0
                        ? tr("%1 is empty: it holds no runs.").arg(name)
                        : tr("%1 is not a results file.\n\nA results file holds one run per line, "
                             "as pfa-cli train --out and the sweeps of PFA Explorer write them "
                             "(a .jsonl file). %2 of this file is such a run, so nothing was "
                             "added.")
                              .arg(name, outcome.lines == 1
                                             ? tr("Its one line is not")
                                             : tr("None of the %1 lines").arg(outcome.lines));
                emit opened(path, 0, 0, static_cast<int>(outcome.damaged),
                            outcome.lines == 0
                                ? tr("%1 is empty: it holds no runs").arg(name)
                                : tr("%1 is not a results file; nothing was added").arg(name));
                // Every line of, say, /etc/passwd listed as "not a JSON record" would say nothing
                // more.
                emit problem(title, text, QString());
                return;
            }
            std::vector<RunEntryPtr> entries;
            const QDateTime written = QFileInfo(path).lastModified();
            for (auto& [result, context] : outcome.runs) {
                entries.push_back(
                    makeRunEntry(m_allocateId(), std::move(result), std::move(context), written));
            }
            const int added = merge(entries);
            for (const auto& [context, trials] : outcome.trials)
                m_ledger->chargeEntries(context, trials, false);
            if (!outcome.sweepProgress.isEmpty()) emit sweepProgress(outcome.sweepProgress);
            emit opened(path, added, static_cast<int>(entries.size()) - added,
                        static_cast<int>(outcome.damaged), QString());
            if (outcome.damaged > 0) {
                emit problem(
                    title,
                    tr("%1: %2 added; %3 could not be read and %4 skipped.")
                        .arg(name, added == 1 ? tr("1 run") : tr("%1 runs").arg(added),
                             outcome.damaged == 1 ? tr("1 damaged line")
                                                  : tr("%1 damaged lines").arg(outcome.damaged),
                             outcome.damaged == 1 ? tr("was") : tr("were")),
                    damagedLinesText(outcome));
            }
        });
}

int ResultsFileController::merge(const std::vector<RunEntryPtr>& entries) {
    // Every run in a results file or sweep ran on the data: charged once each, before the
    // history leaves out runs it already lists.
    m_ledger->charge(entries);
    return m_history->appendUnlisted(entries);
}

}  // namespace pfa::ui
