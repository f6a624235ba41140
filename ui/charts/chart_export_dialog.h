#pragma once

#include <QDialog>

#include "ui/charts/chart_export.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace pfa::ui {

/// Export options for a paper or a slide: printed width and height (inches or centimetres),
/// font size in points, title and caption on or off, format (PNG with its DPI, SVG, PDF) and
/// the file. Remembers the last values and the last folder (QSettings, "chartExport/...").
class ChartExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ChartExportDialog(ExportableView* view, QWidget* parent = nullptr);

    /// The options as currently entered (sizes in inches whatever the unit shown).
    ExportOptions options() const;
    /// The file to write, with the format's extension.
    QString filePath() const;

    /// Checks the entries, asks before replacing a file, remembers the values and closes.
    void accept() override;

    /// The folder of the last export (if it still exists), else Documents, else home.
    static QString lastFolder();

    // The controls (tests).
    QComboBox* formatBox() const { return m_format; }
    QComboBox* unitBox() const { return m_unit; }
    QDoubleSpinBox* widthBox() const { return m_width; }
    QDoubleSpinBox* heightBox() const { return m_height; }
    QDoubleSpinBox* fontBox() const { return m_font; }
    QSpinBox* dpiBox() const { return m_dpi; }
    QCheckBox* titleBox() const { return m_title; }
    QCheckBox* captionBox() const { return m_caption; }
    QLineEdit* pathEdit() const { return m_path; }

private:
    ExportFormat format() const;
    LengthUnit unit() const;
    double unitPerInch() const;
    void unitChanged();
    void formatChanged();
    void browse();
    void updateSummary();
    void remember() const;

    ExportableView* m_view;
    QComboBox* m_format;
    QComboBox* m_unit;
    QDoubleSpinBox* m_width;
    QDoubleSpinBox* m_height;
    QDoubleSpinBox* m_font;
    QSpinBox* m_dpi;
    QCheckBox* m_title;
    QCheckBox* m_caption;
    QLineEdit* m_path;
    QLabel* m_summary;
    LengthUnit m_shownUnit = LengthUnit::Inch;
};

}  // namespace pfa::ui
