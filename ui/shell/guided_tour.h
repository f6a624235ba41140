#pragma once

#include <QPointer>
#include <QString>
#include <QWidget>
#include <functional>
#include <vector>

class QLabel;
class QPushButton;
class QFrame;

namespace pfa::ui {

class MainWindow;

/// A guided tour of the main window: a few steps (pick data → run → move λ → move ε → read the
/// tradeoff → the teaching panel), each a bubble beside the real widget it is about, with Next,
/// Back and Skip tour. It is an overlay, not a dialog: the window stays usable while it is
/// shown (the overlay lets every mouse event through; only the bubble takes clicks).
///
/// Shown once: on a first launch (showOnFirstLaunch, called by the application's main()),
/// until the user skips or finishes it, which records `tour/seen` in QSettings; Help → Guided
/// tour reopens it at any time. The main window never starts it by itself, so windows made by
/// tests and tools never show it; PFA_NO_TOUR=1 in the environment suppresses the first-launch
/// tour of the application too (scripted screenshots, CI).
class GuidedTour : public QWidget {
    Q_OBJECT
public:
    /// The QSettings key recording that the tour was skipped or finished.
    static const char* seenKey();

    /// The tour of `window` (made on first use; a child of the window).
    static GuidedTour* of(MainWindow* window);
    /// Starts the tour of `window` shortly after it is shown, unless it was seen before or
    /// PFA_NO_TOUR is set. Returns whether it will start.
    static bool showOnFirstLaunch(MainWindow* window);

    /// Starts (or restarts) at the first step.
    void start();
    void next();
    void back();
    /// Closes the tour and records it as seen.
    void skip();

    bool isActive() const { return m_active; }
    int currentStep() const { return m_step; }  ///< 0-based
    int stepCount() const { return static_cast<int>(m_steps.size()); }
    /// The widget the current step points at (null when inactive).
    QWidget* currentTarget() const;
    QString currentTitle() const;
    QFrame* bubble() const { return m_bubble; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* skipButton() const { return m_skip; }

signals:
    /// The tour closed (skipped or finished).
    void closed();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit GuidedTour(MainWindow* window);
    struct Step {
        QString title;
        QString text;
        std::function<QWidget*()> target;
    };
    void showStep();
    /// Places the overlay over the window and the bubble beside the target.
    void place();
    /// The target's rectangle in window coordinates.
    QRect targetRect() const;
    void close(bool seen);

    MainWindow* m_window;
    std::vector<Step> m_steps;
    int m_step = 0;
    bool m_active = false;
    QPointer<QWidget> m_target;
    QFrame* m_bubble;
    QLabel* m_counter;
    QLabel* m_title;
    QLabel* m_text;
    QPushButton* m_back;
    QPushButton* m_next;
    QPushButton* m_skip;
};

}  // namespace pfa::ui
