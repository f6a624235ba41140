// File → Export report…: the one-page report of a run of the history, written off the GUI thread
// as PDF or HTML by the file's extension, and a clear message when it cannot be written.
#include "ui/actions/report_export.h"

#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include "ui_test_support.h"

namespace ui_report_export_test {

using namespace pfa::ui;

TEST_CASE("File > Export report writes the PDF and HTML report of a run", "[ui][report]") {
    auto window = test::readyWindow(4);
    auto* report = window->findChild<ReportExport*>();
    REQUIRE(report != nullptr);
    CHECK_FALSE(report->action()->isEnabled());  // nothing to report on yet
    // The action sits in the File menu.
    QMenu* file = window->menuBar()->actions().front()->menu();
    REQUIRE(file != nullptr);
    CHECK(file->actions().contains(report->action()));

    REQUIRE(test::runWithLambdas(*window, {0.0, 1.0}));
    CHECK(report->action()->isEnabled());
    // What a user sees: the File menu with the entry (build/screenshots/report-export-menu.png).
    file->popup(window->mapToGlobal(QPoint(0, 0)));
    REQUIRE(QTest::qWaitForWindowExposed(file, 60000));
    CHECK(file->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/report-export-menu.png")));
    file->hide();

    QTemporaryDir folder;
    QSignalSpy finished(report, &ReportExport::finished);
    const QString pdf = folder.filePath(QStringLiteral("report.pdf"));
    report->exportTo(pdf);
    REQUIRE(test::waitForSignals(finished, 1));
    CHECK(finished.at(0).at(0).toBool());
    CHECK(finished.at(0).at(1).toString().contains(QStringLiteral("written to")));
    QFile pdfFile(pdf);
    REQUIRE(pdfFile.open(QIODevice::ReadOnly));
    CHECK(pdfFile.read(5) == QByteArray("%PDF-"));

    const QString html = folder.filePath(QStringLiteral("report.html"));
    report->exportTo(html);
    REQUIRE(test::waitForSignals(finished, 2));
    CHECK(finished.at(1).at(0).toBool());
    QFile htmlFile(html);
    REQUIRE(htmlFile.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(htmlFile.readAll());
    CHECK(text.contains(QStringLiteral("Privacy statement")));
    CHECK(text.contains(QStringLiteral("<th>Selection rate</th>")));
    CHECK(text.contains(QStringLiteral("run 2 of 2 in this session's run history")));
    CHECK(text.contains(QStringLiteral("pfa-cli train")));

    // A folder that does not exist: a message, no file, no crash.
    const QString nowhere = folder.filePath(QStringLiteral("missing/report.pdf"));
    report->exportTo(nowhere);
    REQUIRE(test::waitForSignals(finished, 3));
    CHECK_FALSE(finished.at(2).at(0).toBool());
    CHECK(finished.at(2).at(1).toString().contains(QStringLiteral("could not be written")));
    CHECK_FALSE(QFile::exists(nowhere));
}

}  // namespace ui_report_export_test
