#include "ui/charts/chart_export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <cmath>

namespace pfa::ui {

namespace {

constexpr double kCmPerInch = 2.54;
const char* const kGroup = "chartExport";

QString settingsKey(const char* name) {
    return QStringLiteral("%1/%2").arg(QLatin1String(kGroup), QLatin1String(name));
}

}  // namespace

QString ChartExportDialog::lastFolder() {
    const QString folder = QSettings().value(settingsKey("lastFolder")).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) return folder;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    // A Documents folder that does not exist (a minimal system) would make the first export fail.
    return !documents.isEmpty() && QFileInfo(documents).isDir() ? documents : QDir::homePath();
}

ChartExportDialog::ChartExportDialog(ExportableView* view, QWidget* parent)
    : QDialog(parent), m_view(view) {
    setWindowTitle(tr("Export chart"));
    const QSettings settings;
    const ExportOptions defaults;

    m_format = new QComboBox();
    m_format->addItem(tr("PDF (vector, for LaTeX)"), static_cast<int>(ExportFormat::Pdf));
    m_format->addItem(tr("SVG (vector, for the web and editors)"),
                      static_cast<int>(ExportFormat::Svg));
    m_format->addItem(tr("PNG (image)"), static_cast<int>(ExportFormat::Png));
    m_format->setToolTip(
        tr("PDF and SVG stay sharp at any zoom; PNG is an image of the chosen DPI"));
    const int savedFormat =
        settings.value(settingsKey("format"), static_cast<int>(defaults.format)).toInt();
    m_format->setCurrentIndex(std::max(0, m_format->findData(savedFormat)));

    m_unit = new QComboBox();
    m_unit->addItem(tr("in"), static_cast<int>(LengthUnit::Inch));
    m_unit->addItem(tr("cm"), static_cast<int>(LengthUnit::Centimetre));
    m_unit->setToolTip(tr("Unit of the width and height"));
    m_shownUnit = static_cast<LengthUnit>(
        settings.value(settingsKey("unit"), static_cast<int>(LengthUnit::Inch)).toInt());
    if (m_shownUnit != LengthUnit::Centimetre) m_shownUnit = LengthUnit::Inch;
    m_unit->setCurrentIndex(m_unit->findData(static_cast<int>(m_shownUnit)));

    m_width = new QDoubleSpinBox();
    m_height = new QDoubleSpinBox();
    for (QDoubleSpinBox* box : {m_width, m_height}) {
        box->setDecimals(2);
        box->setSingleStep(0.1);
        box->setRange(0.5 * unitPerInch(), 60 * unitPerInch());
    }
    m_width->setToolTip(
        tr("Printed width of the figure: 3.3 in (8.4 cm) is one column of a two-column "
           "paper, 7 in (17.8 cm) the full page width"));
    m_height->setToolTip(tr("Printed height of the figure"));
    m_width->setValue(
        settings.value(settingsKey("widthInches"), defaults.sizeInches.width()).toDouble() *
        unitPerInch());
    m_height->setValue(
        settings.value(settingsKey("heightInches"), defaults.sizeInches.height()).toDouble() *
        unitPerInch());
    auto* aspect = new QPushButton(tr("Screen aspect"));
    aspect->setToolTip(
        tr("Sets the height so that the figure has the proportions of the chart on screen"));
    connect(aspect, &QPushButton::clicked, this, [this] {
        const QSize screen = m_view->exportSize();
        if (screen.width() > 0)
            m_height->setValue(m_width->value() * screen.height() / screen.width());
    });
    auto* widthRow = new QHBoxLayout();
    widthRow->addWidget(m_width, 1);
    widthRow->addWidget(m_unit);
    auto* heightRow = new QHBoxLayout();
    heightRow->addWidget(m_height, 1);
    heightRow->addWidget(aspect);

    m_font = new QDoubleSpinBox();
    m_font->setDecimals(1);
    m_font->setRange(4, 48);
    m_font->setSingleStep(0.5);
    m_font->setSuffix(tr(" pt"));
    m_font->setToolTip(
        tr("Size of the tick labels, the legend and the axis titles in the printed figure (8–9 pt "
           "suits most papers); the title is a little larger"));
    m_font->setValue(settings.value(settingsKey("fontPoints"), defaults.fontPoints).toDouble());

    m_dpi = new QSpinBox();
    m_dpi->setRange(36, 1200);
    m_dpi->setSingleStep(50);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("PNG only: pixels per inch (300 for print, 150 for slides)"));
    m_dpi->setValue(settings.value(settingsKey("dpi"), defaults.dpi).toInt());

    m_title = new QCheckBox(tr("Title"));
    m_title->setToolTip(
        tr("Draws the chart's title above it; papers usually put it in the caption instead"));
    m_title->setChecked(settings.value(settingsKey("showTitle"), defaults.showTitle).toBool());
    const QString caption = view->exportContext().caption;
    m_caption = new QCheckBox(caption.isEmpty() ? tr("Data set and notion")
                                                : tr("Data set and notion: %1").arg(caption));
    m_caption->setToolTip(
        caption.isEmpty() ? tr("Only the sweep charts know a single data set and notion")
                          : tr("A line under the title naming the data set and fairness notion"));
    m_caption->setEnabled(!caption.isEmpty());
    m_caption->setChecked(
        !caption.isEmpty() &&
        settings.value(settingsKey("showCaption"), defaults.showCaption).toBool());

    m_path = new QLineEdit();
    m_path->setToolTip(tr("The file to write; its extension follows the format"));
    m_path->setMinimumWidth(320);
    m_path->setText(
        QDir(lastFolder()).filePath(defaultExportFileName(view) + exportSuffix(format())));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setToolTip(tr("Choose the folder and file name"));
    connect(browse, &QPushButton::clicked, this, &ChartExportDialog::browse);
    auto* pathRow = new QHBoxLayout();
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    m_summary = new QLabel();
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet(QStringLiteral("color: palette(mid);"));

    auto* form = new QFormLayout();
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Width:"), widthRow);
    form->addRow(tr("Height:"), heightRow);
    form->addRow(tr("Font size:"), m_font);
    form->addRow(tr("Resolution:"), m_dpi);
    auto* shown = new QVBoxLayout();
    shown->addWidget(m_title);
    shown->addWidget(m_caption);
    form->addRow(tr("Show:"), shown);
    form->addRow(tr("File:"), pathRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole)->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    connect(m_format, &QComboBox::currentIndexChanged, this, &ChartExportDialog::formatChanged);
    connect(m_unit, &QComboBox::currentIndexChanged, this, &ChartExportDialog::unitChanged);
    for (QDoubleSpinBox* box : {m_width, m_height, m_font}) {
        connect(box, &QDoubleSpinBox::valueChanged, this, &ChartExportDialog::updateSummary);
    }
    connect(m_dpi, &QSpinBox::valueChanged, this, &ChartExportDialog::updateSummary);
    formatChanged();
}

