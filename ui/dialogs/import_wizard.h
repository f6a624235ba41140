#pragma once

#include <QWizard>
#include <memory>
#include <vector>

#include "core/data/file_preview.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"
#include "ui/support/background.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QTableWidget;

namespace pfa::ui {

class GroupBarChart;

/// Imports the user's own CSV/TSV/ARFF file in three steps:
///  1. File: choose it (Browse, or type the path and press Enter); a preview (read off the GUI
///     thread, first MB only) shows the detected format, delimiter, header and first rows;
///     delimiter, header and missing-value token can be overridden. Rows with the wrong number
///     of fields are listed by line; Next needs the choice to skip them (recorded in the schema
///     and with every run on the data).
///  2. Columns: the role of every column (numeric or categorical feature, ignore, target,
///     sensitive, user id), the positive value of the target (or multi-class), the
///     intersectional groups the sensitive column(s) form, and what to do with missing values.
///     A sensitive column with many values (an age) is flagged; a numeric one can be split into
///     two groups at its median, a threshold saved in the schema.
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
    /// The rows of the file the preview found with the wrong number of fields: "line 202 has 9
    /// fields, expected 15" per listed row (empty when there are none).
    QStringList badRowLines() const;
    /// Ticks or clears "Skip N bad rows" (tests; the user clicks the box).
    void setSkipBadRows(bool skip);
    /// The warning about the sensitive column(s) on page 2 (empty when there is none).
    QString sensitiveWarning() const;
    /// True when page 2 offers to split a numeric sensitive column at its median.
    bool binningOffered() const;
    /// Accepts or declines that offer (tests; the user clicks the box).
    void setBinSensitive(bool bin);
    /// Result of the last full check: empty when it succeeded.
    QString checkError() const { return m_checkError; }
    bool checkSucceeded() const { return m_checked; }
    /// The text of page 3 after the full check (plain text, for tests).
    QString checkSummary() const;
    /// Starts the full read of page 3 (normally when the page is shown).
    void runCheck();

signals:
    void previewReady();
    /// The chosen file cannot be previewed (`error` says why, as page 1 shows it).
    void previewFailed(const QString& error);
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
    void showBadRows();
    /// The single sensitive column that a median split would bin, or -1.
    int binnableSensitiveColumn() const;
    /// The group a previewed cell of the binned column falls in ("age < 50").
    QString binLabel(int column, const QString& cell) const;
    void updateSensitiveWarning(const std::vector<int>& sensitive);
    void loadTypedPath();

    // File page.
    QLineEdit* m_path = nullptr;
    QLabel* m_format = nullptr;
    QComboBox* m_delimiter = nullptr;
    QCheckBox* m_header = nullptr;
    QLineEdit* m_missing = nullptr;
    QTableWidget* m_previewTable = nullptr;
    QLabel* m_badRows = nullptr;
    QCheckBox* m_skipBad = nullptr;
    // Columns page.
    QTableWidget* m_columns = nullptr;
    QComboBox* m_positive = nullptr;
    QComboBox* m_missingPolicy = nullptr;
    QLabel* m_groups = nullptr;
    QLabel* m_sensitiveWarning = nullptr;
    QCheckBox* m_bin = nullptr;
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
