#include "ui/dialogs/import_wizard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>
#include <algorithm>
#include <functional>
#include <map>

#include "core/data/arff_reader.h"
#include "core/data/csv_reader.h"
#include "core/data/preprocessing.h"
#include "ui/charts/group_bar_chart.h"

namespace pfa::ui {

namespace {

/// A wizard page whose "Next"/"Finish" is enabled by a predicate.
class CheckedPage : public QWizardPage {
public:
    explicit CheckedPage(std::function<bool()> complete) : m_complete(std::move(complete)) {}
    bool isComplete() const override { return m_complete(); }
    void changed() { emit completeChanged(); }

private:
    std::function<bool()> m_complete;
};

const char* const kRoleNames[] = {"numeric feature", "categorical feature", "ignore",
                                  "target",          "sensitive",           "user id"};

QString delimiterLabel(char c) {
    switch (c) {
        case ',':
            return QObject::tr("comma");
        case ';':
            return QObject::tr("semicolon");
        case '\t':
            return QObject::tr("tab");
        case '|':
            return QObject::tr("pipe");
        case ' ':
            return QObject::tr("space");
        default:
            return QString(QChar(c));
    }
}

}  // namespace

/// What the full read of page 3 hands to the GUI thread.
struct ImportWizard::CheckOutcome {
    std::shared_ptr<pfa::TabularData> data;
    std::shared_ptr<pfa::ReadStats> stats;
    long features = 0;
    QString error;
};

ImportWizard::ImportWizard(QWidget* parent) : QWizard(parent) {
    setWindowTitle(tr("Import your own data file"));
    setWizardStyle(QWizard::ClassicStyle);
    addPage(buildFilePage());
    addPage(buildColumnsPage());
    addPage(buildCheckPage());
    connect(this, &QWizard::currentIdChanged, this, [this](int id) {
        if (id == 2) runCheck();
    });
    resize(900, 620);
}

ImportWizard::~ImportWizard() { m_check.cancel(); }  // the reader stops at its next progress report

QWizardPage* ImportWizard::buildFilePage() {
    // Next needs a preview, and the decision to skip the rows it found malformed.
    auto* page = new CheckedPage([this] {
        return m_preview != nullptr && (m_preview->badRowCount == 0 || m_skipBad->isChecked());
    });
    page->setTitle(tr("1 · Choose the file"));
    page->setSubTitle(
        tr("CSV, TSV or ARFF. The first megabyte is previewed; nothing is imported yet."));
    m_path = new QLineEdit();
    m_path->setPlaceholderText(tr("Type a path and press Enter, or Browse…"));
    m_path->setToolTip(
        tr("The data file: type or paste its path and press Enter, or choose it with Browse…"));
    m_path->setClearButtonEnabled(true);
    connect(m_path, &QLineEdit::returnPressed, this, [this] { loadTypedPath(); });
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setToolTip(tr("Choose a CSV, TSV or ARFF file"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Data file"), QString(),
            tr("Data files (*.csv *.tsv *.txt *.data *.arff);;All files (*)"));
        if (!path.isEmpty()) setFile(path);
    });
    m_format = new QLabel();
    m_format->setTextFormat(Qt::RichText);  // values from the file are escaped
    m_format->setWordWrap(true);
    m_delimiter = new QComboBox();
    m_delimiter->addItem(tr("detected"), 0);
    for (char c : {',', ';', '\t', '|', ' '})
        m_delimiter->addItem(delimiterLabel(c), static_cast<int>(c));
    m_delimiter->setToolTip(
        tr("The character between fields; keep “detected” unless the preview "
           "splits the columns wrongly"));
    m_header = new QCheckBox(tr("The first row holds the column names"));
    m_header->setToolTip(tr("Detected from the file; untick if the first row is data"));
    m_missing = new QLineEdit();
    m_missing->setPlaceholderText(tr("e.g. ? or NA (empty cells are always missing)"));
    m_missing->setToolTip(tr("A cell equal to this text counts as a missing value"));
    m_previewTable = new QTableWidget();
    m_previewTable->setObjectName(QStringLiteral("previewTable"));
    m_previewTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_previewTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_badRows = new QLabel();
    m_badRows->setWordWrap(true);
    m_badRows->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_badRows->setStyleSheet(QStringLiteral("color: #8a4b00;"));
    m_badRows->hide();
    m_skipBad = new QCheckBox();
    m_skipBad->setToolTip(
        tr("Leave these rows out of the import. How many were skipped, and their "
           "lines, are saved with the data set and recorded with every run"));
    m_skipBad->hide();
    connect(m_skipBad, &QCheckBox::toggled, page, [page] { page->changed(); });