ExportFormat ChartExportDialog::format() const {
    return static_cast<ExportFormat>(m_format->currentData().toInt());
}

LengthUnit ChartExportDialog::unit() const {
    return static_cast<LengthUnit>(m_unit->currentData().toInt());
}

double ChartExportDialog::unitPerInch() const {
    return m_shownUnit == LengthUnit::Centimetre ? kCmPerInch : 1.0;
}

ExportOptions ChartExportDialog::options() const {
    ExportOptions options;
    options.format = format();
    options.unit = unit();
    options.sizeInches = QSizeF(m_width->value(), m_height->value()) / unitPerInch();
    options.fontPoints = m_font->value();
    options.dpi = m_dpi->value();
    options.showTitle = m_title->isChecked();
    options.showCaption = m_caption->isEnabled() && m_caption->isChecked();
    return options;
}

QString ChartExportDialog::filePath() const { return m_path->text().trimmed(); }

void ChartExportDialog::unitChanged() {
    // Keep the size, show it in the new unit.
    const QSizeF inches = QSizeF(m_width->value(), m_height->value()) / unitPerInch();
    m_shownUnit = unit();
    for (QDoubleSpinBox* box : {m_width, m_height}) {
        const QSignalBlocker block(box);
        box->setRange(0.5 * unitPerInch(), 60 * unitPerInch());
    }
    m_width->setValue(inches.width() * unitPerInch());
    m_height->setValue(inches.height() * unitPerInch());
    updateSummary();
}

