#include "ui/support/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QScrollBar>
#include <QWheelEvent>
#include <QWidget>

namespace pfa::ui {

namespace {

/// A control whose value the wheel changes (not a scroll bar: scrolling is its job).
bool isValueControl(QObject* object) {
    if (qobject_cast<QScrollBar*>(object)) return false;
    return qobject_cast<QAbstractSlider*>(object) || qobject_cast<QAbstractSpinBox*>(object) ||
           qobject_cast<QComboBox*>(object);
}

}  // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent) {}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Polish && isValueControl(watched)) {
        // Wheel focus would hand the focus to the control under a scrolling wheel first.
        auto* widget = static_cast<QWidget*>(watched);
        if (widget->focusPolicy() == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (event->type() != QEvent::Wheel || !isValueControl(watched)) return false;
    auto* control = static_cast<QWidget*>(watched);
    if (control->hasFocus()) return false;
    // Up the parents until one takes it (the scroll area's viewport), with the position in
    // each one's coordinates; never to another value control.
    const auto* wheel = static_cast<QWheelEvent*>(event);
    for (QWidget* parent = control->parentWidget(); parent; parent = parent->parentWidget()) {
        if (isValueControl(parent)) continue;
        QWheelEvent forwarded(control->mapTo(parent, wheel->position()), wheel->globalPosition(),
                              wheel->pixelDelta(), wheel->angleDelta(), wheel->buttons(),
                              wheel->modifiers(), wheel->phase(), wheel->inverted(),
                              wheel->source());
        forwarded.ignore();
        QCoreApplication::sendEvent(parent, &forwarded);
        if (forwarded.isAccepted()) break;
    }
    return true;
}

}  // namespace pfa::ui
