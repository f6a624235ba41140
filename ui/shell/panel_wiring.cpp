#include "ui/shell/panel_wiring.h"

#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/controllers/training_controller.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/sweep_status_widget.h"
#include "ui/panels/teaching_panel.h"

namespace pfa::ui {

void connectSweepStatus(SweepStatusWidget* status, SweepController* sweep) {
    QObject::connect(status, &SweepStatusWidget::stopRequested, sweep, &SweepController::stop);
    QObject::connect(sweep, &SweepController::started, status, &SweepStatusWidget::start);
    QObject::connect(sweep, &SweepController::progressChanged, status,
                     &SweepStatusWidget::showProgress);
    QObject::connect(sweep, &SweepController::finished, status, &SweepStatusWidget::finish);
}

void connectTeaching(TeachingPanel* teaching, ExperimentPanel* panel, TrainingController* training,
                     DatasetController* datasets) {
    teaching->follow(panel);
    QObject::connect(datasets, &DatasetController::datasetReady, teaching,
                     &TeachingPanel::offerDataset);
    QObject::connect(training, &TrainingController::runStarted, teaching, &TeachingPanel::beginRun);
    QObject::connect(training, &TrainingController::epochsArrived, teaching,
                     &TeachingPanel::addEpochs);
    QObject::connect(training, &TrainingController::runFinished, teaching,
                     &TeachingPanel::finishRun);
    QObject::connect(training, &TrainingController::runFailed, teaching, &TeachingPanel::failRun);
}

}  // namespace pfa::ui
