#pragma once

#include <QDialog>
#include <functional>
#include <optional>

#include "core/audit/privacy_audit.h"
#include "core/sweep/run_record.h"
#include "ui/support/background.h"

class QBarSet;
class QBarCategoryAxis;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace pfa::ui {

class ChartView;

/// Tools → Privacy audit: an empirical membership-inference audit of a private algorithm on the
/// built-in synthetic data (2000 rows, 1500 for training). For each target ε it trains models
/// with and without a canary record off the GUI thread (cancellable, with progress), then
/// draws the accountant's claimed ε beside the audit's lower bound, tabulates TPR/FPR with
/// their Clopper–Pearson bounds and says in words whether the claim survived. A deliberately
/// broken DP-SGD (noise ÷ k) shows what a failed claim looks like. Numbers export as CSV or
/// JSON, the chart as PNG, SVG or PDF.
class PrivacyAuditDialog : public QDialog {
    Q_OBJECT
public:
    explicit PrivacyAuditDialog(QWidget* parent = nullptr);
    ~PrivacyAuditDialog() override;

    /// The audit the controls describe (throws InputError for an unreadable ε list).
    pfa::audit::AuditOptions options() const;
    /// The last completed audit, if any.
    const std::optional<pfa::audit::AuditResult>& result() const { return m_result; }
    bool running() const { return m_task.isRunning(); }

    // For tests.
    QComboBox* algorithmBox() const { return m_algorithm; }
    QLineEdit* epsilonsEdit() const { return m_epsilons; }
    QSpinBox* modelsBox() const { return m_models; }
    QSpinBox* epochsBox() const { return m_epochs; }
    QCheckBox* brokenCheck() const { return m_broken; }
    QDoubleSpinBox* divisorBox() const { return m_divisor; }
    QPushButton* runButton() const { return m_run; }
    QTableWidget* table() const { return m_table; }
    QLabel* explanation() const { return m_explanation; }
    ChartView* chartView() const { return m_view; }
    QBarSet* claimedBars() const { return m_claimedSet; }
    QBarSet* boundBars() const { return m_boundSet; }

    /// Charges each model the audit trains (a private run on the audit's rows) to the privacy
    /// ledger; called on the audit's training threads.
    void setLedgerCharger(
        std::function<void(const pfa::RunResult&, const pfa::RunContext&)> charger) {
        m_charge = std::move(charger);
    }

    /// The result as the export buttons write it.
    QString csvText() const;
    QString jsonText() const;

signals:
    /// The audit finished, failed or was stopped.
    void auditFinished();

private:
    std::function<void(const pfa::RunResult&, const pfa::RunContext&)> m_charge;
    void toggleRun();
    void showResult(const pfa::audit::AuditResult& result);
    void exportNumbers(bool json);

    QComboBox* m_algorithm = nullptr;
    QLineEdit* m_epsilons = nullptr;
    QSpinBox* m_models = nullptr;
    QSpinBox* m_epochs = nullptr;
    QDoubleSpinBox* m_clip = nullptr;
    QDoubleSpinBox* m_confidence = nullptr;
    QCheckBox* m_broken = nullptr;
    QDoubleSpinBox* m_divisor = nullptr;
    QPushButton* m_run = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_explanation = nullptr;
    ChartView* m_view = nullptr;
    QBarSet* m_claimedSet = nullptr;
    QBarSet* m_boundSet = nullptr;
    QBarCategoryAxis* m_categories = nullptr;
    QValueAxis* m_valueAxis = nullptr;
    QPushButton* m_exportCsv = nullptr;
    QPushButton* m_exportJson = nullptr;
    QPushButton* m_exportChart = nullptr;
    std::optional<pfa::audit::AuditResult> m_result;
    BackgroundTask m_task;
};

}  // namespace pfa::ui
