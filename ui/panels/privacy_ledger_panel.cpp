#include "ui/panels/privacy_ledger_panel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QTableWidget>
#include <QTextDocument>
#include <QTextStream>
#include <QVBoxLayout>
#include <cmath>

#include "core/privacy/accounting_inputs.h"
#include "core/sweep/prepared_dataset.h"
#include "core/util/format.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

namespace {

QString num(double value, int digits = 4) {
    return QString::fromStdString(pfa::formatNumber(value, digits)).replace(QStringLiteral("inf"), QStringLiteral("∞"));
}

/// "Poisson SGM, q = 0.085, z = 2.4, add/remove" for the mechanism column.
QString mechanismText(const pfa::privacy::LedgerEntry& entry) {
    if (!entry.accountingKnown) return QObject::tr("older record: charged by its (ε, δ)");
    const pfa::privacy::AccountingInputs& a = entry.accounting;
    QString curve;
    switch (a.kind) {
        case pfa::privacy::ReleaseKind::NoRelease: curve = QObject::tr("no data-dependent release"); break;
        case pfa::privacy::ReleaseKind::Gaussian:
            curve = QObject::tr("Gaussian per %1 steps").arg(a.stepsPerRelease);
            break;
        case pfa::privacy::ReleaseKind::PoissonSubsampled: curve = QObject::tr("Poisson SGM"); break;
        case pfa::privacy::ReleaseKind::PoissonReplace: curve = QObject::tr("Poisson SGM, group of two"); break;
        case pfa::privacy::ReleaseKind::LinearAmplification: curve = QObject::tr("linear amplification"); break;
        case pfa::privacy::ReleaseKind::Uncertifiable: curve = QObject::tr("uncertifiable (ε = ∞)"); break;
    }
    QString text = curve;
    if (a.kind != pfa::privacy::ReleaseKind::NoRelease && a.kind != pfa::privacy::ReleaseKind::Uncertifiable) {
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
    m_choice->setToolTip(tr("The data set whose ledger is shown (follows the experiment's data set)"));
    m_totals = new QLabel();
    m_totals->setWordWrap(true);
    m_totals->setTextFormat(Qt::RichText);
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(0, 6);
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Status"), tr("ε"), tr("δ"), tr("Steps"),
                                        tr("Mechanism")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The mechanism takes what is left (elided; its cell tooltip has all of it).
    m_table->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
    m_table->horizontalHeaderItem(5)->setToolTip(tr("The accounting inputs of the run's ε: curve, "
                                                    "sampling rate q, noise multiplier z, adjacency "
                                                    "and pure side releases"));
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setToolTip(tr("Every private run charged to this data set, with the exact inputs the "
                           "accountant used for its ε"));
    m_export = new QPushButton(tr("Export…"));
    m_export->setToolTip(tr("Save this ledger as CSV"));
    auto* note = new QLabel(tr("Each run that touched the data is charged once; deleting runs refunds "
                               "nothing. Non-private runs are not charged."));
    note->setWordWrap(true);
    note->setToolTip(
        tr("Every private run on this data set is charged here once — finished, stopped, "
           "diverged, superseded in live mode or cut short in a sweep — and deleting a run from "
           "the history does not refund it. One ledger per data set: runs on any split or "
           "sensitive attribute of the same rows count together. Non-private runs are not "
           "charged: their outputs carry no guarantee at all."));
    QFont small = note->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    note->setFont(small);

    auto* top = new QHBoxLayout();
    top->addWidget(new QLabel(tr("Data set:")));
    top->addWidget(m_choice, 1);
    top->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_totals);
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
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export privacy ledger"),
                                                          tr("ledger.csv"), tr("CSV files (*.csv)"));
        if (path.isEmpty()) return;
        QString error;
        if (!exportCsv(path, &error))
            QMessageBox::warning(this, tr("Export privacy ledger"),
                                 Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
    });
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
        m_choice->addItem(QString::fromStdString(pfa::ledgerTitle(m_key)), QString::fromStdString(m_key));
    }
    m_choice->setCurrentIndex(m_choice->findData(QString::fromStdString(m_key)));
}

void LedgerPanel::refresh() {
    const pfa::privacy::DatasetLedger* ledger = m_book->ledger(m_key);
    m_table->setRowCount(0);
    m_export->setEnabled(ledger && !ledger->entries().empty());
    if (!ledger || ledger->entries().empty()) {
        m_totals->setText(tr("<b>Nothing spent yet</b> on this data set: no private run has "
                             "touched it in this session."));
        return;
    }
    const pfa::privacy::LedgerTotals t = ledger->totals();
    QString totals =
        tr("<b>Total: ε = %1 at δ = %2</b> — Rényi-DP composition of %3 private run(s) (the runs' "
           "RDP curves added, then converted)%4.<br>Simple addition of the runs' own values: "
           "Σε = %5, Σδ = %6.")
            .arg(num(t.epsilon), num(t.delta, 3))
            .arg(t.runs)
            .arg(t.withoutCurve > 0 ? tr("; %1 older record(s) added as (ε, δ)").arg(t.withoutCurve)
                                    : QString())
            .arg(num(t.naiveEpsilon), num(t.naiveDelta, 3));
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
        cell(4, entry.accountingKnown ? QString::number(entry.accounting.steps) : QStringLiteral("–"), true);
        cell(5, mechanismText(entry), false);
        m_table->item(row, 5)->setToolTip(mechanismText(entry));
    }
}

QString LedgerPanel::totalsText() const {
    QTextDocument document;
    document.setHtml(m_totals->text());
    return document.toPlainText();
}

bool LedgerPanel::exportCsv(const QString& path, QString* error) const {
    const pfa::privacy::DatasetLedger* ledger = m_book->ledger(m_key);
    if (!ledger) {
        if (error) *error = tr("There is no ledger to export.");
        return false;
    }
    QByteArray bytes;
    QTextStream out(&bytes);
    const pfa::privacy::LedgerTotals t = ledger->totals();
    out << "# privacy ledger of " << QString::fromStdString(ledger->title()) << ": "
        << QString::fromStdString(pfa::privacy::describeTotals(t)) << "\n";
    out << "run_uid,label,status,epsilon,delta,unit,adjacency,curve,sampling_rate,noise_multiplier,"
           "steps_per_release,steps,extra_epsilon\n";
    auto quoted = [](QString text) { return '"' + text.replace('"', QStringLiteral("\"\"")) + '"'; };
    for (const pfa::privacy::LedgerEntry& e : ledger->entries()) {
        const pfa::privacy::AccountingInputs& a = e.accounting;
        out << quoted(QString::fromStdString(e.runUid)) << ',' << quoted(QString::fromStdString(e.label))
            << ',' << QString::fromStdString(e.status) << ',' << QString::number(e.epsilon, 'g', 17)
            << ',' << QString::number(e.delta, 'g', 17) << ',';
        if (e.accountingKnown) {
            out << QString::fromStdString(a.unit) << ','
                << QString::fromStdString(pfa::privacy::adjacencyCode(a.adjacency)) << ','
                << QString::fromStdString(pfa::privacy::releaseKindName(a.kind)) << ','
                << QString::number(a.samplingRate, 'g', 17) << ','
                << QString::number(a.noiseMultiplier, 'g', 17) << ',' << a.stepsPerRelease << ','
                << a.steps << ',' << QString::number(a.pureEpsilon(), 'g', 17);
        } else {
            out << ",,,,,,,";
        }
        out << '\n';
    }
    out.flush();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace pfa::ui
