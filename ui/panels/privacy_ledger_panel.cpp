#include "ui/panels/privacy_ledger_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>
#include <cmath>

#include "core/privacy/accounting_inputs.h"
#include "core/privacy/ledger_store.h"
#include "core/sweep/prepared_dataset.h"
#include "core/util/format.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

namespace {

QString num(double value, int digits = 4) {
    return QString::fromStdString(pfa::formatNumber(value, digits))
        .replace(QStringLiteral("inf"), QStringLiteral("∞"));
}

/// "Poisson SGM, q = 0.085, z = 2.4, add/remove" for the mechanism column.
QString mechanismText(const pfa::privacy::LedgerEntry& entry) {
    if (!entry.accountingKnown) return QObject::tr("older record: charged by its (ε, δ)");
    const pfa::privacy::AccountingInputs& a = entry.accounting;
    QString curve;
    switch (a.kind) {
        case pfa::privacy::ReleaseKind::NoRelease:
            curve = QObject::tr("no data-dependent release");
            break;
        case pfa::privacy::ReleaseKind::Gaussian:
            curve = QObject::tr("Gaussian per %1 steps").arg(a.stepsPerRelease);
            break;
        case pfa::privacy::ReleaseKind::PoissonSubsampled:
            curve = QObject::tr("Poisson SGM");
            break;
        case pfa::privacy::ReleaseKind::PoissonReplace:
            curve = QObject::tr("Poisson SGM, group of two");
            break;
        case pfa::privacy::ReleaseKind::LinearAmplification:
            curve = QObject::tr("linear amplification");
            break;
        case pfa::privacy::ReleaseKind::Uncertifiable:
            curve = QObject::tr("uncertifiable (ε = ∞)");
            break;
    }
    QString text = curve;
    if (a.kind != pfa::privacy::ReleaseKind::NoRelease &&
        a.kind != pfa::privacy::ReleaseKind::Uncertifiable) {
        text += QObject::tr(", q = %1, z = %2").arg(num(a.samplingRate), num(a.noiseMultiplier));
    }
    text += a.adjacency == pfa::privacy::Adjacency::Replace ? QObject::tr(", replace-one")
                                                            : QObject::tr(", add/remove");
    if (a.pureEpsilon() > 0) text += QObject::tr(" + ε₀ = %1 (Laplace)").arg(num(a.pureEpsilon()));
    return text;
}

}  // namespace

