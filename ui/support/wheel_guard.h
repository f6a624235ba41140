#pragma once

#include <QObject>

namespace pfa::ui {

/// Keeps the mouse wheel from changing a value by accident: over a slider, spin box or combo
/// box that does not have the keyboard focus, the wheel scrolls what holds it (the settings
/// panel) instead, as in well-behaved Qt applications. Once the control has the focus (a click
/// or Tab), the wheel changes its value as usual. Such controls no longer take the focus from
/// the wheel itself. Scroll bars keep their wheel. Installed on the application by
/// configureApplication(); in live mode a stray wheel would otherwise start runs and charge the
/// privacy ledger.
class WheelGuard : public QObject {
    Q_OBJECT
public:
    explicit WheelGuard(QObject* parent = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace pfa::ui
