#pragma once

#include <QToolBar>

namespace pfa::ui {

class EpsilonControl;
class ExperimentPanel;
class LambdaControl;

/// The experiment controls a presenter needs, for presentation mode, which hides the settings
/// panel: λ and ε (slider and value, as in the panel) and live mode, on a toolbar of their
/// own. They are a second view of the panel's controls, kept in step both ways: moving λ here
/// moves the panel's λ (and, in live mode, starts the run). Hidden outside presentation mode.
class PresenterControls : public QToolBar {
    Q_OBJECT
public:
    PresenterControls(ExperimentPanel* panel, QWidget* parent = nullptr);

    LambdaControl* lambdaControl() const { return m_lambda; }
    EpsilonControl* epsilonControl() const { return m_epsilon; }
    QAction* liveAction() const { return m_live; }

private:
    /// The algorithm's privacy and fairness, as the panel's controls show them.
    void followAlgorithm();

    ExperimentPanel* m_panel;
    LambdaControl* m_lambda;
    EpsilonControl* m_epsilon;
    QAction* m_live;
};

}  // namespace pfa::ui
