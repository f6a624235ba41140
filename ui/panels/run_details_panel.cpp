#include "ui/panels/run_details_panel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/fairness/fairness_notion.h"
#include "core/privacy/dataset_ledger.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/run_protection.h"
#include "core/util/format.h"
#include "ui/charts/compare_palette.h"
#include "ui/charts/group_bar_chart.h"
#include "ui/charts/unit_spread_view.h"
#include "ui/runs/privacy_ledger_book.h"

namespace pfa::ui {

RunDetailsPanel::RunDetailsPanel(QWidget* parent) : QWidget(parent) {
    m_summary =
        new QLabel(tr("Select a run in the history (or click a point of the tradeoff "
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
                           "TPR/FPR = true/false positive rate. Every group is listed; rows "
                           "marked ⚠ have fewer than %1 test rows, too few for reliable rates")
                            .arg(kSmallGroupRows));
    m_compare = new QTableWidget(0, 1);
    m_compare->verticalHeader()->setVisible(false);
    m_compare->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_compare->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_compare->setToolTip(
        tr("The selected runs side by side: settings, then test-set metrics, "
           "then per-group rates. Column colours are the runs' colours in the "
           "live charts."));
    m_compare->setVisible(false);
    m_units = new UnitSpreadView();
    m_units->setMinimumHeight(200);
    m_units->setVisible(false);
    m_unitNote = new QLabel();
    m_unitNote->setWordWrap(true);
    m_unitNote->setStyleSheet(QStringLiteral("color: #555555"));
    m_unitNote->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_compare, 1);
    layout->addWidget(m_units, 1);
    layout->addWidget(m_unitNote);
}

void RunDetailsPanel::showUnits(const std::vector<RunEntryPtr>& runs) {
    QString kind;
    bool anyUnits = false;
    for (const RunEntryPtr& run : runs) {
        if (run->result.units.empty()) continue;
        anyUnits = true;
        const QString own = QString::fromStdString(run->result.unitKind);
        kind = kind.isEmpty() || kind == own ? own : QStringLiteral("unit");
    }
    m_units->setVisible(anyUnits);
    m_unitNote->setVisible(!runs.empty() && !anyUnits);
    if (!anyUnits) {
        m_unitNote->setText(
            runs.size() > 1
                ? tr("No per-unit results: these runs' data is not split into silos or users.")
                : tr("No per-unit results: this run's data is not split into silos or users."));
        return;
    }
    if (runs.size() == 1) {
        m_units->showRun(runs.front()->result, tr("Run %1").arg(runs.front()->id));
        return;
    }
    // Several runs: one box each, side by side.
    QStringList categories;
    UnitSpreadView::Series series{tr("runs"), compare_palette::color(0), {}};
    for (const RunEntryPtr& run : runs) {
        categories << tr("Run %1").arg(run->id);
        std::vector<double> errors;
        for (const pfa::UnitMetrics& unit : run->result.units) errors.push_back(unit.testError);
        series.values.push_back(std::move(errors));
    }
    m_units->setSeries(kind, categories, {series}, QString());
}

QString RunDetailsPanel::summaryText() const { return m_summary->text(); }

