#pragma once

#include <QWizard>
#include <memory>

#include "core/data/file_preview.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"
#include "ui/shell/background.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableWidget;

namespace pfa::ui {

class GroupBarChart;

/// Imports the user's own CSV/TSV/ARFF file in three steps:
///  1. File: choose it; a preview (read off the GUI thread, first MB only) shows the detected
///     format, delimiter, header and first rows; delimiter, header and missing-value token can
///     be overridden.
///  2. Columns: the role of every column (numeric or categorical feature, ignore, target,
///     sensitive, user id), the positive value of the target (or multi-class), the
///     intersectional groups the sensitive column(s) form, and what to do with missing values.
///  3. Check: the whole file is read off the GUI thread with progress (cancellable); the rows,
///     features, classes and groups are shown, or the exact problem (file, line, column).
/// The result is the file path and a Schema, saved with the session so the import repeats.
class ImportWizard : public QWizard {
    Q_OBJECT
public:
    explicit ImportWizard(QWidget* parent = nullptr);
    ~ImportWizard() override;

    /// The chosen file (valid after accept()).
    QString filePath() const;
    /// The reading instructions built from the choices (valid after accept()).
    pfa::Schema schema() const;

    /// Loads `path` as if chosen in the file dialog (also used by tests).
    void setFile(const QString& path);
    /// True once a preview of the chosen file is available.
    bool hasPreview() const { return m_preview != nullptr; }
    /// Sets a column's role by name: "numeric", "categorical", "ignore", "target", "sensitive",
    /// "user id" (tests and keyboard-free use).
    void setColumnRole(const QString& column, const QString& role);
    /// Selects the positive value of the target ("" = multi-class).
    void setPositiveValue(const QString& value);
    /// Result of the last full check: empty when it succeeded.
    QString checkError() const { return m_checkError; }
    bool checkSucceeded() const { return m_checked; }
    /// Starts the full read of page 3 (normally when the page is shown).
    void runCheck();

signals:
    void previewReady();
    void checkFinished(bool ok);

private:
    enum Role { RoleNumeric, RoleCategorical, RoleIgnore, RoleTarget, RoleSensitive, RoleUser };

    QWizardPage* buildFilePage();
    QWizardPage* buildColumnsPage();
    QWizardPage* buildCheckPage();
    void showPreview(const std::shared_ptr<const pfa::FilePreview>& preview, const QString& error);
    struct CheckOutcome;
    void showCheck(const CheckOutcome& outcome);
    void fillColumns();
    void updateTargetAndGroups();
    int roleOf(int column) const;
    QString validationProblem() const;

    // File page.
    QLineEdit* m_path = nullptr;
    QLabel* m_format = nullptr;
    QComboBox* m_delimiter = nullptr;
    QCheckBox* m_header = nullptr;
    QLineEdit* m_missing = nullptr;
    QTableWidget* m_previewTable = nullptr;
    // Columns page.
    QTableWidget* m_columns = nullptr;
    QComboBox* m_positive = nullptr;
    QComboBox* m_missingPolicy = nullptr;
    QLabel* m_groups = nullptr;
    QLabel* m_columnsProblem = nullptr;
    // Check page.
    QProgressBar* m_progress = nullptr;
    QLabel* m_summary = nullptr;
    GroupBarChart* m_groupChart = nullptr;

    std::shared_ptr<const pfa::FilePreview> m_preview;
    QString m_checkError;
    bool m_checked = false;
    bool m_checking = false;
    int m_previewRequest = 0;  ///< only the latest file's preview is shown
    BackgroundTask m_check;
};

}  // namespace pfa::ui
