#pragma once

#include <QObject>
#include <memory>

#include "core/train/train_config.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/run_control.h"

namespace pfa::ui {

class TrainingController;

/// Lives on the controller's long-lived worker thread (worker-object pattern). Trains; reports
/// back to the controller with queued calls only.
class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(TrainingController* controller);

    /// Trains one run on `data`; skipped at once if `control` was cancelled while queued.
    void train(const std::shared_ptr<RunControl>& control, const pfa::TrainConfig& config,
               const pfa::PreparedDatasetPtr& data);

private:
    TrainingController* m_controller;
};

}  // namespace pfa::ui
