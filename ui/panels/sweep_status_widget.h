#pragma once

#include <QWidget>

#include "core/sweep/sweep_runner.h"

class QLabel;
class QProgressBar;

namespace pfa::ui {

/// The status-bar strip of a running sweep: runs done of the total, failures, the time left,
/// and a Stop button. Visible only while the sweep runs. It knows no controller: the window
/// connects it to the sweep (connectSweepStatus, ui/shell/panel_wiring.h).
class SweepStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepStatusWidget(QWidget* parent = nullptr);

    /// "Sweep: 3 of 8 runs done, 0 failed, about 12 s left" (tests).
    QString text() const;

    /// A sweep of `runs` runs started: shows the strip.
    void start(int runs);
    /// The sweep's progress.
    void showProgress(const pfa::SweepProgress& progress);
    /// The sweep ended: hides the strip.
    void finish();

signals:
    /// The user pressed Stop.
    void stopRequested();

private:
    QLabel* m_label;
    QProgressBar* m_bar;
};

}  // namespace pfa::ui