void ChartExportDialog::formatChanged() {
    m_dpi->setEnabled(format() == ExportFormat::Png);
    // The file's extension follows the format.
    QString path = filePath();
    if (!path.isEmpty()) {
        ExportFormat current;
        if (exportFormatForPath(path, &current)) path.chop(QFileInfo(path).suffix().size() + 1);
        m_path->setText(path + exportSuffix(format()));
    }
    updateSummary();
}

void ChartExportDialog::browse() {
    const QString filters[] = {tr("PNG image (*.png)"), tr("SVG vector image (*.svg)"),
                               tr("PDF document (*.pdf)")};
    const QString filter = filters[static_cast<int>(format())];
    const QString start = filePath().isEmpty() ? lastFolder() : filePath();
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export chart"), start, filter,
                                                        nullptr, QFileDialog::DontConfirmOverwrite);
    if (chosen.isEmpty()) return;
    m_path->setText(chosen);
    ExportFormat chosenFormat;
    if (exportFormatForPath(chosen, &chosenFormat)) {
        m_format->setCurrentIndex(m_format->findData(static_cast<int>(chosenFormat)));
    } else {
        m_path->setText(chosen + exportSuffix(format()));
    }
}

void ChartExportDialog::updateSummary() {
    const ExportOptions o = options();
    const QString size = QStringLiteral("%1 × %2 cm (%3 × %4 in)")
                             .arg(o.sizeInches.width() * kCmPerInch, 0, 'f', 1)
                             .arg(o.sizeInches.height() * kCmPerInch, 0, 'f', 1)
                             .arg(o.sizeInches.width(), 0, 'f', 2)
                             .arg(o.sizeInches.height(), 0, 'f', 2);
    QString text = tr("Printed at %1 with %2-pt labels.").arg(size).arg(o.fontPoints);
    if (o.format == ExportFormat::Png) {
        text += QLatin1Char(' ') + tr("The PNG has %1 × %2 pixels.")
                                       .arg(std::lround(o.sizeInches.width() * o.dpi))
                                       .arg(std::lround(o.sizeInches.height() * o.dpi));
    }
    m_summary->setText(text);
}

void ChartExportDialog::remember() const {
    QSettings settings;
    const ExportOptions o = options();
    settings.setValue(settingsKey("format"), static_cast<int>(o.format));
    settings.setValue(settingsKey("unit"), static_cast<int>(o.unit));
    settings.setValue(settingsKey("widthInches"), o.sizeInches.width());
    settings.setValue(settingsKey("heightInches"), o.sizeInches.height());
    settings.setValue(settingsKey("fontPoints"), o.fontPoints);
    settings.setValue(settingsKey("dpi"), o.dpi);
    settings.setValue(settingsKey("showTitle"), o.showTitle);
    if (m_caption->isEnabled())
        settings.setValue(settingsKey("showCaption"), m_caption->isChecked());
    settings.setValue(settingsKey("lastFolder"), QFileInfo(filePath()).absolutePath());
}

void ChartExportDialog::accept() {
    QString path = filePath();
    if (path.isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Please enter the file to write."));
        return;
    }
    // A known extension picks the format; without one, the format's extension is added.
    ExportFormat typed;
    if (exportFormatForPath(path, &typed)) {
        if (typed != format()) {
            const QSignalBlocker block(m_format);
            m_format->setCurrentIndex(m_format->findData(static_cast<int>(typed)));
            m_dpi->setEnabled(typed == ExportFormat::Png);
        }
    } else {
        path += exportSuffix(format());
        m_path->setText(path);
    }
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) {
        QMessageBox::warning(this, windowTitle(),
                             tr("The folder %1 does not exist.").arg(info.absolutePath()));
        return;
    }
    if (info.exists() &&
        QMessageBox::question(this, windowTitle(),
                              tr("%1 exists already. Replace it?").arg(info.fileName())) !=
            QMessageBox::Yes) {
        return;
    }
    remember();
    QDialog::accept();
}

}  // namespace pfa::ui
