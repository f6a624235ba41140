// The fairness weight λ on a logarithmic scale: the experiment panel's slider and spin box,
// and the λ presets and generators of the sweep dialog.
#include "ui/panels/lambda_control.h"

#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPushButton>
#include <QSlider>
#include <QStyleOptionSlider>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/util/number_list.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui/panels/epsilon_control.h"
#include "ui_test_support.h"

namespace ui_lambda_control_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// A control as a user meets it: shown, with '.' as the decimal point whatever the machine's
/// locale, so the texts below are predictable.
struct ShownControl {
    ShownControl() {
        control.spinBox()->setLocale(QLocale::c());
        control.resize(300, control.sizeHint().height());
        control.show();
        QTest::qWait(20);
    }
    LambdaControl control;
};

/// The centre of the slider's handle, in slider coordinates.
QPoint handleCentre(QSlider* slider) {
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = slider->sliderPosition();
    option.sliderValue = slider->value();
    return slider->style()
        ->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider)
        .center();
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
    const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
    QMouseEvent event(type, at, widget->mapToGlobal(at), button, buttons, Qt::NoModifier);
    QApplication::sendEvent(widget, &event);
}

QPushButton* buttonWithText(QWidget& parent, const QString& text) {
    for (QPushButton* button : parent.findChildren<QPushButton*>()) {
        if (button->text() == text) return button;
    }
    FAIL("no button " << text.toStdString());
    return nullptr;
}

}  // namespace

TEST_CASE("Lambda slider: leftmost is exactly 0, rightmost 10^4, decades land on powers of ten",
          "[ui][lambda]") {
    ShownControl shown;
    LambdaControl& control = shown.control;
    QSlider* slider = control.slider();
    CHECK(slider->minimum() == 0);
    CHECK(slider->maximum() == LambdaControl::lastPosition());
    slider->setValue(slider->minimum());
    CHECK(control.value() == 0.0);
    CHECK(control.spinBox()->text().toStdString() == std::string("0"));
    slider->setValue(slider->minimum() + 1);
    CHECK(control.value() == 0.001);
    CHECK(control.spinBox()->text().toStdString() == std::string("0.001"));
    slider->setValue(slider->maximum());
    CHECK(control.value() == 10000.0);
    CHECK(control.spinBox()->text().toStdString() == std::string("10000"));
    // One decade per kPositionsPerDecade positions, each starting on 10^k exactly.
    for (int decade = 0; decade <= 7; ++decade) {
        const int position = 1 + decade * LambdaControl::kPositionsPerDecade;
        INFO("decade " << decade);
        CHECK(LambdaControl::lambdaAt(position) == std::pow(10.0, decade - 3));
    }
    CHECK(LambdaControl::lambdaAt(62) == 1.1);
    CHECK(LambdaControl::lambdaAt(63) == 1.25);
    CHECK(LambdaControl::lambdaAt(41 + 9) == 0.275);
}

TEST_CASE("Lambda slider: positions map to λ monotonically, log-uniformly and back",
          "[ui][lambda]") {
    for (int position = 1; position <= LambdaControl::lastPosition(); ++position) {
        INFO("position " << position);
        const double previous = LambdaControl::lambdaAt(position - 1);
        const double lambda = LambdaControl::lambdaAt(position);
        REQUIRE(lambda > previous);
        if (position > 1) {
            CHECK(lambda / previous >= 1.06);  // about 20 positions per decade, none wasted ...
            CHECK(lambda / previous <= 1.17);  // ... and no big jumps
        }
        CHECK(LambdaControl::positionFor(lambda) == position);
        // Readable: at most three significant digits (1.25, 2.75, 0.0011).
        CHECK(std::fabs(pfa::roundToSignificantDigits(lambda, 3) - lambda) <= 1e-12 * lambda);
    }
    CHECK(LambdaControl::positionFor(0.0) == 0);
    CHECK(LambdaControl::positionFor(1e-6) == 1);  // tiny but not 0: the smallest positive position
    CHECK(LambdaControl::positionFor(1e9) == LambdaControl::lastPosition());
    CHECK(LambdaControl::positionFor(333) ==
          LambdaControl::positionFor(350));  // nearest on the log scale
}