LedgerPanel::LedgerPanel(LedgerBook* book, QWidget* parent) : QWidget(parent), m_book(book) {
    m_choice = new QComboBox();
    m_choice->setToolTip(
        tr("The data set whose ledger is shown (follows the experiment's data set)"));
    m_where = new QLabel();
    m_where->setWordWrap(true);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals = new QLabel();
    m_totals->setWordWrap(true);
    m_totals->setTextFormat(Qt::RichText);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_totals->setToolTip(
        tr("What every run charged here spends together: their Rényi-DP curves added, "
           "then converted to (ε, δ); and, for comparison, the plain sums of their "
           "own ε and δ"));
    m_table = new QTableWidget(0, 6);
    m_table->setHorizontalHeaderLabels(
        {tr("Run"), tr("Status"), tr("ε"), tr("δ"), tr("Steps"), tr("Mechanism")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The mechanism takes what is left (elided; its cell tooltip has all of it).
    m_table->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
    m_table->horizontalHeaderItem(5)->setToolTip(
        tr("The accounting inputs of the run's ε: curve, "
           "sampling rate q, noise multiplier z, adjacency "
           "and pure side releases"));
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setToolTip(
        tr("Every private run charged to this data set, with the exact inputs the "
           "accountant used for its ε"));
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(
        tr("Save this ledger as CSV (one line per run with its accounting inputs) or "
           "JSON (the totals, resets and every run)"));
    m_reset = new QPushButton(tr("Reset…"));
    m_reset->setToolTip(
        tr("Forget the runs charged to these rows so far (asks first). Resetting does "
           "not make the data private again and cannot be undone."));
    auto* note =
        new QLabel(tr("Each run that touched the data is charged once, in every session and "
                      "in pfa-cli; deleting runs or discarding a session refunds nothing. "
                      "Non-private runs are not charged."));
    note->setWordWrap(true);
    note->setToolTip(
        tr("Every private run on this data set's rows is charged here once — finished, stopped, "
           "diverged, superseded in live mode, run or cut short in a sweep, each auto-tune trial — "
           "and deleting a run from the history, discarding a session or deleting a results file "
           "does not refund it. The ledger belongs to the rows, not to a file name or a session: a "
           "renamed or row-shuffled copy of a file shares it, and so do all splits and sensitive "
           "attributes of the same rows (charged conservatively: the same people are in every "
           "split). Non-private runs are not charged: their outputs carry no guarantee at all."));
    QFont small = note->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    note->setFont(small);
    m_where->setFont(small);

    auto* top = new QHBoxLayout();
    top->addWidget(new QLabel(tr("Data set:")));
    top->addWidget(m_choice, 1);
    top->addWidget(m_export);
    top->addWidget(m_reset);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_totals);
    layout->addWidget(m_where);
    layout->addWidget(m_table, 1);
    layout->addWidget(note);

    connect(m_choice, &QComboBox::activated, this, [this](int index) {
        m_key = m_choice->itemData(index).toString().toStdString();
        refresh();
    });
    connect(m_book, &LedgerBook::changed, this, [this](const QString& key) {
        rebuildChoices();
        if (key.toStdString() == m_key) refresh();
    });
    connect(m_book, &LedgerBook::persistentChanged, this, [this](const QString& key) {
        if (key.toStdString() == m_key) refresh();
    });
    connect(m_export, &QPushButton::clicked, this, [this] {
        QString filter;
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export privacy ledger"), tr("ledger.csv"),
                                         tr("CSV files (*.csv);;JSON files (*.json)"), &filter);
        if (path.isEmpty()) return;
        QString target = path;
        if (QFileInfo(target).suffix().isEmpty())
            target += filter.contains(QLatin1String("json")) ? QStringLiteral(".json")
                                                             : QStringLiteral(".csv");
        QString error;
        if (!exportTo(target, &error))
            QMessageBox::warning(this, tr("Export privacy ledger"),
                                 Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
    });
    connect(m_reset, &QPushButton::clicked, this, [this] { requestReset(); });
    refresh();
}

void LedgerPanel::showLedger(const std::string& key) {
    m_key = key;
    rebuildChoices();
    refresh();
}

void LedgerPanel::rebuildChoices() {
    QSignalBlocker block(m_choice);
    m_choice->clear();
    for (const auto& [key, ledger] : m_book->ledgers()) {
        m_choice->addItem(QString::fromStdString(ledger.title()), QString::fromStdString(key));
    }
    if (!m_key.empty() && m_choice->findData(QString::fromStdString(m_key)) < 0) {
        m_choice->addItem(QString::fromStdString(pfa::ledgerTitle(m_key)),
                          QString::fromStdString(m_key));
    }
    m_choice->setCurrentIndex(m_choice->findData(QString::fromStdString(m_key)));
}

void LedgerPanel::refresh() {
    const std::optional<PersistentLedgerView> persistent = m_book->persistentLedger(m_key);
    const pfa::privacy::DatasetLedger* ledger =
        persistent ? &persistent->ledger : m_book->ledger(m_key);
    m_table->setRowCount(0);
    const bool empty = !ledger || ledger->entries().empty();
    m_export->setEnabled(!empty);
    m_reset->setEnabled(persistent && !empty);
    if (persistent) {
        QString where =
            tr("Across every session and pfa-cli, kept in %1")
                .arg(QDir::toNativeSeparators(QString::fromStdString(persistent->path)));
        if (persistent->names.size() > 1) {
            QStringList others;
            for (std::size_t i = 1; i < persistent->names.size(); ++i)
                others << QString::fromStdString(persistent->names[i]);
            where += tr("; the same rows were also charged as %1")
                         .arg(others.join(QStringLiteral(", ")));
        }
        if (persistent->resets > 0) {
            where += tr("; reset %n time(s), last on %1 (%2 earlier run(s) no longer counted)", "",
                        static_cast<int>(persistent->resets))
                         .arg(QString::fromStdString(persistent->lastReset))
                         .arg(persistent->forgotten);
        }
        m_where->setText(where + QLatin1Char('.'));
        m_where->setToolTip(
            tr("One file per data set in the per-user data folder, named by a fingerprint "
               "of the rows' content (not the file name). pfa-cli ledger --where prints "
               "it; set PFA_LEDGER_DIR to keep the ledgers elsewhere."));
    } else {
        m_where->setText(
            tr("This session's runs only: the ledger of the data set's rows across "
               "sessions shows once the data set is loaded."));
        m_where->setToolTip(QString());
    }
    if (empty) {
        m_totals->setText(persistent
                              ? tr("<b>Nothing spent yet</b> on these rows: no private run has "
                                   "touched them in any session or in pfa-cli.")
                              : tr("<b>Nothing spent yet</b> on this data set in this session."));
        return;
    }
    const pfa::privacy::LedgerTotals t = ledger->totals();
    QString totals =
        tr("<b>Total: ε = %1 at δ = %2</b> — Rényi-DP composition of %3 private run(s) (the runs' "
           "RDP curves added, then converted)%4.<br>Simple addition of the runs' own values: "
           "Σε = %5, Σδ = %6%7.")
            .arg(num(t.epsilon), num(t.delta, 3))
            .arg(t.runs)
            .arg(t.withoutCurve > 0 ? tr("; %1 older record(s) added as (ε, δ)").arg(t.withoutCurve)
                                    : QString())
            .arg(num(t.naiveEpsilon), num(t.naiveDelta, 3))
            .arg(t.sharedSamples > 0
                     ? tr(" (each group of runs that shared batches counted once, at its joint ε)")
                     : QString());
    m_totals->setText(totals);
    for (const pfa::privacy::LedgerEntry& entry : ledger->entries()) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        auto cell = [&](int column, const QString& text, bool number) {
            auto* item = new QTableWidgetItem(text);
            if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, column, item);
        };
        cell(0, QString::fromStdString(entry.label), false);
        cell(1, QString::fromStdString(entry.status), false);
        cell(2, num(entry.epsilon), true);
        cell(3, num(entry.delta, 3), true);
        cell(4,
             entry.accountingKnown ? QString::number(entry.accounting.steps) : QStringLiteral("–"),
             true);
        cell(5, mechanismText(entry), false);
        m_table->item(row, 5)->setToolTip(mechanismText(entry));
    }
}

