#pragma once

#include <QAction>
#include <QByteArray>
#include <QFont>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>
#include <vector>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace pfa::ui {

/// View → Presentation mode: one checkable switch (F5) for a projector. On: every chart is
/// drawn chart_style::kPresentationFactor times larger (fonts, lines, markers), the window
/// goes full screen and shows only the live charts, the tradeoff chart (or the sweep views, if
/// they were on show), the run controls and the presenter's λ, ε and live-mode controls (the
/// other docks, the menu and status bars are hidden), with a "Leave presentation" button;
/// Esc or the switch leaves. Off: the window's exact previous geometry, window state and
/// dock/toolbar layout come back (saved with saveGeometry/saveState on entering).
class PresentationMode : public QObject {
    Q_OBJECT
public:
    /// `keep`: the dock that stays beside the central widget (the tradeoff chart; or the dock
    /// tabbed with it that is on show, e.g. the sweep views); `enlarge`: widgets whose own fonts
    /// (labels, combo boxes) grow with the charts; `presenter`: shown, enlarged, while
    /// presenting only (the λ, ε and live-mode controls the settings panel has otherwise).
    PresentationMode(QMainWindow* window, QDockWidget* keep, std::vector<QWidget*> enlarge,
                     QWidget* presenter = nullptr);

    /// The checkable View-menu action (also on the window itself, so that its shortcut works
    /// while the menu bar is hidden).
    QAction* action() const { return m_action; }
    bool isActive() const { return m_active; }
    void setActive(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void enter();
    void leave();

    QMainWindow* m_window;
    QPointer<QDockWidget> m_keep;
    QPointer<QDockWidget> m_shown;  ///< the dock kept while presenting (m_keep or its shown tab)
    QPointer<QWidget> m_presenter;
    std::vector<QPointer<QWidget>> m_enlarge;
    QAction* m_action;
    QAction* m_leaveAction;  ///< Esc, and a button on the toolbars shown while presenting
    std::vector<QPointer<QWidget>> m_toolbarsWithLeave;
    bool m_active = false;

    // What enter() found, for leave().
    QByteArray m_geometry;
    QRect m_normalRect;
    QByteArray m_state;
    Qt::WindowStates m_windowState;
    bool m_wasVisible = false;
    bool m_menuBarVisible = true;
    bool m_statusBarVisible = true;
    struct SavedFont {
        QPointer<QWidget> widget;
        QFont font;
        bool own = false;  ///< the widget had its own font (else it inherited one)
    };
    std::vector<SavedFont> m_fonts;
    struct SavedShortcuts {
        QPointer<QAction> action;
        QList<QKeySequence> shortcuts;
    };
    std::vector<SavedShortcuts> m_escapeActions;  ///< actions that had Esc before entering
};

}  // namespace pfa::ui
