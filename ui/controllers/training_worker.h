#pragma once

#include <QString>
#include <functional>
#include <memory>

#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/controllers/run_control.h"

namespace pfa::ui {

/// How one training run ended, as handed back to the GUI thread.
struct TrainingOutcome {
    enum class Kind {
        Ran,      ///< `result` holds the run (completed, diverged or cancelled part-way)
        Failed,   ///< `error` says why it could not run
        Skipped,  ///< cancelled while it waited in the queue: it never touched the data
    };
    Kind kind = Kind::Skipped;
    std::shared_ptr<pfa::RunResult> result;
    QString error;
};

/// Trains one run on the calling (background) thread, honouring `control`'s pause and cancel
/// between steps. Each epoch's metrics go into `control`'s buffer; `metricsWaiting` is called
/// when the GUI is to be told (at most one notification outstanding, see RunControl).
TrainingOutcome trainRun(const std::shared_ptr<RunControl>& control, const pfa::TrainConfig& config,
                         const pfa::PreparedDatasetPtr& data,
                         const std::function<void()>& metricsWaiting);

}  // namespace pfa::ui