namespace {

QString number(double v, int digits = 4) {
    return std::isnan(v) ? QStringLiteral("–")
                         : QString::fromStdString(pfa::formatNumber(v, digits));
}

QString rate(double v) { return std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', 3); }

// A small square of the run's colour for its column header.
QIcon swatch(const QColor& color) {
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.fillRect(QRect(1, 1, 10, 10), color);
    return QIcon(pixmap);
}

}  // namespace

void RunDetailsPanel::showRuns(const std::vector<RunEntryPtr>& runs,
                               const std::vector<QColor>& colors) {
    if (runs.size() < 2) {
        showRun(runs.empty() ? nullptr : runs.front());
        return;
    }
    m_table->setVisible(false);
    m_compare->setVisible(true);
    showUnits(runs);
    QStringList ids;
    for (const RunEntryPtr& run : runs) ids << QString::number(run->id);
    const QString last = ids.takeLast();
    QString summary =
        tr("Runs %1 and %2 side by side (headers in the runs' colours in the live charts; "
           "values that differ in bold).")
            .arg(ids.join(QStringLiteral(", ")), last);
    // Runs whose guarantees protect different things: their ε are not comparable.
    std::vector<pfa::RunProtection> protections;
    for (const RunEntryPtr& run : runs) protections.push_back(pfa::runProtection(run->result));
    const std::string mixed = pfa::mixedProtectionWarning(protections);
    if (!mixed.empty()) {
        summary += QStringLiteral("\n⚠ ") +
                   QString::fromStdString(mixed).replace(QStringLiteral("share this chart"),
                                                         QStringLiteral("are compared here"));
    }
    m_summary->setText(summary);

    // Rows: label, then one text per run.
    std::vector<std::pair<QString, std::vector<QString>>> rows;
    auto add = [&](const QString& label, const auto& text) {
        std::vector<QString> cells;
        for (const RunEntryPtr& run : runs) cells.push_back(text(*run));
        rows.emplace_back(label, std::move(cells));
    };
    // What differs most between compared runs first: the outcome, then the settings.
    add(tr("Test error"), [](const RunEntry& r) { return number(r.result.test.error); });
    // The baseline every error is judged against (its violation is 0), flagged when reached.
    add(tr("Always one class: error"), [](const RunEntry& r) {
        if (!r.result.constant.known || r.result.regression.known) return QStringLiteral("–");
        return (pfa::nearConstant(r.result) ? QStringLiteral("⚠ ") : QString()) +
               number(r.result.constant.error);
    });
    add(tr("Excess risk (regression)"),
        [](const RunEntry& r) { return number(r.result.regression.excessRisk); });
    add(tr("Violation (chosen notion)"), [](const RunEntry& r) { return number(r.violation()); });
    add(tr("ERMI (chosen notion)"),
        [](const RunEntry& r) { return number(r.result.test.ermiHard(r.result.config.fairness)); });
    add(tr("Algorithm"),
        [](const RunEntry& r) { return QString::fromStdString(r.result.config.algorithm); });
    add(tr("Data set"), [](const RunEntry& r) { return QString::fromStdString(r.result.dataset); });
    add(tr("Fairness notion"), [](const RunEntry& r) {
        return QString::fromStdString(pfa::fairnessName(r.result.config.fairness));
    });
    add(tr("Target ε"), [](const RunEntry& r) {
        return r.result.privacy.isPrivate ? number(r.result.config.epsilon) : QStringLiteral("∞");
    });
    add(tr("Certified ε"), [](const RunEntry& r) {
        return r.result.privacy.isPrivate ? number(r.certifiedEpsilon()) : tr("∞ (not private)");
    });
    add(tr("Protects (unit, adjacency)"), [](const RunEntry& r) { return r.protectionText(); });
    add(tr("δ"), [](const RunEntry& r) {
        return r.result.privacy.isPrivate ? number(r.result.privacy.delta, 3) : QStringLiteral("–");
    });
    add(tr("λ"), [](const RunEntry& r) { return number(r.result.config.lambda); });
    add(tr("Seed"), [](const RunEntry& r) { return QString::number(r.result.config.seed); });
    // In each algorithm's own unit: rounds and steps are not epochs.
    add(tr("Progress"), [](const RunEntry& r) { return r.progressText(); });
    // The algorithms' own settings that differ among the runs (the trust model, the
    // personalisation, a step size): the one setting a comparison is about, by its label.
    {
        std::vector<std::string> names;
        for (const RunEntryPtr& run : runs) {
            for (const auto& [name, value] : run->result.config.extra) {
                if (std::find(names.begin(), names.end(), name) == names.end())
                    names.push_back(name);
            }
        }
        for (const std::string& name : names) {
            std::vector<QString> cells;
            for (const RunEntryPtr& run : runs) {
                const auto it = run->result.config.extra.find(name);
                cells.push_back(it == run->result.config.extra.end()
                                    ? QStringLiteral("–")
                                    : QString::fromStdString(pfa::shortValueText(it->second)));
            }
            if (std::all_of(cells.begin(), cells.end(),
                            [&](const QString& cell) { return cell == cells.front(); }))
                continue;
            const pfa::ParamSpec* spec = pfa::findParameter(name);
            rows.emplace_back(
                spec ? QString::fromStdString(spec->label) : QString::fromStdString(name),
                std::move(cells));
        }
    }
    add(tr("Status"), [](const RunEntry& r) { return r.statusText(); });
    add(tr("Demographic-parity gap"),
        [](const RunEntry& r) { return number(r.result.test.dpGap); });
    add(tr("Equalized-odds gap"), [](const RunEntry& r) { return number(r.result.test.eoGap); });
    add(tr("Equal-opportunity gap"),
        [](const RunEntry& r) { return number(r.result.test.eoppGap); });
    add(tr("Training loss (diagnostic)"), [](const RunEntry& r) {
        if (r.result.privacy.isPrivate && !r.result.privacy.diagnosticsRecorded)
            return tr("not recorded");
        return number(r.result.trainLoss);
    });
    // Per-group rates, for every group any of the runs has (in first-seen order).
    QStringList groups;
    for (const RunEntryPtr& run : runs) {
        for (const pfa::GroupRow& g : run->result.test.groups) {
            const QString name = QString::fromStdString(g.group);
            if (!groups.contains(name)) groups << name;
        }
    }
    auto groupValue = [](const RunEntry& r, const QString& group, double pfa::GroupRow::*field) {
        for (const pfa::GroupRow& g : r.result.test.groups) {
            if (QString::fromStdString(g.group) == group) return rate(g.*field);
        }
        return QStringLiteral("–");
    };
    for (const QString& group : groups) {
        // A group too small for reliable rates in any of the runs is marked, as in the table.
        bool small = false;
        for (const RunEntryPtr& run : runs) {
            for (const pfa::GroupRow& g : run->result.test.groups)
                small =
                    small || (QString::fromStdString(g.group) == group && g.n < kSmallGroupRows);
        }
        const QString shown = small ? QStringLiteral("⚠ ") + group : group;
        add(tr("Selection rate — %1").arg(shown),
            [&](const RunEntry& r) { return groupValue(r, group, &pfa::GroupRow::selectionRate); });
        add(tr("Accuracy — %1").arg(shown),
            [&](const RunEntry& r) { return groupValue(r, group, &pfa::GroupRow::accuracy); });
    }

    m_compare->clear();
    m_compare->setColumnCount(static_cast<int>(runs.size()) + 1);
    m_compare->setRowCount(static_cast<int>(rows.size()));
    m_compare->setHorizontalHeaderItem(0, new QTableWidgetItem(QString()));
    for (std::size_t c = 0; c < runs.size(); ++c) {
        auto* header = new QTableWidgetItem(tr("Run %1").arg(runs[c]->id));
        if (c < colors.size() && colors[c].isValid()) header->setIcon(swatch(colors[c]));
        header->setToolTip(runs[c]->summary());
        m_compare->setHorizontalHeaderItem(static_cast<int>(c) + 1, header);
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        auto* label = new QTableWidgetItem(rows[r].first);
        QFont bold = label->font();
        bold.setBold(true);
        label->setFont(bold);
        m_compare->setItem(static_cast<int>(r), 0, label);
        // Values that differ between the runs stand out in bold.
        const std::vector<QString>& cells = rows[r].second;
        const bool differ = std::any_of(cells.begin(), cells.end(),
                                        [&](const QString& cell) { return cell != cells.front(); });
        for (std::size_t c = 0; c < runs.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (differ) item->setFont(bold);
            m_compare->setItem(static_cast<int>(r), static_cast<int>(c) + 1, item);
        }
    }
}

void RunDetailsPanel::showRun(const RunEntryPtr& run) {
    m_compare->setVisible(false);
    m_table->setVisible(true);
    m_table->setRowCount(0);
    showUnits(run ? std::vector<RunEntryPtr>{run} : std::vector<RunEntryPtr>{});
    if (!run) {
        m_summary->setText(
            tr("Select a run in the history (or click a point of the tradeoff "
               "chart) to see its groups."));
        return;
    }
    m_summary->setText(run->summary());
    auto cell = [](double v) {
        auto* item =
            new QTableWidgetItem(std::isnan(v) ? QStringLiteral("–") : QString::number(v, 'f', 3));
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    for (const pfa::GroupRow& g : run->result.test.groups) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        const QString note = smallGroupNote(g.n);
        // A small (or empty) group keeps its row, flagged: a warning sign, italics, the reason.
        auto* name = new QTableWidgetItem((note.isEmpty() ? QString() : QStringLiteral("⚠ ")) +
                                          QString::fromStdString(g.group));
        m_table->setItem(row, 0, name);
        auto* n = new QTableWidgetItem(g.n == 0 ? tr("empty") : QString::number(g.n));
        n->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, 1, n);
        m_table->setItem(row, 2, cell(g.baseRate));
        m_table->setItem(row, 3, cell(g.selectionRate));
        m_table->setItem(row, 4, cell(g.truePositiveRate));
        m_table->setItem(row, 5, cell(g.falsePositiveRate));
        m_table->setItem(row, 6, cell(g.accuracy));
        if (!note.isEmpty()) {
            for (int column = 0; column < m_table->columnCount(); ++column) {
                QTableWidgetItem* item = m_table->item(row, column);
                QFont italic = item->font();
                italic.setItalic(true);
                item->setFont(italic);
                item->setForeground(QColor(154, 52, 18));
                item->setToolTip(note);
            }
        }
    }
}