    auto* fileRow = new QHBoxLayout();
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);
    auto* form = new QFormLayout();
    form->addRow(tr("File"), fileRow);
    form->addRow(tr("Detected"), m_format);
    form->addRow(tr("Delimiter"), m_delimiter);
    form->addRow(QString(), m_header);
    form->addRow(tr("Missing value"), m_missing);
    auto* layout = new QVBoxLayout(page);
    layout->addLayout(form);
    layout->addWidget(m_previewTable, 1);
    layout->addWidget(m_badRows);
    layout->addWidget(m_skipBad);
    return page;
}

QWizardPage* ImportWizard::buildColumnsPage() {
    auto* page = new CheckedPage([this] { return validationProblem().isEmpty(); });
    page->setTitle(tr("2 · What each column is"));
    page->setSubTitle(
        tr("Choose the target (what to predict), the sensitive column(s) whose groups "
           "are compared, and the features. Several sensitive columns form "
           "intersectional groups."));
    m_columns = new QTableWidget(0, 4);
    m_columns->setHorizontalHeaderLabels(
        {tr("Column"), tr("Detected"), tr("Values"), tr("Use as")});
    m_columns->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_columns->horizontalHeader()->setStretchLastSection(true);
    m_columns->verticalHeader()->setVisible(false);
    m_columns->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_positive = new QComboBox();
    m_positive->setToolTip(
        tr("The favourable outcome (class 1), e.g. “loan repaid”; choose "
           "multi-class to keep every value as its own class"));
    m_missingPolicy = new QComboBox();
    m_missingPolicy->addItem(tr("Drop rows with a missing value"), QStringLiteral("drop"));
    m_missingPolicy->addItem(tr("Stop with an error"), QStringLiteral("error"));
    m_missingPolicy->setToolTip(
        tr("What to do with a row that has a missing value in a used column"));
    // Group values and column names come from the file: never markup.
    m_groups = new QLabel();
    m_groups->setTextFormat(Qt::PlainText);
    m_groups->setWordWrap(true);
    m_sensitiveWarning = new QLabel();
    m_sensitiveWarning->setWordWrap(true);
    m_sensitiveWarning->setStyleSheet(QStringLiteral("color: #8a4b00;"));
    m_sensitiveWarning->hide();
    m_bin = new QCheckBox();
    m_bin->setToolTip(
        tr("Two groups, below and at or above the median of the previewed rows; the "
           "threshold is saved with the import so it repeats exactly"));
    m_bin->hide();
    connect(m_bin, &QCheckBox::toggled, this, [this] { updateTargetAndGroups(); });
    m_columnsProblem = new QLabel();
    m_columnsProblem->setTextFormat(Qt::PlainText);
    m_columnsProblem->setWordWrap(true);
    m_columnsProblem->setStyleSheet(QStringLiteral("color: #b00020; font-weight: 600;"));
    auto* form = new QFormLayout();
    form->addRow(tr("Positive value"), m_positive);
    form->addRow(tr("Missing values"), m_missingPolicy);
    form->addRow(tr("Groups"), m_groups);
    form->addRow(QString(), m_sensitiveWarning);
    form->addRow(QString(), m_bin);
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(m_columns, 1);
    layout->addLayout(form);
    layout->addWidget(m_columnsProblem);
    connect(m_positive, &QComboBox::currentIndexChanged, page,
            [page] { static_cast<CheckedPage*>(page)->changed(); });
    return page;
}

