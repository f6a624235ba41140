#include "ui/training_worker.h"

#include <QMetaObject>
#include <exception>

#include "core/algorithms/registry.h"
#include "ui/training_controller.h"

namespace pfa::ui {

namespace {

/// Bridges the core's observer hooks to a RunControl: honours pause between steps and hands
/// epoch metrics to the GUI through the control's buffer.
class LiveObserver : public pfa::TrainingObserver {
public:
    LiveObserver(std::shared_ptr<RunControl> control, TrainingController* controller)
        : m_control(std::move(control)), m_controller(controller) {}

    bool onStep(const pfa::StepInfo&) override {
        m_control->waitWhilePaused();
        return false;  // cancellation travels through the cancel token
    }

    bool onEpochEnd(const pfa::EpochMetrics& metrics) override {
        if (m_control->pushMetrics(metrics)) {
            QMetaObject::invokeMethod(
                m_controller,
                [controller = m_controller, control = m_control] { controller->drainMetrics(control); },
                Qt::QueuedConnection);
        }
        return false;
    }

private:
    std::shared_ptr<RunControl> m_control;
    TrainingController* m_controller;
};

}  // namespace

TrainingWorker::TrainingWorker(TrainingController* controller) : m_controller(controller) {}

void TrainingWorker::train(const std::shared_ptr<RunControl>& control,
                           const pfa::TrainConfig& config, const pfa::PreparedDatasetPtr& loaded) {
    if (control->cancelled()) {
        // Superseded while it waited in the queue: never started, never touched the data.
        QMetaObject::invokeMethod(
            m_controller, [controller = m_controller, control] { controller->runSkipped(control); },
            Qt::QueuedConnection);
        return;
    }
    try {
        LiveObserver observer(control, m_controller);
        auto result = std::make_shared<pfa::RunResult>(
            pfa::runAlgorithm(config, loaded->split, observer, control->cancelToken()));
        QMetaObject::invokeMethod(
            m_controller,
            [controller = m_controller, control, result, loaded] {
                controller->runEnded(control, result, loaded);
            },
            Qt::QueuedConnection);
    } catch (const std::exception& error) {
        const QString message = QString::fromStdString(error.what());
        QMetaObject::invokeMethod(
            m_controller,
            [controller = m_controller, control, message] { controller->runErrored(control, message); },
            Qt::QueuedConnection);
    }
}

}  // namespace pfa::ui
