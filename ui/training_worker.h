#pragma once

#include <QObject>
#include <map>
#include <memory>

#include "core/train/train_config.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/run_control.h"

namespace pfa::ui {

class TrainingController;

/// Lives on the controller's long-lived worker thread (worker-object pattern). Loads data
/// sets (cached) and trains; reports back to the controller with queued calls only.
class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(TrainingController* controller);

    /// Loads (or fetches from the cache) the data set and publishes it to the controller.
    void load(const pfa::DatasetRequest& request, int requestId);
    /// Trains one run; skipped at once if `control` was cancelled while queued.
    void train(const std::shared_ptr<RunControl>& control, const pfa::TrainConfig& config,
               const pfa::DatasetRequest& request);

private:
    pfa::PreparedDatasetPtr obtain(const pfa::DatasetRequest& request);

    TrainingController* m_controller;
    std::map<std::string, pfa::PreparedDatasetPtr> m_cache;
};

}  // namespace pfa::ui