QWizardPage* ImportWizard::buildCheckPage() {
    auto* page = new CheckedPage([this] { return m_checked; });
    page->setTitle(tr("3 · Check"));
    page->setSubTitle(tr("The whole file is read now with these settings."));
    m_progress = new QProgressBar();
    m_progress->setRange(0, 1000);
    m_summary = new QLabel();
    m_summary->setTextFormat(Qt::RichText);  // class names are escaped
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_groupChart = new GroupBarChart();
    auto* layout = new QVBoxLayout(page);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary);
    layout->addWidget(m_groupChart);
    layout->addStretch(1);
    return page;
}

void ImportWizard::loadTypedPath() {
    QString path = m_path->text().trimmed();
    if (path.startsWith(QLatin1String("~/"))) path = QDir::homePath() + path.mid(1);
    setFile(path);
}

void ImportWizard::setFile(const QString& path) {
    if (m_path->text() != path) m_path->setText(path);
    m_preview.reset();
    m_previewTable->clear();
    m_previewTable->setRowCount(0);
    m_previewTable->setColumnCount(0);
    showBadRows();
    const int request = ++m_previewRequest;
    // A path that leads nowhere is said at once, in words, before any reading.
    const QFileInfo info(path);
    QString problem;
    if (path.isEmpty()) {
        problem = tr("Type the path of a data file and press Enter, or choose one with Browse…");
    } else if (!info.exists()) {
        problem = tr("There is no file at “%1”. Check the path, or choose the file with Browse…")
                      .arg(path);
    } else if (info.isDir()) {
        problem = tr("“%1” is a folder. Choose a data file in it (Browse…).").arg(path);
    } else if (!info.isReadable()) {
        problem = tr("“%1” cannot be read: you have no permission to read it.").arg(path);
    }
    if (!problem.isEmpty()) {
        showPreview(nullptr, problem);
        return;
    }
    m_format->setText(tr("Reading the first megabyte…"));
    static_cast<CheckedPage*>(page(0))->changed();
    struct Previewed {
        std::shared_ptr<const pfa::FilePreview> preview;
        QString error;
    };
    auto preview = [file = path.toStdString()] {
        Previewed out;
        try {
            out.preview = std::make_shared<const pfa::FilePreview>(pfa::previewFile(file, 20));
        } catch (const std::exception& problem) {
            out.error = QString::fromStdString(problem.what());
        }
        return out;
    };
    runInBackground(this, std::move(preview), [this, request](const Previewed& previewed) {
        if (request == m_previewRequest) showPreview(previewed.preview, previewed.error);
    });
}

