#pragma once

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <memory>
#include <optional>

#include "core/config/run_result.h"
#include "core/sweep/run_record.h"

namespace pfa::ui {

/// One run in the history: the core result plus what the GUI adds (an id, when it finished,
/// whether the user stopped it).
struct RunEntry {
    int id = 0;
    QDateTime finished;
    bool stoppedByUser = false;
    pfa::RunResult result;
    pfa::RunContext context;
    /// The settings as asked, before "auto" values were resolved (`result.config`): what
    /// reruns the run with other seeds under the same run key. Runs of this session only (a
    /// record keeps the resolved settings).
    std::optional<pfa::TrainConfig> requested;

    /// Finished normally (a point on the tradeoff chart).
    bool isComplete() const { return result.status == pfa::RunStatus::Completed; }
    /// The chosen notion's violation on the test set.
    double violation() const { return result.test.violation(result.config.fairness); }
    /// The ε shown for the run: what the accountant certified (∞ if not private).
    double certifiedEpsilon() const;
    /// "completed", "stopped", "diverged", ...
    QString statusText() const;
    /// What the run's guarantee protects: its unit and adjacency, e.g. "record,
    /// add/remove-one", "a record's sensitive attribute, replace-one", "not private".
    QString protectionText() const;
    /// A multi-line description of the settings and outcome (tooltips, reports).
    QString summary() const;
    /// A line on the constant classifier (always the test set's most frequent class): its test
    /// error and violation 0, or a warning when this run does no better; empty when unknown.
    QString constantText() const;
    /// How far the run got in its algorithm's own unit: "35 of 400 epochs", "300 of 300 rounds".
    /// How far the run came by its last history entry, in its algorithm's unit (progressAt).
    long progressDone() const;
    QString progressText() const;
    /// How long it was set to last: "400 epochs, batch 1024", "300 rounds", "auto steps" (the
    /// batch only for algorithms that read one).
    QString lengthText() const;
    /// One line on how the run ended, for the status bar ("Run 3 finished: test error …").
    QString outcomeMessage() const;
};

using RunEntryPtr = std::shared_ptr<const RunEntry>;

/// A finished run (not stopped by the user) for the history.
RunEntryPtr makeRunEntry(int id, pfa::RunResult result, pfa::RunContext context,
                         const QDateTime& finished,
                         std::optional<pfa::TrainConfig> requested = std::nullopt);

}  // namespace pfa::ui

Q_DECLARE_METATYPE(pfa::ui::RunEntryPtr)
