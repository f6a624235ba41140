#pragma once

#include <QObject>
#include <QTimer>
#include <vector>

class QAction;

namespace pfa::ui {

class DatasetController;
class ExperimentPanel;
class TrainingController;

/// The run controls — Run (Restart), Pause (Resume), Step, Stop and Reset — as actions for the
/// toolbar, the Run menu and their shortcuts: they train the experiment panel's settings on the
/// loaded data set through the training controller, and are enabled by its state. In live
/// mode a run restarts once ε or λ has stopped moving for a moment. How runs start and end is
/// told in the status bar.
class RunActions : public QObject {
    Q_OBJECT
public:
    RunActions(TrainingController* training, DatasetController* datasets, ExperimentPanel* panel,
               QObject* parent = nullptr);

    QAction* runAction() const { return m_run; }
    QAction* pauseAction() const { return m_pause; }
    QAction* stepAction() const { return m_step; }
    QAction* stopAction() const { return m_stop; }
    QAction* resetAction() const { return m_reset; }
    /// All five, in toolbar order.
    std::vector<QAction*> actions() const { return {m_run, m_pause, m_step, m_stop, m_reset}; }
    /// "Ready", "Not ready", "Training…" or "Paused".
    QString stateText() const;

    void startRun();
    void togglePause();
    void stepEpoch();
    void stopRun();
    void reset();
    /// Drops a live-mode restart that is waiting for the debounce (closing the window).
    void cancelLiveRestart() { m_liveDebounce.stop(); }

protected:
    /// Space belongs to the field that has the keyboard focus (a text field types it, so Pause
    /// does not fire there); a number field — a spin box or a line edit marked with
    /// kNumberFieldProperty (parameter_form.h) — ignores it, because a space is no part of a number
    /// and, typed over the selected text, would empty the field.
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// For the status bar.
    void message(const QString& text, int timeoutMs);
    /// The user stopped the live run: its curves stay, nothing more arrives.
    void stopped();
    /// Reset: the live views are to be cleared.
    void resetRequested();
    /// Enabled states, texts or stateText() changed.
    void changed();

private:
    void update();

    TrainingController* m_training;
    DatasetController* m_datasets;
    ExperimentPanel* m_panel;
    QAction* m_run;
    QAction* m_pause;
    QAction* m_step;
    QAction* m_stop;
    QAction* m_reset;
    QTimer m_liveDebounce;
};

}  // namespace pfa::ui
