#include "ui/actions/run_actions.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QKeySequence>
#include <QWidget>

#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/training_controller.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/parameter_form.h"

namespace pfa::ui {

namespace {

/// Live mode waits this long after the last move of ε or λ before it restarts the run.
constexpr int kLiveDebounceMs = 150;

QAction* makeAction(const QString& text, const QKeySequence& shortcut, const QString& tip,
                    QObject* parent) {
    auto* action = new QAction(text, parent);
    action->setShortcut(shortcut);
    action->setToolTip(tip);
    return action;
}

/// Whether `object` is, or is inside, a number field.
bool isNumberField(QObject* object) {
    for (auto* widget = qobject_cast<QWidget*>(object); widget; widget = widget->parentWidget()) {
        if (qobject_cast<QAbstractSpinBox*>(widget) ||
            widget->property(kNumberFieldProperty).toBool())
            return true;
        if (widget->isWindow()) break;
    }
    return false;
}

}  // namespace

RunActions::RunActions(TrainingController* training, DatasetController* datasets,
                       ExperimentPanel* panel, QObject* parent)
    : QObject(parent), m_training(training), m_datasets(datasets), m_panel(panel) {
    m_run = makeAction(tr("&Run"), QKeySequence(QStringLiteral("Ctrl+R")),
                       tr("Train a model with the current settings (Ctrl+R)"), this);
    m_pause = makeAction(tr("&Pause"), QKeySequence(Qt::Key_Space),
                         tr("Pause or resume the running model (Space, unless a field has the "
                            "keyboard focus)"),
                         this);
    m_step = makeAction(tr("S&tep"), QKeySequence(QStringLiteral("Ctrl+.")),
                        tr("Train one more epoch, then pause (Ctrl+.)"), this);
    m_stop = makeAction(tr("&Stop"), QKeySequence(Qt::Key_Escape),
                        tr("Stop the running model within one minibatch (Esc)"), this);
    m_reset = makeAction(tr("R&eset"), QKeySequence(),
                         tr("Stop any run and clear the live charts (the history stays)"), this);
    connect(m_run, &QAction::triggered, this, &RunActions::startRun);
    connect(m_pause, &QAction::triggered, this, &RunActions::togglePause);
    connect(m_step, &QAction::triggered, this, &RunActions::stepEpoch);
    connect(m_stop, &QAction::triggered, this, &RunActions::stopRun);
    connect(m_reset, &QAction::triggered, this, &RunActions::reset);

    m_liveDebounce.setSingleShot(true);
    m_liveDebounce.setInterval(kLiveDebounceMs);
    connect(&m_liveDebounce, &QTimer::timeout, this, [this] {
        if (m_panel->liveMode() && m_panel->problem().isEmpty()) startRun();
    });
    connect(m_panel, &ExperimentPanel::liveParameterChanged, this, [this] {
        if (m_panel->liveMode()) m_liveDebounce.start();  // restarts the debounce on every move
    });
    connect(m_panel, &ExperimentPanel::configChanged, this, &RunActions::update);
    connect(m_training, &TrainingController::stateChanged, this, &RunActions::update);
    // How runs go, for the status bar.
    connect(m_training, &TrainingController::runStarted, this,
            [this](int id) { emit message(tr("Run %1 started").arg(id), 3000); });
    connect(m_training, &TrainingController::runFinished, this, [this](const RunEntryPtr& entry) {
        const bool diverged =
            !entry->stoppedByUser && entry->result.status == pfa::RunStatus::Diverged;
        emit message(entry->outcomeMessage(), diverged ? 15000 : 8000);
    });
    connect(m_training, &TrainingController::runFailed, this, [this](int id, const QString& error) {
        emit message(tr("Run %1 failed: %2").arg(id).arg(error), 15000);
    });
    // A focused text field keeps Space (it wins the shortcut override); number fields must not
    // be emptied by it.
    qApp->installEventFilter(this);
    update();
}

bool RunActions::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Space && !(key->modifiers() & ~Qt::KeypadModifier) &&
            isNumberField(watched))
            return true;  // eaten: the field keeps its value, and Pause does not fire either
    }
    return QObject::eventFilter(watched, event);
}

void RunActions::startRun() {
    const pfa::PreparedDatasetPtr data = m_datasets->datasetFor(m_panel->datasetRequest());
    if (!m_panel->problem().isEmpty() || !data) {
        emit message(data ? m_panel->problem() : tr("The data set is still loading"), 8000);
        return;
    }
    m_training->startRun(m_panel->config(), data);
}

void RunActions::togglePause() {
    if (m_training->state() == TrainingController::State::Running) {
        m_training->pause();
    } else if (m_training->state() == TrainingController::State::Paused) {
        m_training->resume();
    }
}

void RunActions::stepEpoch() {
    if (m_training->state() != TrainingController::State::Idle) {
        m_training->step();
        return;
    }
    const pfa::PreparedDatasetPtr data = m_datasets->datasetFor(m_panel->datasetRequest());
    if (m_panel->problem().isEmpty() && data) m_training->startRun(m_panel->config(), data, true);
}

void RunActions::stopRun() {
    m_liveDebounce.stop();
    if (m_training->state() == TrainingController::State::Idle) return;
    m_training->stop();
    emit stopped();
    emit message(tr("Stopped"), 3000);
}

void RunActions::reset() {
    m_liveDebounce.stop();
    m_training->stop();
    emit resetRequested();
}

QString RunActions::stateText() const {
    switch (m_training->state()) {
        case TrainingController::State::Running:
            return tr("Training…");
        case TrainingController::State::Paused:
            return tr("Paused");
        case TrainingController::State::Idle:
            break;
    }
    return m_panel->problem().isEmpty() ? tr("Ready") : tr("Not ready");
}

void RunActions::update() {
    const auto state = m_training->state();
    const bool idle = state == TrainingController::State::Idle;
    const bool ready = m_panel->problem().isEmpty();
    m_run->setEnabled(ready);
    m_run->setText(idle ? tr("&Run") : tr("&Restart"));
    // Why it cannot run, in full (the status bar may cut a long reason).
    m_run->setToolTip(ready ? tr("Train a model with the current settings (Ctrl+R)")
                            : tr("Cannot run yet: %1").arg(m_panel->problem()));
    m_pause->setEnabled(!idle);
    m_pause->setText(state == TrainingController::State::Paused ? tr("Res&ume") : tr("&Pause"));
    m_step->setEnabled(ready || !idle);
    m_stop->setEnabled(!idle);
    emit changed();
}

}  // namespace pfa::ui
