#include "ui/shell/presentation_mode.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QToolBar>

#include "ui/charts/chart_style.h"

namespace pfa::ui {

PresentationMode::PresentationMode(QMainWindow* window, QDockWidget* keep,
                                   std::vector<QWidget*> enlarge, QWidget* presenter)
    : QObject(window), m_window(window), m_keep(keep), m_presenter(presenter) {
    for (QWidget* widget : enlarge) m_enlarge.emplace_back(widget);
    m_action = new QAction(tr("&Presentation mode"), this);
    m_action->setObjectName(QStringLiteral("presentationAction"));
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::Key_F5));
    m_action->setShortcutContext(Qt::WindowShortcut);
    m_action->setToolTip(
        tr("For a projector: larger fonts, lines and markers, the window full "
           "screen with only the charts and the run controls. Esc or F5 "
           "leaves, and the previous layout comes back."));
    m_action->setStatusTip(m_action->toolTip());
    // On the window too: its shortcut must work while the menu bar is hidden.
    window->addAction(m_action);
    connect(m_action, &QAction::toggled, this, &PresentationMode::setActive);

    m_leaveAction = new QAction(tr("Leave presentation (Esc)"), this);
    m_leaveAction->setObjectName(QStringLiteral("leavePresentationAction"));
    m_leaveAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_leaveAction->setShortcutContext(Qt::WindowShortcut);
    m_leaveAction->setToolTip(tr("Back to the usual window: docks, menus and sizes as before"));
    m_leaveAction->setEnabled(false);  // Esc belongs to the window's widgets otherwise
    window->addAction(m_leaveAction);
    connect(m_leaveAction, &QAction::triggered, this, [this] { setActive(false); });

    // Closing in presentation mode: the usual layout is what gets saved for the next start.
    window->installEventFilter(this);
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::Close && m_active) setActive(false);
    return QObject::eventFilter(watched, event);
}

void PresentationMode::setActive(bool on) {
    if (on == m_active) return;
    m_active = on;
    if (m_action->isChecked() != on) {
        const QSignalBlocker block(m_action);
        m_action->setChecked(on);
    }
    if (on)
        enter();
    else
        leave();
}

void PresentationMode::enter() {
    m_geometry = m_window->saveGeometry();
    m_normalRect = m_window->geometry();
    m_state = m_window->saveState();
    m_windowState = m_window->windowState();
    m_wasVisible = m_window->isVisible();
    m_menuBarVisible = m_window->menuBar()->isVisible();
    m_statusBarVisible = m_window->statusBar()->isVisible();

    // The dock kept: the tradeoff chart, or the one tabbed with it that is on show (F5 must
    // not switch a lecture away from the sweep views).
    // (A tab behind another counts as visible; what is on screen has a visible region.)
    m_shown = m_keep;
    if (m_keep && m_keep->visibleRegion().isEmpty()) {
        for (QDockWidget* tab : m_window->tabifiedDockWidgets(m_keep)) {
            if (!tab->visibleRegion().isEmpty()) m_shown = tab;
        }
    }
    // Everything but the charts and the run controls goes out of the way.
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        if (dock != m_shown) dock->hide();
    }
    if (m_shown) {
        m_shown->setFloating(false);
        m_shown->show();
        m_shown->raise();
        // No dock title bar: the chart has a title of its own, and the room goes to the plot.
        m_shown->setTitleBarWidget(new QWidget(m_shown));
    }
    m_window->menuBar()->hide();
    m_window->statusBar()->hide();
    m_toolbarsWithLeave.clear();
    for (QToolBar* toolbar : m_window->findChildren<QToolBar*>()) {
        if (toolbar->isHidden()) continue;
        toolbar->addAction(m_leaveAction);
        m_toolbarsWithLeave.emplace_back(toolbar);
    }
    // Esc leaves presentation mode (as everywhere on a projector); an action it belongs to
    // otherwise (Stop) keeps its toolbar button and gets Esc back on leaving.
    m_escapeActions.clear();
    for (QAction* action : m_window->findChildren<QAction*>()) {
        if (action == m_leaveAction) continue;
        QList<QKeySequence> keys = action->shortcuts();
        if (keys.removeAll(QKeySequence(Qt::Key_Escape)) == 0) continue;
        m_escapeActions.push_back({action, action->shortcuts()});
        action->setShortcuts(keys);
    }
    m_leaveAction->setEnabled(true);

    // Larger text in the panels' own widgets (legends, choosers) and the toolbars.
    m_fonts.clear();
    std::vector<QWidget*> enlarge;
    for (const QPointer<QWidget>& widget : m_enlarge)
        if (widget) enlarge.push_back(widget);
    for (const QPointer<QWidget>& toolbar : m_toolbarsWithLeave)
        if (toolbar) enlarge.push_back(toolbar);
    // The presenter's λ, ε and live mode, which the hidden settings panel has otherwise.
    if (m_presenter) {
        m_presenter->show();
        enlarge.push_back(m_presenter);
    }
    for (QWidget* widget : enlarge) {
        m_fonts.push_back({widget, widget->font(), widget->testAttribute(Qt::WA_SetFont)});
        QFont font = widget->font();
        font.setPointSizeF(font.pointSizeF() * chart_style::kPresentationFactor);
        widget->setFont(font);
    }
    chart_style::setPresentationScale(chart_style::kPresentationFactor);

    m_window->showFullScreen();
    // The charts share the screen: the tradeoff chart gets 45 % of the width (its axis title
    // is the longest).
    if (m_shown)
        m_window->resizeDocks({m_shown.data()}, {m_window->width() * 45 / 100}, Qt::Horizontal);
}

void PresentationMode::leave() {
    m_leaveAction->setEnabled(false);
    for (const QPointer<QWidget>& toolbar : m_toolbarsWithLeave)
        if (toolbar) toolbar->removeAction(m_leaveAction);
    m_toolbarsWithLeave.clear();
    for (const SavedShortcuts& saved : m_escapeActions)
        if (saved.action) saved.action->setShortcuts(saved.shortcuts);
    m_escapeActions.clear();
    for (const SavedFont& saved : m_fonts) {
        if (!saved.widget) continue;
        saved.widget->setFont(saved.own ? saved.font : QFont());
        if (!saved.own) saved.widget->setAttribute(Qt::WA_SetFont, false);
    }
    m_fonts.clear();
    chart_style::setPresentationScale(1.0);
    if (m_shown) {
        QWidget* blank = m_shown->titleBarWidget();
        m_shown->setTitleBarWidget(nullptr);
        delete blank;
    }
    if (m_presenter) m_presenter->hide();

    m_window->menuBar()->setVisible(m_menuBarVisible);
    m_window->statusBar()->setVisible(m_statusBarVisible);
    // Out of full screen first, then the saved geometry and layout exactly as they were.
    m_window->setWindowState(m_windowState);
    m_window->restoreGeometry(m_geometry);
    // restoreGeometry places the frame, and some window systems then move the client area by
    // the title bar's height: put a normal window back exactly where it was.
    if (m_windowState == Qt::WindowNoState && m_window->geometry() != m_normalRect)
        m_window->setGeometry(m_normalRect);
    m_window->restoreState(m_state);
    if (!m_wasVisible) m_window->hide();
}

}  // namespace pfa::ui
