#pragma once

#include <QDialog>
#include <functional>
#include <optional>

#include "core/audit/privacy_audit.h"
#include "core/privacy/dataset_ledger.h"
#include "core/sweep/prepared_dataset.h"
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

/// A run the audit can target: its resolved settings and the data set it was trained on.
struct AuditedRun {
    QString name;  ///< e.g. "run 12"
    pfa::TrainConfig config;
    pfa::PreparedDatasetPtr data;
};

/// Tools → Privacy audit (or a tradeoff point's "Audit this run's privacy claim…"): an
/// empirical audit of a private algorithm, either with settings chosen here on the built-in
/// synthetic data (2000 rows, 1500 for training) or with a run's settings on that run's data.
/// Three designs (pfa::audit::AuditMethod): many models with and without one canary, one run
/// with many input canaries, and the white-box one run with gradient canaries. It trains off
/// the GUI thread (cancellable, with progress), then draws the accountant's claimed ε beside
/// the audit's lower bound, tabulates the attack's evidence (TPR/FPR with their
/// Clopper–Pearson bounds, or the right guesses) and says in words whether the claim survived.
/// A deliberately broken DP-SGD (noise ÷ k) shows what a failed claim looks like. Numbers
/// export as CSV or JSON (with everything that reproduces the audit), the chart as PNG, SVG or
/// PDF.
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

    /// Audits `run`: its algorithm and every setting (ε from the ε list, which starts at the
    /// run's), on its data set.
    void setAuditedRun(const AuditedRun& run);
    /// Back to settings chosen here on the built-in synthetic data.
    void clearAuditedRun();
    const std::optional<AuditedRun>& auditedRun() const { return m_auditedRun; }

    // For tests.
    QComboBox* algorithmBox() const { return m_algorithm; }
    QComboBox* methodBox() const { return m_method; }
    QSpinBox* canariesBox() const { return m_canaries; }
    QLabel* targetLabel() const { return m_target; }
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

    /// Charges the models the audit trains (each a private run on the audit's rows) to the
    /// privacy ledger, in batches; called on the audit's threads.
    void setLedgerCharger(
        std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&)>
            charger) {
        m_charge = std::move(charger);
    }

    /// The result as the export buttons write it.
    QString csvText() const;
    QString jsonText() const;

signals:
    /// The audit finished, failed or was stopped.
    void auditFinished();

private:
    std::function<void(const pfa::RunContext&, const std::vector<pfa::privacy::LedgerEntry>&)>
        m_charge;
    void toggleRun();
    void showResult(const pfa::audit::AuditResult& result);
    void exportNumbers(bool json);
    void updateMethodControls();
    void updateTarget();

    std::optional<AuditedRun> m_auditedRun;
    QString m_resultDataset;  ///< the data set of the shown result, for its JSON
    QLabel* m_target = nullptr;
    QPushButton* m_builtIn = nullptr;
    QComboBox* m_method = nullptr;
    QSpinBox* m_canaries = nullptr;
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