PrivacyStatementView::PrivacyStatementView(QWidget* parent) : QWidget(parent) {
    m_text = new QTextBrowser();
    m_text->setPlaceholderText(
        tr("The privacy statement of the selected run appears here: "
           "which accountant, which δ, what is protected."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_text);
}

void PrivacyStatementView::setLedgerBook(LedgerBook* book) {
    m_book = book;
    connect(book, &LedgerBook::changed, this, &PrivacyStatementView::refresh);
    connect(book, &LedgerBook::persistentChanged, this, &PrivacyStatementView::refresh);
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
    // Which run this is, first: the statement does not follow the selection alone (a run that
    // just finished is shown while older ones stay selected).
    const pfa::TrainConfig& c = m_run->result.config;
    QString text =
        tr("Run %1: %2 on %3, seed %4\n")
            .arg(m_run->id)
            .arg(QString::fromStdString(c.algorithm), QString::fromStdString(m_run->result.dataset))
            .arg(c.seed);
    text += QString::fromStdString(m_run->result.privacy.statement);
    if (m_run->result.privacy.isPrivate && m_book) {
        const std::string key = pfa::runLedgerKey(m_run->context, m_run->result.dataset);
        if (const std::optional<pfa::privacy::LedgerTotals> totals = m_book->currentTotals(key)) {
            text += tr("\nLedger of this data set now (not covered above): %1.\n")
                        .arg(QString::fromStdString(pfa::privacy::describeTotals(*totals)));
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
        if (line.startsWith(QLatin1String("Run ")) && html.isEmpty()) {
            html += QStringLiteral("<p style=\"font-size: large\"><b>%1</b></p>")
                        .arg(line.toHtmlEscaped());
            continue;
        }
        if (colon > 0 && colon < 40 && !line.startsWith(QLatin1String("Privacy statement"))) {
            body =
                QStringLiteral("<b>%1</b>%2")
                    .arg(line.left(colon + 1).toHtmlEscaped(), line.mid(colon + 1).toHtmlEscaped());
        } else if (line.startsWith(QLatin1String("Privacy statement"))) {
            body = QStringLiteral("<b>%1</b>").arg(body);
        }
        html +=
            caution
                ? QStringLiteral("<p style=\"margin:0 0 4px 0; color:#9a3412\">%1</p>").arg(body)
                : QStringLiteral("<p style=\"margin:0 0 4px 0\">%1</p>").arg(body);
    }
    m_text->setHtml(html);
}

QString PrivacyStatementView::text() const { return m_text->toPlainText(); }

}  // namespace pfa::ui
