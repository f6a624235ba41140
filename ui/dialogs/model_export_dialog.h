#pragma once

#include <QDialog>
#include <QString>

#include "core/sweep/saved_model.h"
#include "ui/runs/run_entry.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace pfa::ui {

/// File → Export model of selected run…: says what the model file will hold, what of it is not
/// protected (labelled so in the file too) and what is left out; offers the labelled extras
/// (test metrics, training diagnostics) and the file name. For a private run whose noise came
/// from its seed it warns that the guarantee assumes the seed stays secret, and makes
/// training the run again with secure noise the default button ("Export anyway" writes this
/// run's model without its seed). Opened with open(); it never writes itself: exportRequested
/// and rerunRequested say what the user chose.
class ModelExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `rerunProblem`: why the run cannot be trained again here ("" when it can).
    ModelExportDialog(RunEntryPtr entry, const QString& path, const QString& rerunProblem,
                      QWidget* parent = nullptr);

    RunEntryPtr entry() const { return m_entry; }
    pfa::ModelExportOptions options() const;
    void setOptions(const pfa::ModelExportOptions& options);
    QString path() const;
    /// Shows why the last export failed (the dialog stays open).
    void showError(const QString& error);

    // For tests.
    QCheckBox* testMetricsBox() const { return m_testMetrics; }
    QCheckBox* diagnosticsBox() const { return m_diagnostics; }
    QLineEdit* pathEdit() const { return m_path; }
    QPushButton* exportButton() const { return m_export; }
    /// Null unless the run's noise came from its seed.
    QPushButton* rerunButton() const { return m_rerun; }
    /// The seeded-noise warning (null unless the run's noise came from its seed).
    QLabel* warningLabel() const { return m_warning; }
    /// What the file holds, what of it is not protected, what is left out (plain text).
    QString contentsText() const;

signals:
    /// Export (or, for seeded noise, "Export anyway") was clicked with a file name.
    void exportRequested();
    /// "Train again with secure noise" was clicked.
    void rerunRequested();

private:
    void refreshContents();
    void browse();

    RunEntryPtr m_entry;
    QLabel* m_holds;
    QLabel* m_notProtected;
    QLabel* m_leftOut;
    QLabel* m_warning = nullptr;
    QLabel* m_error;
    QCheckBox* m_testMetrics;
    QCheckBox* m_diagnostics;
    QLineEdit* m_path;
    QPushButton* m_export;
    QPushButton* m_rerun = nullptr;
};

}  // namespace pfa::ui
