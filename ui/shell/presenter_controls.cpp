#include "ui/shell/presenter_controls.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <cmath>

#include "core/algorithms/registry.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/lambda_control.h"

namespace pfa::ui {

namespace {

/// Whether two values are the same setting (∞ included), so that echoes stop.
bool same(double a, double b) { return a == b || (std::isinf(a) && std::isinf(b) && a * b > 0); }

}  // namespace

PresenterControls::PresenterControls(ExperimentPanel* panel, QWidget* parent)
    : QToolBar(tr("Presenter controls"), parent), m_panel(panel) {
    setObjectName(QStringLiteral("presenterControls"));
    setMovable(false);
    m_lambda = new LambdaControl();
    m_epsilon = new EpsilonControl();
    // Short labels: the row must fit a projector's width at the presentation's larger font.
    auto* lambdaLabel = new QLabel(tr(" λ "));
    lambdaLabel->setToolTip(tr("Fairness weight λ (the settings panel's)"));
    auto* epsilonLabel = new QLabel(tr("  ε "));
    epsilonLabel->setToolTip(tr("Privacy budget ε (the settings panel's)"));
    addWidget(lambdaLabel);
    addWidget(m_lambda);
    addWidget(epsilonLabel);
    addWidget(m_epsilon);
    m_live = addAction(tr("Live"));
    m_live->setCheckable(true);
    m_live->setToolTip(panel->liveModeBox()->toolTip());

    m_lambda->setValue(panel->lambdaControl()->value());
    m_epsilon->setValue(panel->epsilonControl()->value());
    m_live->setChecked(panel->liveModeBox()->isChecked());
    followAlgorithm();

    // Both ways: a value set on either side shows on the other.
    connect(m_lambda, &LambdaControl::valueChanged, this, [this](double lambda) {
        if (!same(m_panel->lambdaControl()->value(), lambda))
            m_panel->lambdaControl()->setValue(lambda);
    });
    connect(panel->lambdaControl(), &LambdaControl::valueChanged, this, [this](double lambda) {
        if (!same(m_lambda->value(), lambda)) m_lambda->setValue(lambda);
    });
    connect(m_epsilon, &EpsilonControl::valueChanged, this, [this](double epsilon) {
        if (!same(m_panel->epsilonControl()->value(), epsilon))
            m_panel->epsilonControl()->setValue(epsilon);
    });
    connect(panel->epsilonControl(), &EpsilonControl::valueChanged, this, [this](double epsilon) {
        if (!same(m_epsilon->value(), epsilon)) m_epsilon->setValue(epsilon);
    });
    connect(m_live, &QAction::toggled, panel->liveModeBox(), &QCheckBox::setChecked);
    connect(panel->liveModeBox(), &QCheckBox::toggled, m_live, &QAction::setChecked);
    connect(panel, &ExperimentPanel::configChanged, this, &PresenterControls::followAlgorithm);
    hide();
}

void PresenterControls::followAlgorithm() {
    const std::string name = m_panel->algorithmBox()->currentData().toString().toStdString();
    if (const pfa::Algorithm* algorithm = pfa::findAlgorithmOrNull(name)) {
        m_lambda->setFairnessAvailable(algorithm->usesFairness());
        m_epsilon->setPrivacyAvailable(algorithm->supportsPrivacy());
    }
}

}  // namespace pfa::ui