void ImportWizard::showPreview(const std::shared_ptr<const pfa::FilePreview>& preview,
                               const QString& error) {
    m_preview = preview;
    m_previewTable->clear();
    if (!preview) {
        showBadRows();
        m_columns->setRowCount(0);
        m_format->setText(
            QStringLiteral("<span style='color:#b00020'>%1</span>").arg(error.toHtmlEscaped()));
        static_cast<CheckedPage*>(page(0))->changed();
        emit previewFailed(error);
        return;
    }
    const bool arff = preview->format == pfa::FileFormat::Arff;
    m_format->setText(
        arff ? tr("ARFF file, relation “%1”, %2 columns, %3 MB")
                   .arg(QString::fromStdString(preview->relation).toHtmlEscaped())
                   .arg(preview->columns.size())
                   .arg(static_cast<double>(preview->fileBytes) / 1e6, 0, 'f', 2)
             : tr("delimited text, %1-separated, %2, %3 columns, %4 MB%5")
                   .arg(delimiterLabel(preview->delimiter))
                   .arg(preview->hasHeader ? tr("with a header row") : tr("no header row"))
                   .arg(preview->columns.size())
                   .arg(static_cast<double>(preview->fileBytes) / 1e6, 0, 'f', 2)
                   .arg(preview->complete ? QString() : tr(" (statistics from the first rows)")));
    m_delimiter->setEnabled(!arff);
    m_header->setEnabled(!arff);
    m_header->setChecked(preview->hasHeader);
    m_missing->setText(QString::fromStdString(preview->missingToken));
    m_previewTable->setColumnCount(static_cast<int>(preview->columns.size()));
    QStringList headers;
    for (const pfa::ColumnPreview& column : preview->columns)
        headers << QString::fromStdString(column.name);
    m_previewTable->setHorizontalHeaderLabels(headers);
    m_previewTable->setRowCount(static_cast<int>(preview->rows.size()));
    for (std::size_t r = 0; r < preview->rows.size(); ++r) {
        for (std::size_t c = 0; c < preview->rows[r].size(); ++c) {
            m_previewTable->setItem(
                static_cast<int>(r), static_cast<int>(c),
                new QTableWidgetItem(QString::fromStdString(preview->rows[r][c])));
        }
    }
    {
        const QSignalBlocker block(m_skipBad);
        m_skipBad->setChecked(false);  // a new file: its bad rows are a new decision
    }
    showBadRows();
    fillColumns();
    static_cast<CheckedPage*>(page(0))->changed();
    emit previewReady();
}

void ImportWizard::showBadRows() {
    const bool any = m_preview && m_preview->badRowCount > 0;
    // A file longer than the preview may have bad rows further down: the choice is offered too.
    const bool unseen =
        m_preview && !m_preview->complete && m_preview->format == pfa::FileFormat::Delimited;
    m_badRows->setVisible(any);
    m_skipBad->setVisible(any || unseen);
    if (!any) {
        m_badRows->clear();
        m_skipBad->setText(
            tr("Skip rows with the wrong number of fields, if the rest of the file has any"));
        return;
    }
    const std::size_t count = m_preview->badRowCount;
    const QStringList lines = badRowLines();
    const int shown = 6;
    QString list = lines.mid(0, shown).join(QStringLiteral("; "));
    if (count > static_cast<std::size_t>(shown)) list += tr("; … (%1 more)").arg(count - shown);
    const QString rows = count == 1 ? tr("1 row") : tr("%1 rows").arg(count);
    const QString bad = count == 1 ? tr("1 bad row") : tr("%1 bad rows").arg(count);
    m_badRows->setText(tr("%1 cannot be read and %2 not shown above: %3. Fix the file, or skip %4.")
                           .arg(rows, count == 1 ? tr("is") : tr("are"), list,
                                count == 1 ? tr("it") : tr("them")));
    m_skipBad->setText(m_preview->complete
                           ? tr("Skip %1").arg(bad)
                           : tr("Skip %1 (and any in the rest of the file)").arg(bad));
}

QStringList ImportWizard::badRowLines() const {
    QStringList out;
    if (!m_preview) return out;
    for (const pfa::BadRow& row : m_preview->badRows)
        out << QString::fromStdString(pfa::describeBadRow(row));
    return out;
}

void ImportWizard::setSkipBadRows(bool skip) { m_skipBad->setChecked(skip); }

QString ImportWizard::sensitiveWarning() const {
    return m_sensitiveWarning->isHidden() ? QString() : m_sensitiveWarning->text();
}

bool ImportWizard::binningOffered() const { return !m_bin->isHidden(); }

void ImportWizard::setBinSensitive(bool bin) { m_bin->setChecked(bin); }

