#include "ui/runs/epoch_time_estimate.h"

namespace pfa::ui {

double measuredSecondsPerEpoch(const std::vector<RunEntryPtr>& runs,
                               const pfa::PreparedDataset& data) {
    double seconds = 0.0, epochs = 0.0;
    for (const RunEntryPtr& entry : runs) {
        if (!entry->isComplete() ||
            entry->context.datasetDescription != data.context.datasetDescription)
            continue;
        seconds += entry->result.seconds;
        epochs += entry->result.config.epochs;
    }
    return epochs > 0 ? seconds / epochs : -1.0;
}

}  // namespace pfa::ui
