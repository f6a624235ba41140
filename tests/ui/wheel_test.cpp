// The mouse wheel over the settings panel scrolls it: over an unfocused slider, spin box or
// combo box it changes no value (in live mode it would start runs and charge the ledger); once
// the control has the focus the wheel changes its value, as in well-behaved Qt applications.
#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QWheelEvent>
#include <catch2/catch.hpp>

#include "ui/panels/epsilon_control.h"
#include "ui/panels/experiment_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_wheel_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// One notch of the wheel (towards the user: scrolls down) over the middle of `widget`.
void wheelOver(QWidget* widget, int notches = -1) {
    const QPointF centre = QRectF(widget->rect()).center();
    QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120 * notches),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &wheel);
}

QScrollArea* scrollAreaOf(QWidget* widget) {
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(w)) return area;
    }
    return nullptr;
}

}  // namespace

TEST_CASE(
    "The wheel over an unfocused slider or spin box scrolls the settings panel and "
    "changes no value, in live mode too",
    "[ui][wheel]") {
    auto window = readyWindow();
    window->resize(1280, 720);
    QTest::qWait(100);
    ExperimentPanel* panel = window->experimentPanel();
    QSlider* epsilon = panel->epsilonControl()->slider();
    QSpinBox* epochs = panel->epochsBox();
    QScrollArea* area = scrollAreaOf(panel);
    REQUIRE(area);
    if (!panel->advancedToggle()->isChecked()) panel->advancedToggle()->click();
    QTest::qWait(100);
    QScrollBar* bar = area->verticalScrollBar();
    REQUIRE(bar->maximum() > 0);  // with its advanced section open, the panel scrolls at 720 px
    panel->liveModeBox()->setChecked(true);
    const std::size_t runs = window->historyModel()->entries().size();
    const double epsilonBefore = panel->config().epsilon;
    const int epsilonPosition = epsilon->value();
    const int epochsBefore = epochs->value();
    bar->setValue(0);
    window->setFocus();
    REQUIRE_FALSE(epsilon->hasFocus());

    wheelOver(epsilon);
    CHECK(epsilon->value() == epsilonPosition);
    CHECK_FALSE(epsilon->hasFocus());  // the wheel does not hand it the focus either
    const int scrolled = bar->value();
    CHECK(scrolled > 0);  // the panel scrolled instead
    wheelOver(epochs);
    CHECK(epochs->value() == epochsBefore);
    CHECK(bar->value() > scrolled);
    for (QComboBox* box : panel->findChildren<QComboBox*>()) {
        if (!box->isVisible() || box->hasFocus()) continue;
        const int index = box->currentIndex();
        wheelOver(box);
        CHECK(box->currentIndex() == index);
    }
    QTest::qWait(800);  // longer than live mode's debounce
    REQUIRE(window->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/wheel-scrolls-panel-1280x720.png")));
    CHECK(panel->config().epsilon == epsilonBefore);
    CHECK(window->historyModel()->entries().size() == runs);  // no run started

    // With the focus (a click, or Tab), the wheel sets the value as usual.
    panel->liveModeBox()->setChecked(false);
    epochs->setFocus();
    REQUIRE(epochs->hasFocus());
    wheelOver(epochs, 1);
    CHECK(epochs->value() == epochsBefore + 1);
    epsilon->setFocus();
    wheelOver(epsilon, 1);
    CHECK(epsilon->value() != epsilonPosition);
}

}  // namespace ui_wheel_test
