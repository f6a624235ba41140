#include "ui/panels/run_details_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <cmath>

#include "core/privacy/dataset_ledger.h"
#include "core/sweep/run_ledger.h"
#include "core/util/format.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

RunDetailsPanel::RunDetailsPanel(QWidget* parent) : QWidget(parent) {
    m_summary = new QLabel(tr("Select a run in the history (or click a point of the tradeoff "
                              "chart) to see its groups."));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);  // the summary quotes data-set names
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table = new QTableWidget(0, 7);
    m_table->setHorizontalHeaderLabels({tr("Group"), tr("n"), tr("Base rate"), tr("Selection rate"),
                                        tr("TPR"), tr("FPR"), tr("Accuracy")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setToolTip(tr("Test-set rates per group for the positive class: base rate = share "
                           "with a positive label, selection rate = share predicted positive, "
                           "TPR/FPR = true/false positive rate"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
}

void RunDetailsPanel::showRun(const RunEntryPtr& run) {
    m_table->setRowCount(0);
    if (!run) {
        m_summary->setText(tr("Select a run in the history (or click a point of the tradeoff "
                              "chart) to see its groups."));
        return;
    }
    m_summary->setText(run->summary());
    auto cell = [](double v) {
        auto* item = new QTableWidgetItem(std::isnan(v) ? QStringLiteral("–")
                                                        : QString::number(v, 'f', 3));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (const pfa::GroupRow& g : run->result.test.groups) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(g.group)));
        auto* n = new QTableWidgetItem(QString::number(g.n));
        n->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, 1, n);
        m_table->setItem(row, 2, cell(g.baseRate));
        m_table->setItem(row, 3, cell(g.selectionRate));
        m_table->setItem(row, 4, cell(g.truePositiveRate));
        m_table->setItem(row, 5, cell(g.falsePositiveRate));
        m_table->setItem(row, 6, cell(g.accuracy));
    }
}

PrivacyStatementView::PrivacyStatementView(QWidget* parent) : QWidget(parent) {
    m_text = new QTextBrowser();
    m_text->setPlaceholderText(tr("The privacy statement of the selected run appears here: "
                                  "which accountant, which δ, what is protected."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_text);
}

void PrivacyStatementView::setLedgerBook(LedgerBook* book) {
    m_book = book;
    connect(book, &LedgerBook::changed, this, &PrivacyStatementView::refresh);
}

void PrivacyStatementView::showRun(const RunEntryPtr& run) {
    m_run = run;
    refresh();
}

void PrivacyStatementView::refresh() {
    if (!m_run) {
        m_text->clear();
        return;
    }
    QString text = QString::fromStdString(m_run->result.privacy.statement);
    if (m_run->result.privacy.isPrivate && m_book) {
        const std::string key = pfa::runLedgerKey(m_run->context, m_run->result.dataset);
        if (const pfa::privacy::DatasetLedger* ledger = m_book->ledger(key)) {
            text += tr("\nLedger of this data set now (not covered above): %1.\n")
                        .arg(QString::fromStdString(pfa::privacy::describeTotals(ledger->totals())));
        }
    }
    // Each line of the statement as a paragraph with its label in bold; what the guarantee does
    // not cover (diagnostics, warnings, the ledger) stands out in the warning colour.
    QString html;
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const bool caution = line.startsWith(QLatin1String("Not protected")) ||
                             line.startsWith(QLatin1String("Warning")) ||
                             line.startsWith(QLatin1String("Persons:")) ||
                             line.startsWith(QLatin1String("Ledger of this data set"));
        const int colon = line.indexOf(QLatin1Char(':'));
        QString body = line.toHtmlEscaped();
        if (colon > 0 && colon < 40 && !line.startsWith(QLatin1String("Privacy statement"))) {
            body = QStringLiteral("<b>%1</b>%2").arg(line.left(colon + 1).toHtmlEscaped(),
                                                     line.mid(colon + 1).toHtmlEscaped());
        } else if (line.startsWith(QLatin1String("Privacy statement"))) {
            body = QStringLiteral("<b>%1</b>").arg(body);
        }
        html += caution ? QStringLiteral("<p style=\"margin:0 0 4px 0; color:#9a3412\">%1</p>").arg(body)
                        : QStringLiteral("<p style=\"margin:0 0 4px 0\">%1</p>").arg(body);
    }
    m_text->setHtml(html);
}

QString PrivacyStatementView::text() const { return m_text->toPlainText(); }

}  // namespace pfa::ui