QString ImportWizard::binLabel(int column, const QString& cell) const {
    const pfa::ColumnPreview& c = m_preview->columns[static_cast<std::size_t>(column)];
    bool ok = false;
    const double x = cell.trimmed().toDouble(&ok);
    if (!ok) return tr("missing");
    const QString name = QString::fromStdString(c.name);
    const QString t = QString::number(*c.median, 'g', 6);
    return x < *c.median ? tr("%1 < %2").arg(name, t) : tr("%1 ≥ %2").arg(name, t);
}

void ImportWizard::updateSensitiveWarning(const std::vector<int>& sensitive) {
    // Columns whose values are too many to compare as groups (an age, an income).
    QStringList many;
    double perGroup = 0;  // rows per value of the most fragmented column, on average
    for (int row : sensitive) {
        const pfa::ColumnPreview& column = m_preview->columns[static_cast<std::size_t>(row)];
        if (column.distinctCount <= pfa::kManySensitiveValues) continue;
        many << tr("“%1” has %2 distinct values")
                    .arg(QString::fromStdString(column.name))
                    .arg(column.distinctCount);
        const double rows = static_cast<double>(m_preview->scannedRows - column.missingCount) /
                            static_cast<double>(column.distinctCount);
        perGroup = perGroup == 0 ? rows : std::min(perGroup, rows);
    }
    const int binnable = binnableSensitiveColumn();
    if (many.isEmpty()) {
        m_sensitiveWarning->hide();
        m_bin->hide();
        return;
    }
    QString text = tr("%1: as a sensitive attribute every value becomes its own group, of about %2 "
                      "rows each in the preview — too small to compare.")
                       .arg(many.join(tr(", ")))
                       .arg(perGroup, 0, 'f', perGroup < 10 ? 1 : 0);
    if (binnable >= 0) {
        text += QLatin1Char(' ') + tr("Bin it into two groups at its median?");
    } else {
        const bool numeric = std::any_of(sensitive.begin(), sensitive.end(), [this](int row) {
            return m_preview->columns[static_cast<std::size_t>(row)].guessedKind ==
                   pfa::FeatureKind::Numeric;
        });
        text += QLatin1Char(' ') +
                (numeric && sensitive.size() > 1
                     ? tr("A numeric column can be split at its median when it is "
                          "the only sensitive column.")
                     : tr("Choose a column with fewer values, or merge values in the file."));
    }
    m_sensitiveWarning->setText(text);
    m_sensitiveWarning->show();
    m_bin->setVisible(binnable >= 0);
    if (binnable >= 0) {
        const pfa::ColumnPreview& c = m_preview->columns[static_cast<std::size_t>(binnable)];
        const QString name = QString::fromStdString(c.name);
        const QString t = QString::number(*c.median, 'g', 6);
        m_bin->setText(
            tr("Split “%1” into two groups at its median: %1 < %2 and %1 ≥ %2").arg(name, t));
    }
}

int ImportWizard::binnableSensitiveColumn() const {
    if (!m_preview) return -1;
    int found = -1;
    for (int row = 0; row < m_columns->rowCount(); ++row) {
        if (roleOf(row) != RoleSensitive) continue;
        if (found >= 0) return -1;  // a threshold needs exactly one sensitive column
        found = row;
    }
    if (found < 0) return -1;
    const pfa::ColumnPreview& column = m_preview->columns[static_cast<std::size_t>(found)];
    const bool many = column.guessedKind == pfa::FeatureKind::Numeric && column.median &&
                      column.distinctCount > pfa::kManySensitiveValues;
    return many ? found : -1;
}