TEST_CASE("Lambda slider: dragging the handle right raises λ step by step", "[ui][lambda]") {
    ShownControl shown;
    LambdaControl& control = shown.control;
    QSlider* slider = control.slider();
    control.setValue(0.0);
    QSignalSpy dragged(&control, &LambdaControl::sliderDragged);
    QPoint at = handleCentre(slider);
    sendMouse(slider, QEvent::MouseButtonPress, at, Qt::LeftButton);
    REQUIRE(slider->isSliderDown());
    std::vector<double> seen;
    while (at.x() < slider->width() + 10) {
        at.rx() += 7;
        sendMouse(slider, QEvent::MouseMove, at, Qt::LeftButton);
        seen.push_back(control.value());
    }
    sendMouse(slider, QEvent::MouseButtonRelease, at, Qt::NoButton);
    REQUIRE(seen.size() > 10);
    CHECK(seen.front() > 0.0);
    for (std::size_t i = 1; i < seen.size(); ++i) CHECK(seen[i] >= seen[i - 1]);
    CHECK(seen.back() == 10000.0);
    CHECK(dragged.count() >= 10);
    CHECK(dragged.last().at(0).toDouble() == 10000.0);
}

TEST_CASE("Lambda spin box: small values show significant digits and move the slider",
          "[ui][lambda]") {
    ShownControl shown;
    LambdaControl& control = shown.control;
    QSignalSpy changed(&control, &LambdaControl::valueChanged);
    control.setValue(0.002);
    CHECK(control.value() == 0.002);
    CHECK(control.spinBox()->text().toStdString() == std::string("0.002"));
    CHECK(control.slider()->value() == LambdaControl::positionFor(0.002));
    CHECK(control.slider()->value() > 0);
    CHECK(changed.count() == 1);
    CHECK(changed.last().at(0).toDouble() == 0.002);

    control.setValue(0.00123456);
    CHECK(control.spinBox()->text().toStdString() == std::string("0.001235"));
    CHECK(control.value() == 0.001235);  // what it shows is what it is
    control.setValue(1234.56);
    CHECK(control.spinBox()->text().toStdString() == std::string("1235"));
    control.setValue(0.5);
    CHECK(control.spinBox()->text().toStdString() == std::string("0.5"));
    control.setValue(250000);
    CHECK(control.value() == 10000.0);  // the top of the range
    control.setValue(-1);
    CHECK(control.value() == 0.0);

    // Typing an exact value: the slider follows to the nearest position.
    QDoubleSpinBox* spin = control.spinBox();
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("0.0125"));
    CHECK(control.value() == 0.0125);
    CHECK(control.slider()->value() == LambdaControl::positionFor(0.0125));
    CHECK(LambdaControl::lambdaAt(control.slider()->value()) == 0.0125);
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("3.14159"));
    QTest::keyClick(spin, Qt::Key_Return);
    CHECK(control.value() == 3.142);  // read to four significant digits
}

TEST_CASE(
    "Lambda spin box: the arrows multiply (1, 1.25, 1.5, 2, 2.5 …), 0 is one step below 0.001",
    "[ui][lambda]") {
    ShownControl shown;
    LambdaControl& control = shown.control;
    QDoubleSpinBox* spin = control.spinBox();
    control.setValue(1.0);
    std::vector<double> up;
    for (int i = 0; i < 11; ++i) {
        spin->stepUp();
        up.push_back(control.value());
    }
    CHECK(up == std::vector<double>{1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10, 12.5});
    CHECK(control.slider()->value() == LambdaControl::positionFor(12.5));
    spin->stepBy(-10);  // Page Down: a decade
    CHECK(control.value() == 1.25);
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_Down);
    CHECK(control.value() == 1.0);
    QTest::keyClick(spin, Qt::Key_Down);
    CHECK(control.value() == 0.8);
    // Between series values, a step goes to the neighbour in that direction.
    control.setValue(1.1);
    spin->stepUp();
    CHECK(control.value() == 1.25);
    control.setValue(1.1);
    spin->stepDown();
    CHECK(control.value() == 1.0);
    // The ends: 0 ↔ 0.001, and 10⁴ is the top.
    control.setValue(0.001);
    spin->stepDown();
    CHECK(control.value() == 0.0);
    CHECK(control.slider()->value() == 0);
    spin->stepDown();
    CHECK(control.value() == 0.0);
    spin->stepUp();
    CHECK(control.value() == 0.001);
    control.setValue(8000);
    spin->stepBy(3);
    CHECK(control.value() == 10000.0);
    // Adding a constant (the old single step of 0.25) would have given these:
    control.setValue(0.01);
    spin->stepUp();
    CHECK(control.value() == 0.0125);
}

