#include "ui/actions/report_export.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <exception>
#include <string>
#include <vector>

#include "core/report/report_model.h"
#include "core/report/report_render.h"
#include "core/sweep/run_record.h"
#include "core/util/json_value.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui/support/background.h"

namespace pfa::ui {

namespace {

/// What the background task hands back.
struct ExportOutcome {
    bool ok = false;
    QString message;
};

}  // namespace

ReportExport::ReportExport(RunHistoryModel* history, RunHistoryView* view, QWidget* window)
    : QObject(window), m_history(history), m_view(view), m_window(window) {
    m_action = new QAction(tr("Export re&port…"), this);
    m_action->setObjectName(QStringLiteral("exportReportAction"));
    m_action->setToolTip(
        tr("A one-page report (PDF or HTML) of the selected run, or of the latest one: data set, "
           "settings, tradeoff chart of every run, per-group rates with bootstrap confidence "
           "intervals, privacy statement and ledger, and the pfa-cli command that reruns it"));
    m_action->setStatusTip(m_action->toolTip());
    connect(m_action, &QAction::triggered, this, &ReportExport::chooseFile);
    connect(m_history, &RunHistoryModel::entriesChanged, this, &ReportExport::update);
    // A failure of an export the user asked for from the menu is said in a message box.
    connect(this, &ReportExport::finished, this, [this](bool ok, const QString& message) {
        if (!ok && m_fromMenu) QMessageBox::warning(m_window, tr("Export report"), message);
        m_fromMenu = false;
    });
    update();
}

void ReportExport::update() { m_action->setEnabled(!m_history->entries().empty() && !m_busy); }

void ReportExport::chooseFile() {
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export report"), QStringLiteral("pfa-report.pdf"),
        tr("PDF, one A4 page (*.pdf);;HTML page (*.html *.htm)"));
    if (path.isEmpty()) return;
    m_fromMenu = true;
    exportTo(path);
}

void ReportExport::exportTo(const QString& path) {
    const std::vector<RunEntryPtr> entries = m_history->entries();
    if (entries.empty()) {
        emit finished(false, tr("There is no run to report on yet: run an experiment first."));
        return;
    }
    // The run: the first selected one, else the latest completed one (the report's own default).
    std::string selector;
    const std::vector<RunEntryPtr> selected = m_view->selectedRuns();
    if (!selected.empty()) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i]->id == selected.front()->id) selector = std::to_string(i + 1);
        }
    }
    m_busy = true;
    update();
    const std::string file = QFileInfo(path).absoluteFilePath().toStdString();
    runInBackground(
        this,
        [entries, selector, file]() {
            ExportOutcome outcome;
            try {
                std::vector<JsonValue> records;
                records.reserve(entries.size());
                for (const RunEntryPtr& entry : entries) {
                    records.push_back(parseJson(runRecordJson(entry->result, entry->context)));
                }
                report::ReportOptions options;
                options.run = selector;
                options.sourceName = "this session's run history";
                const report::ReportModel model = report::buildReport(records, options);
                report::writeReport(model, file);
                outcome.ok = true;
                outcome.message =
                    QObject::tr("Report of %1 written to %2")
                        .arg(QString::fromStdString(model.title), QString::fromStdString(file));
            } catch (const std::exception& error) {
                outcome.message = QObject::tr("The report could not be written: %1")
                                      .arg(QString::fromUtf8(error.what()));
            }
            return outcome;
        },
        [this](ExportOutcome outcome) {
            m_busy = false;
            update();
            emit finished(outcome.ok, outcome.message);
        });
}

}  // namespace pfa::ui
