#pragma once

#include <QWidget>

#include "ui/run_entry.h"

class QLabel;
class QTableWidget;
class QTextBrowser;

namespace pfa::ui {

/// The selected run: a one-paragraph summary and its per-group table (n, base rate,
/// selection rate, TPR, FPR, accuracy on the test set).
class RunDetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunDetailsPanel(QWidget* parent = nullptr);
    void showRun(const RunEntryPtr& run);  ///< null: empty state
    QTableWidget* groupTable() const { return m_table; }

private:
    QLabel* m_summary;
    QTableWidget* m_table;
};

/// The privacy statement of the selected run, exactly as the core generated it.
class PrivacyStatementView : public QWidget {
    Q_OBJECT
public:
    explicit PrivacyStatementView(QWidget* parent = nullptr);
    void showRun(const RunEntryPtr& run);
    QString text() const;

private:
    QTextBrowser* m_text;
};

}  // namespace pfa::ui