TEST_CASE("Lambda control: fairness off means λ = 0 and a disabled control", "[ui][lambda]") {
    ShownControl shown;
    LambdaControl& control = shown.control;
    control.setValue(40.0);
    control.setFairnessAvailable(false);
    CHECK(control.value() == 0.0);
    CHECK_FALSE(control.slider()->isEnabled());
    CHECK_FALSE(control.spinBox()->isEnabled());
    control.setFairnessAvailable(true);
    CHECK(control.value() == 40.0);
}

TEST_CASE("Lambda control: the experiment panel stays as narrow, screenshot",
          "[ui][lambda][screenshot]") {
    auto window = readyWindow(5);
    window->resize(1280, 760);
    ExperimentPanel* panel = window->experimentPanel();
    LambdaControl* control = panel->lambdaControl();
    control->setValue(0.002);
    QTest::qWait(50);
    // The λ row needs no more width than the ε row above it, so the panel (which must fit a
    // 1280-pixel window beside the charts) is no wider than before.
    std::printf("heights: lambda %d, spin %d, slider %d\n", control->sizeHint().height(),
                control->spinBox()->sizeHint().height(), control->slider()->sizeHint().height());
    std::printf("minimum widths: panel %d, epsilon %d, lambda %d (spin %d)\n",
                panel->minimumSizeHint().width(),
                panel->epsilonControl()->minimumSizeHint().width(),
                control->minimumSizeHint().width(), control->spinBox()->minimumSizeHint().width());
    // λ has a row of its own across the form (label and spin box above the slider): no wider
    // than the ε row with its label.
    QFormLayout* form = panel->settingsForm()->formLayout();
    QWidget* epsilonLabel = form->labelForField(panel->epsilonControl());
    REQUIRE(epsilonLabel != nullptr);
    CHECK(control->minimumSizeHint().width() <=
          epsilonLabel->minimumSizeHint().width() + form->horizontalSpacing() +
              panel->epsilonControl()->minimumSizeHint().width());
    // A short drag is a small step: the seven decades get the form's whole width (it was
    // about 130 pixels, 19 per decade, beside the label and the spin box).
    const double perDecade = control->slider()->width() / 7.0;
    std::printf("λ slider %d px: %.1f px per decade\n", control->slider()->width(), perDecade);
    CHECK(perDecade >= 35.0);
    CHECK(control->slider()->width() >= form->geometry().width() - 10);
    REQUIRE(panel->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/lambda-control.png")));
    REQUIRE(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/lambda-main-window-1280.png")));
    // Wider, the scale labels more decades.
    ShownControl wide;
    wide.control.resize(460, wide.control.sizeHint().height());
    wide.control.setValue(250);
    QTest::qWait(20);
    REQUIRE(
        wide.control.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/lambda-control-wide.png")));
}

TEST_CASE("Sweep dialog: λ presets and log:/lin: generators expand to the values that run",
          "[ui][lambda][sweep]") {
    pfa::TrainConfig base;
    SweepDialog dialog(base, QStringLiteral("Synthetic"), 7500, 8, 0.01, nullptr);
    dialog.show();
    QTest::qWait(20);
    dialog.epsilonEdit()->setText(QStringLiteral("1"));

    QTest::mouseClick(buttonWithText(dialog, QStringLiteral("10⁻³ … 10⁴ (log)")), Qt::LeftButton);
    CHECK(dialog.lambdaEdit()->text().toStdString() == "0, log:0.001:10000:8");
    CHECK(dialog.problem().isEmpty());
    CHECK(dialog.spec().lambdas ==
          std::vector<double>{0, 0.001, 0.01, 0.1, 1, 10, 100, 1000, 10000});
    CHECK(dialog.lambdaValuesLabel()->text().toStdString() ==
          "= 0, 0.001, 0.01, 0.1, 1, 10, 100, 1000, 10000 (9 values)");
    CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("45 runs")));  // 9 λ × 5 seeds

    QTest::mouseClick(buttonWithText(dialog, QStringLiteral("0.01 … 100 (log)")), Qt::LeftButton);
    CHECK(dialog.spec().lambdas ==
          std::vector<double>{0, 0.01, 0.03162, 0.1, 0.3162, 1, 3.162, 10, 31.62, 100});
    REQUIRE(dialog.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/sweep-dialog-lambda-log.png")));

    QPushButton* lambdaPaper = nullptr;  // the ε row has a "Paper" button too
    for (QPushButton* button : dialog.findChildren<QPushButton*>()) {
        if (button->text() == QStringLiteral("Paper") &&
            button->toolTip().contains(QStringLiteral("λ")))
            lambdaPaper = button;
    }
    REQUIRE(lambdaPaper != nullptr);
    QTest::mouseClick(lambdaPaper, Qt::LeftButton);
    CHECK(dialog.spec().lambdas == std::vector<double>{0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5});
    CHECK(dialog.lambdaValuesLabel()->text().contains(
        QStringLiteral("log:FROM:TO:COUNT")));  // the syntax hint

    // Typed generators, mixed with plain numbers; a repeated 0 runs once.
    dialog.lambdaEdit()->setText(QStringLiteral("0, lin:0:2.5:11"));
    CHECK(dialog.spec().lambdas.size() == 11);
    dialog.lambdaEdit()->setText(QStringLiteral("0,log:0.01:100:5"));
    CHECK(dialog.spec().lambdas == std::vector<double>{0, 0.01, 0.1, 1, 10, 100});
    CHECK(dialog.summaryLabel()->text().contains(QStringLiteral("30 runs")));
    // A long grid is shown by its ends.
    dialog.lambdaEdit()->setText(QStringLiteral("log:1:1000:31"));
    const std::string longGrid = dialog.lambdaValuesLabel()->text().toStdString();
    CHECK_THAT(longGrid, Catch::StartsWith("= 1, 1.259, 1.585, 1.995, 2.512, …, ") &&
                             Catch::EndsWith(", 631, 794.3, 1000 (31 values)"));

    // Mistakes are named in one line and block the start.
    dialog.lambdaEdit()->setText(QStringLiteral("0, log:0:100:5"));
    CHECK(dialog.problem().toStdString() ==
          "λ: 'log:0:100:5': log-spaced values need bounds above 0 (got 0).");
    CHECK_FALSE(dialog.startButton()->isEnabled());
    dialog.lambdaEdit()->setText(QStringLiteral("log:0.01:100:1"));
    CHECK(dialog.problem().contains(
        QStringLiteral("the count '1' must be a whole number from 2 to 1000")));
    dialog.lambdaEdit()->setText(QStringLiteral("lin:0:1:1000, 5"));
    CHECK(dialog.problem().contains(QStringLiteral("more than 1000 values")));
    // The ε field and the extra axis read the same lists.
    dialog.lambdaEdit()->setText(QStringLiteral("1"));
    dialog.epsilonEdit()->setText(QStringLiteral("log:0.1:10:3"));
    CHECK(dialog.problem().isEmpty());
    CHECK(dialog.spec().epsilons == std::vector<double>{0.1, 1, 10});
}

}  // namespace ui_lambda_control_test
