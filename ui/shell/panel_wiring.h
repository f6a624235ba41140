#pragma once

// The window's composition of panels and controllers: the panels show a controller's work but
// know no controller (ui/ floors: panels < controllers), so the connections are made here.
namespace pfa::ui {

class DatasetController;
class ExperimentPanel;
class SweepController;
class SweepStatusWidget;
class TeachingPanel;
class TrainingController;

/// `status` shows `sweep`'s runs (start, progress, end) and its Stop button stops the sweep.
void connectSweepStatus(SweepStatusWidget* status, SweepController* sweep);

/// `teaching` follows `panel`'s settings and the control the user is on, `training`'s runs
/// (start, epochs, end, failure) and the data sets `datasets` loads for the panel.
void connectTeaching(TeachingPanel* teaching, ExperimentPanel* panel, TrainingController* training,
                     DatasetController* datasets);

}  // namespace pfa::ui