void ImportWizard::fillColumns() {
    m_columns->setRowCount(0);
    if (!m_preview) return;
    const auto& columns = m_preview->columns;
    m_columns->setRowCount(static_cast<int>(columns.size()));
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const pfa::ColumnPreview& column = columns[i];
        const int row = static_cast<int>(i);
        m_columns->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(column.name)));
        const bool numeric = column.guessedKind == pfa::FeatureKind::Numeric;
        m_columns->setItem(row, 1,
                           new QTableWidgetItem(numeric ? tr("numeric") : tr("categorical")));
        QStringList examples;
        for (std::size_t v = 0; v < column.distinctValues.size() && v < 6; ++v) {
            examples << QString::fromStdString(column.distinctValues[v]);
        }
        QString values = tr("%1 distinct: %2%3")
                             .arg(column.distinctCount)
                             .arg(examples.join(QStringLiteral(", ")))
                             .arg(column.distinctCount > 6 ? QStringLiteral(", …") : QString());
        if (column.missingCount > 0) values += tr(" · %1 missing").arg(column.missingCount);
        m_columns->setItem(row, 2, new QTableWidgetItem(values));
        auto* role = new QComboBox();
        for (const char* name : kRoleNames) role->addItem(tr(name));
        role->setCurrentIndex(numeric ? RoleNumeric : RoleCategorical);
        // A likely target: the last column, when it has few values.
        if (i + 1 == columns.size() && column.distinctCount >= 2 && column.distinctCount <= 10) {
            role->setCurrentIndex(RoleTarget);
        }
        connect(role, &QComboBox::currentIndexChanged, this, [this] { updateTargetAndGroups(); });
        m_columns->setCellWidget(row, 3, role);
    }
    updateTargetAndGroups();
}

int ImportWizard::roleOf(int column) const {
    auto* box = qobject_cast<QComboBox*>(m_columns->cellWidget(column, 3));
    return box ? box->currentIndex() : RoleIgnore;
}

void ImportWizard::setColumnRole(const QString& column, const QString& role) {
    for (int row = 0; row < m_columns->rowCount(); ++row) {
        if (m_columns->item(row, 0)->text() != column) continue;
        auto* box = qobject_cast<QComboBox*>(m_columns->cellWidget(row, 3));
        for (int r = 0; r < 6; ++r) {
            const QString name = QString::fromLatin1(kRoleNames[r]);
            if (name == role || name.startsWith(role + " ")) box->setCurrentIndex(r);
        }
    }
}

void ImportWizard::setPositiveValue(const QString& value) {
    const int index =
        value.isEmpty() ? m_positive->findData(QString()) : m_positive->findText(value);
    if (index >= 0) m_positive->setCurrentIndex(index);
}

void ImportWizard::updateTargetAndGroups() {
    if (!m_preview) return;
    // Target values for the positive-value choice.
    const QString previous = m_positive->currentText();
    {
        const QSignalBlocker block(m_positive);
        m_positive->clear();
        for (int row = 0; row < m_columns->rowCount(); ++row) {
            if (roleOf(row) != RoleTarget) continue;
            for (const std::string& value :
                 m_preview->columns[static_cast<std::size_t>(row)].distinctValues) {
                m_positive->addItem(QString::fromStdString(value), QString::fromStdString(value));
            }
        }
        m_positive->addItem(tr("(multi-class: every value is a class)"), QString());
        const int keep = m_positive->findText(previous);
        if (keep >= 0) m_positive->setCurrentIndex(keep);
    }
    // The groups the sensitive column(s) form, counted in the previewed rows.
    std::vector<int> sensitive;
    for (int row = 0; row < m_columns->rowCount(); ++row) {
        if (roleOf(row) == RoleSensitive) sensitive.push_back(row);
    }
    updateSensitiveWarning(sensitive);
    const int binned = binnableSensitiveColumn();
    const bool bin = binned >= 0 && m_bin->isChecked();
    if (sensitive.empty()) {
        m_groups->setText(tr("Choose at least one sensitive column."));
    } else {
        std::map<QString, int> counts;
        for (const auto& values : m_preview->rows) {
            QStringList parts;
            for (int c : sensitive) {
                const QString cell = QString::fromStdString(values[static_cast<std::size_t>(c)]);
                parts << (bin ? binLabel(binned, cell) : cell);
            }
            ++counts[parts.join(QStringLiteral(" & "))];
        }
        QStringList shown;
        for (const auto& [group, count] : counts) shown << tr("%1 (%2)").arg(group).arg(count);
        m_groups->setText(tr("%1 group(s) in the first %2 rows: %3%4")
                              .arg(counts.size())
                              .arg(m_preview->rows.size())
                              .arg(shown.mid(0, 12).join(QStringLiteral(", ")))
                              .arg(shown.size() > 12 ? QStringLiteral(", …") : QString()));
    }
    m_columnsProblem->setText(validationProblem());
    static_cast<CheckedPage*>(page(1))->changed();
}

