#include "ui/controllers/training_worker.h"

#include <exception>

#include "core/algorithms/registry.h"

namespace pfa::ui {

namespace {

/// Bridges the core's observer hooks to a RunControl: honours pause between steps and hands
/// epoch metrics to the GUI through the control's buffer.
class LiveObserver : public pfa::TrainingObserver {
public:
    LiveObserver(std::shared_ptr<RunControl> control, const std::function<void()>& metricsWaiting)
        : m_control(std::move(control)), m_metricsWaiting(metricsWaiting) {}

    bool onStep(const pfa::StepInfo&) override {
        m_control->waitWhilePaused();
        return false;  // cancellation travels through the cancel token
    }

    bool onEpochEnd(const pfa::EpochMetrics& metrics) override {
        if (m_control->pushMetrics(metrics)) m_metricsWaiting();
        return false;
    }

private:
    std::shared_ptr<RunControl> m_control;
    const std::function<void()>& m_metricsWaiting;
};

}  // namespace

TrainingOutcome trainRun(const std::shared_ptr<RunControl>& control, const pfa::TrainConfig& config,
                         const pfa::PreparedDatasetPtr& data,
                         const std::function<void()>& metricsWaiting) {
    TrainingOutcome outcome;
    if (control->cancelled()) return outcome;  // superseded while it waited in the queue
    try {
        LiveObserver observer(control, metricsWaiting);
        outcome.result = std::make_shared<pfa::RunResult>(
            pfa::runAlgorithm(config, data->split, observer, control->cancelToken()));
        outcome.kind = TrainingOutcome::Kind::Ran;
    } catch (const std::exception& error) {
        outcome.kind = TrainingOutcome::Kind::Failed;
        outcome.error = QString::fromStdString(error.what());
    }
    return outcome;
}

}  // namespace pfa::ui