QString LedgerPanel::totalsText() const {
    QTextDocument document;
    document.setHtml(m_totals->text());
    return document.toPlainText();
}

QString LedgerPanel::whereText() const { return m_where->text(); }

bool LedgerPanel::requestReset() {
    const std::optional<PersistentLedgerView> persistent = m_book->persistentLedger(m_key);
    if (!persistent || persistent->ledger.entries().empty()) return false;
    const pfa::privacy::LedgerTotals t = persistent->ledger.totals();
    const QString name = QString::fromStdString(persistent->ledger.title());
    const QString question =
        tr("Reset the privacy ledger of %1?\n\n"
           "This forgets the %2 private run(s) charged to these rows so far (ε = %3 together), in "
           "every session and in pfa-cli, and starts again from nothing spent.\n\n"
           "Resetting does not make the data private again: what those runs released stays "
           "released, and anyone who has their results can still combine them. Only reset when "
           "the data itself is new (for example, fresh people) or the runs' results were never "
           "shared.\n\nThis cannot be undone. The file keeps the forgotten runs, marked as reset.")
            .arg(name)
            .arg(t.runs)
            .arg(num(t.epsilon));
    const auto answer =
        QMessageBox::warning(this, tr("Reset the privacy ledger"), question,
                             QMessageBox::Reset | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Reset) return false;
    return m_book->resetPersistent(m_key);
}

bool LedgerPanel::writeFile(const QString& path, const QByteArray& bytes, QString* error) const {
    QSaveFile file(path);  // written beside the target, renamed over it when complete
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool LedgerPanel::exportTo(const QString& path, QString* error) const {
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) return exportCsv(path, error);
    const std::optional<PersistentLedgerView> persistent = m_book->persistentLedger(m_key);
    pfa::privacy::StoredLedger stored;
    if (persistent) {
        stored.ledger = persistent->ledger;
        stored.names = persistent->names;
        stored.resets = persistent->resets;
        stored.lastReset = persistent->lastReset;
        stored.forgotten = persistent->forgotten;
    } else if (const pfa::privacy::DatasetLedger* session = m_book->ledger(m_key)) {
        stored.ledger = *session;
        stored.names = {session->title()};
    } else {
        if (error) *error = tr("There is no ledger to export.");
        return false;
    }
    return writeFile(path, QByteArray::fromStdString(pfa::privacy::ledgerExportJson(stored) + "\n"),
                     error);
}

bool LedgerPanel::exportCsv(const QString& path, QString* error) const {
    const std::optional<PersistentLedgerView> persistent = m_book->persistentLedger(m_key);
    const pfa::privacy::DatasetLedger* ledger =
        persistent ? &persistent->ledger : m_book->ledger(m_key);
    if (!ledger) {
        if (error) *error = tr("There is no ledger to export.");
        return false;
    }
    return writeFile(path, QByteArray::fromStdString(pfa::privacy::ledgerCsv(*ledger)), error);
}

}  // namespace pfa::ui