QString ImportWizard::validationProblem() const {
    if (!m_preview) return tr("No file previewed yet.");
    int targets = 0, sensitive = 0, features = 0, users = 0;
    for (int row = 0; row < m_columns->rowCount(); ++row) {
        switch (roleOf(row)) {
            case RoleTarget:
                ++targets;
                break;
            case RoleSensitive:
                ++sensitive;
                break;
            case RoleUser:
                ++users;
                break;
            case RoleNumeric:
            case RoleCategorical:
                ++features;
                break;
            default:
                break;
        }
    }
    if (targets != 1) return tr("Choose exactly one target column (now %1).").arg(targets);
    if (sensitive == 0) return tr("Choose at least one sensitive column.");
    if (users > 1) return tr("At most one column can be the user id.");
    if (features == 0) return tr("Keep at least one feature column.");
    return {};
}

QString ImportWizard::filePath() const { return m_path->text(); }

QString ImportWizard::checkSummary() const {
    QTextDocument document;
    document.setHtml(m_summary->text());
    return document.toPlainText();
}

pfa::Schema ImportWizard::schema() const {
    pfa::Schema s;
    if (!m_preview) return s;
    const bool arff = m_preview->format == pfa::FileFormat::Arff;
    if (!arff) {
        const int chosen = m_delimiter->currentData().toInt();
        s.delimiter = chosen != 0 ? static_cast<char>(chosen) : m_preview->delimiter;
        s.hasHeader = m_header->isChecked();
        if (!s.hasHeader) {
            for (const pfa::ColumnPreview& column : m_preview->columns)
                s.columnNames.push_back(column.name);
        }
    }
    s.missingToken = m_missing->text().trimmed().toStdString();
    s.missingPolicy = m_missingPolicy->currentData().toString() == QLatin1String("error")
                          ? pfa::MissingPolicy::Error
                          : pfa::MissingPolicy::DropRow;
    for (int row = 0; row < m_columns->rowCount(); ++row) {
        const std::string name = m_preview->columns[static_cast<std::size_t>(row)].name;
        switch (roleOf(row)) {
            case RoleTarget:
                s.target = name;
                break;
            case RoleSensitive:
                s.sensitive.push_back(name);
                break;
            case RoleUser:
                s.userId = name;
                break;
            case RoleNumeric:
                s.columns[name].role = pfa::ColumnRole::Numeric;
                break;
            case RoleCategorical:
                s.columns[name].role = pfa::ColumnRole::Categorical;
                break;
            default:
                s.columns[name].role = pfa::ColumnRole::Ignore;
                break;
        }
    }
    const QString positive = m_positive->currentData().toString();
    if (!positive.isEmpty()) s.positiveValues = {positive.toStdString()};
    // The threshold itself is saved, not "the median": the import repeats exactly.
    if (const int binned = binnableSensitiveColumn(); binned >= 0 && m_bin->isChecked()) {
        s.sensitiveThreshold = *m_preview->columns[static_cast<std::size_t>(binned)].median;
    }
    s.skipMalformedRows = !m_skipBad->isHidden() && m_skipBad->isChecked();
    return s;
}

