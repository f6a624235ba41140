#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;

namespace pfa::ui {

class SweepController;

/// The status-bar strip of a running sweep: runs done of the total, failures, the time left,
/// and a Stop button. Visible only while the sweep runs.
class SweepStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit SweepStatusWidget(SweepController* sweep, QWidget* parent = nullptr);

    /// "Sweep: 3 of 8 runs done, 0 failed, about 12 s left" (tests).
    QString text() const;

private:
    QLabel* m_label;
    QProgressBar* m_bar;
};

}  // namespace pfa::ui