void ImportWizard::runCheck() {
    if (m_checking) return;
    m_checked = false;
    m_checkError.clear();
    m_checking = true;
    m_summary->setText(tr("Reading the whole file…"));
    m_groupChart->setGroups({}, QString());
    m_progress->setValue(0);
    static_cast<CheckedPage*>(page(2))->changed();
    const std::string file = filePath().toStdString();
    const pfa::Schema schema = this->schema();
    const bool arff = m_preview && m_preview->format == pfa::FileFormat::Arff;
    auto read = [this, file, schema, arff](TaskContext& task) {
        CheckOutcome out;
        out.stats = std::make_shared<pfa::ReadStats>();
        try {
            pfa::ReadOptions options;
            options.stats = out.stats.get();
            options.progress = [this, &task](double fraction) {
                if (task.progressDue())
                    task.post([this, fraction] {
                        m_progress->setValue(static_cast<int>(1000 * fraction));
                    });
                return task.cancelled();
            };
            schema.validate();
            out.data = std::make_shared<pfa::TabularData>(
                arff ? pfa::readArffFile(file, schema, options)
                     : pfa::readDelimitedFile(file, schema, options));
            out.features = static_cast<long>(pfa::encodeAll(*out.data).features());
        } catch (const std::exception& problem) {
            out.data.reset();
            out.error = QString::fromStdString(problem.what());
        }
        return out;
    };
    m_check = runInBackground(this, std::move(read),
                              [this](const CheckOutcome& outcome) { showCheck(outcome); });
}

void ImportWizard::showCheck(const CheckOutcome& outcome) {
    m_checking = false;
    m_progress->setValue(1000);
    if (!outcome.data) {
        m_checkError = outcome.error;
        m_summary->setText(QStringLiteral("<span style='color:#b00020; font-weight:600'>%1</span>")
                               .arg(outcome.error.toHtmlEscaped()));
        emit checkFinished(false);
        static_cast<CheckedPage*>(page(2))->changed();
        return;
    }
    const pfa::TabularData& data = *outcome.data;
    std::size_t dropped = 0;
    for (const pfa::FileReadStats& f : outcome.stats->files)
        dropped += f.droppedMissing + f.droppedFiltered;
    std::vector<long> size(data.groupNames.size(), 0), positives(data.groupNames.size(), 0);
    for (std::size_t i = 0; i < data.rows(); ++i) {
        ++size[static_cast<std::size_t>(data.group[i])];
        if (data.label[i] == 1) ++positives[static_cast<std::size_t>(data.group[i])];
    }
    std::vector<GroupBarChart::Group> groups;
    for (std::size_t g = 0; g < size.size(); ++g) {
        groups.push_back(
            {QString::fromStdString(data.groupNames[g]), size[g],
             size[g] ? static_cast<double>(positives[g]) / static_cast<double>(size[g]) : 0.0});
    }
    QStringList classes;
    for (const std::string& c : data.classNames) classes << QString::fromStdString(c);
    m_groupChart->setGroups(
        groups, QString::fromStdString(data.classNames.size() > 1 ? data.classNames[1] : ""));
    const QString skipped =
        data.skippedBadRows == 0
            ? QString()
            : QStringLiteral("; <b>%1</b>")
                  .arg(QString::fromStdString(
                           pfa::describeSkippedRows(data.skippedBadRows, data.skippedBadRowList))
                           .toHtmlEscaped());
    m_summary->setText(
        tr("<b>%1 rows</b> (%2 dropped for missing values%6), <b>%3 encoded features</b>, "
           "classes: %4; %5 groups. Finish adds the file to the data-set list; "
           "its settings are saved with the session.")
            .arg(data.rows())
            .arg(dropped)
            .arg(outcome.features)
            .arg(classes.join(QStringLiteral(", ")).toHtmlEscaped())
            .arg(size.size())
            .arg(skipped));
    m_checked = true;
    emit checkFinished(true);
    static_cast<CheckedPage*>(page(2))->changed();
}

}  // namespace pfa::ui
