// Importing your own data and opening files the user picked: a short row in the import wizard
// (listed by line, skipped only when asked, the count kept), the typed file path, a numeric
// sensitive column with many values (warned about, offered a median split), a file that is
// not a results file (a dialog saying so), a damaged results file (the skipped lines and
// why) and damaged session files (messages without the JSON parser's words).
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>
#include <fstream>

#include "core/sweep/sweep_spec.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/results_file_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/import_wizard.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/session_file.h"
#include "ui_test_support.h"

namespace ui_import_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// 300 loan rows (income, age with 61 values, region, approved) whose line 202 is short.
QString writeLoans(const QTemporaryDir& dir, bool shortRow) {
    const QString path = dir.filePath(QStringLiteral("loans.csv"));
    std::ofstream out(path.toStdString(), std::ios::trunc);
    out << "income,age,region,approved\n";
    for (int i = 0; i < 300; ++i) {
        if (shortRow && i == 200) {
            out << "31,44\n";  // line 202
            continue;
        }
        out << 10 + (i * 7) % 37 << "," << 20 + i % 61 << ",r" << i % 3 << ","
            << ((i * 7) % 37 > 18 ? "yes" : "no") << "\n";
    }
    return path;
}

/// Where the screenshots of these tests go.
QString shot(const QString& name) { return QStringLiteral(PFA_SCREENSHOT_DIR "/") + name; }

QString lower(const QString& text) { return text.toLower(); }

}  // namespace

TEST_CASE("Import wizard: a short row is named, the preview stays, skipping it enables Next",
          "[ui][import]") {
    QTemporaryDir dir;
    const QString path = writeLoans(dir, true);
    ImportWizard wizard;
    wizard.show();
    QSignalSpy previewed(&wizard, &ImportWizard::previewReady);
    wizard.setFile(path);
    REQUIRE(waitForSignals(previewed, 1, 60000));
    REQUIRE(wizard.hasPreview());

    // The preview is shown, the bad line named, Next disabled until the user decides.
    auto* table = wizard.findChild<QTableWidget*>(QStringLiteral("previewTable"));
    REQUIRE(table);
    CHECK(table->columnCount() == 4);
    CHECK(table->rowCount() == 20);
    CHECK(wizard.badRowLines() == QStringList{QStringLiteral("line 202 has 2 fields, expected 4")});
    QCheckBox* skip = nullptr;
    for (auto* box : wizard.findChildren<QCheckBox*>()) {
        if (box->text().startsWith(QStringLiteral("Skip"))) skip = box;
    }
    REQUIRE(skip);
    CHECK(skip->isVisible());
    CHECK(skip->text() == QStringLiteral("Skip 1 bad row"));
    bool named = false;
    for (auto* label : wizard.findChildren<QLabel*>()) {
        named = named || (label->isVisible() &&
                          label->text().contains(QStringLiteral("line 202 has 2 fields")));
    }
    CHECK(named);
    QAbstractButton* next = wizard.button(QWizard::NextButton);
    CHECK_FALSE(wizard.currentPage()->isComplete());
    CHECK_FALSE(next->isEnabled());
    QTest::qWait(50);
    REQUIRE(wizard.grab().save(shot(QStringLiteral("import-bad-row.png"))));

    QTest::mouseClick(skip, Qt::LeftButton, {}, QPoint(8, skip->height() / 2));
    CHECK(skip->isChecked());
    CHECK(wizard.currentPage()->isComplete());
    CHECK(next->isEnabled());
    REQUIRE(wizard.grab().save(shot(QStringLiteral("import-bad-row-skipped.png"))));
    QTest::mouseClick(next, Qt::LeftButton);
    CHECK(wizard.currentId() == 1);

    wizard.setColumnRole(QStringLiteral("region"), QStringLiteral("sensitive"));
    wizard.setColumnRole(QStringLiteral("approved"), QStringLiteral("target"));
    wizard.setPositiveValue(QStringLiteral("yes"));
    const pfa::Schema schema = wizard.schema();
    CHECK(schema.skipMalformedRows);  // saved with the import: it repeats
    QSignalSpy checked(&wizard, &ImportWizard::checkFinished);
    wizard.runCheck();
    REQUIRE(waitForSignals(checked, 1, 60000));
    INFO(wizard.checkError().toStdString());
    REQUIRE(wizard.checkSucceeded());
    CHECK(wizard.checkSummary().contains(QStringLiteral("299 rows")));
    CHECK(wizard.checkSummary().contains(QStringLiteral("1 malformed row skipped (line 202)")));

    // Not skipped: the full read stops at the line and says which.
    wizard.setSkipBadRows(false);
    CHECK_FALSE(wizard.schema().skipMalformedRows);
    wizard.runCheck();
    REQUIRE(waitForSignals(checked, 2, 60000));
    CHECK_FALSE(wizard.checkSucceeded());
    CHECK(
        wizard.checkError().contains(QStringLiteral("loans.csv:202: expected 4 fields, found 2")));
}

TEST_CASE("Import wizard: the file field takes a typed path, a bad one gets a clear message",
          "[ui][import]") {
    QTemporaryDir dir;
    const QString path = writeLoans(dir, false);
    ImportWizard wizard;
    wizard.show();
    QLineEdit* field = nullptr;
    for (auto* edit : wizard.findChildren<QLineEdit*>()) {
        if (edit->placeholderText().contains(QStringLiteral("path"))) field = edit;
    }
    REQUIRE(field);
    CHECK_FALSE(field->isReadOnly());
    CHECK_FALSE(field->toolTip().isEmpty());

    // A path that leads nowhere: said at once, nothing to go on with.
    field->setFocus();
    QTest::keyClicks(field, dir.filePath(QStringLiteral("no-such.csv")));
    QTest::keyClick(field, Qt::Key_Return);
    CHECK_FALSE(wizard.hasPreview());
    CHECK_FALSE(wizard.currentPage()->isComplete());
    bool said = false;
    for (auto* label : wizard.findChildren<QLabel*>()) {
        said = said || label->text().contains(QStringLiteral("There is no file at"));
    }
    CHECK(said);
    field->clear();
    QTest::keyClicks(field, dir.path());
    QTest::keyClick(field, Qt::Key_Return);
    said = false;
    for (auto* label : wizard.findChildren<QLabel*>())
        said = said || label->text().contains(QStringLiteral("is a folder"));
    CHECK(said);

    // A real file typed in: previewed like a browsed one.
    QSignalSpy previewed(&wizard, &ImportWizard::previewReady);
    field->clear();
    QTest::keyClicks(field, path);
    QTest::keyClick(field, Qt::Key_Return);
    REQUIRE(waitForSignals(previewed, 1, 60000));
    CHECK(wizard.hasPreview());
    CHECK(wizard.filePath() == path);
    CHECK(wizard.badRowLines().isEmpty());
    CHECK(wizard.currentPage()->isComplete());
}

TEST_CASE(
    "Import wizard: a numeric sensitive column with many values is flagged and can be split at its "
    "median",
    "[ui][import]") {
    QTemporaryDir dir;
    ImportWizard wizard;
    QSignalSpy previewed(&wizard, &ImportWizard::previewReady);
    wizard.setFile(writeLoans(dir, false));
    REQUIRE(waitForSignals(previewed, 1, 60000));
    wizard.setColumnRole(QStringLiteral("approved"), QStringLiteral("target"));
    wizard.setPositiveValue(QStringLiteral("yes"));

    // A column with three values: no warning.
    wizard.setColumnRole(QStringLiteral("region"), QStringLiteral("sensitive"));
    CHECK(wizard.sensitiveWarning().isEmpty());
    CHECK_FALSE(wizard.binningOffered());

    // Age (61 values) alone: a warning and the offer.
    wizard.setColumnRole(QStringLiteral("region"), QStringLiteral("categorical"));
    wizard.setColumnRole(QStringLiteral("age"), QStringLiteral("sensitive"));
    const QString warning = wizard.sensitiveWarning();
    CHECK(warning.contains(QStringLiteral("“age” has 61 distinct values")));
    CHECK(warning.contains(QStringLiteral("too small to compare")));
    REQUIRE(wizard.binningOffered());
    CHECK_FALSE(wizard.schema().sensitiveThreshold.has_value());  // an offer, not a decision
    wizard.show();
    wizard.next();
    REQUIRE(wizard.currentId() == 1);
    QTest::qWait(50);
    REQUIRE(wizard.grab().save(shot(QStringLiteral("import-many-valued-sensitive.png"))));
    wizard.setBinSensitive(true);
    const pfa::Schema binned = wizard.schema();
    REQUIRE(binned.sensitiveThreshold.has_value());
    CHECK(*binned.sensitiveThreshold == Approx(50));  // ages 20..80, half below 50
    QSignalSpy checked(&wizard, &ImportWizard::checkFinished);
    wizard.runCheck();
    REQUIRE(waitForSignals(checked, 1, 60000));
    INFO(wizard.checkError().toStdString());
    REQUIRE(wizard.checkSucceeded());
    CHECK(wizard.checkSummary().contains(QStringLiteral("2 groups")));

    // With a second sensitive column the threshold does not apply: warned, not offered.
    wizard.setColumnRole(QStringLiteral("region"), QStringLiteral("sensitive"));
    CHECK_FALSE(wizard.sensitiveWarning().isEmpty());
    CHECK_FALSE(wizard.binningOffered());
    CHECK_FALSE(wizard.schema().sensitiveThreshold.has_value());
}

TEST_CASE("Open sweep results: a file that is not a results file gets a dialog saying so",
          "[ui][import][results]") {
    auto window = readyWindow(5);
    QTemporaryDir dir;
    const QString passwd = dir.filePath(QStringLiteral("passwd"));
    {
        QFile file(passwd);
        REQUIRE(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 24; ++i)
            file.write(
                QStringLiteral("user%1:x:%1:%1:User %1:/home/user%1:/bin/sh\n").arg(i).toUtf8());
    }
    QSignalSpy opened(window->resultsFiles(), &ResultsFileController::opened);
    window->resultsFiles()->open(passwd);
    REQUIRE(waitForSignals(opened, 1, 60000));
    CHECK(opened.at(0).at(4).toString().contains(QStringLiteral("not a results file")));
    QMessageBox* box = nullptr;
    REQUIRE(QTest::qWaitFor(
        [&] {
            return (box = window->findChild<QMessageBox*>(QStringLiteral("resultsFileProblem")));
        },
        60000));
    CHECK(box->isVisible());
    CHECK(box->text().startsWith(QStringLiteral("passwd is not a results file.")));
    CHECK(box->text().contains(QStringLiteral("None of the 24 lines of this file is such a run")));
    CHECK(box->informativeText().isEmpty());
    CHECK_FALSE(lower(box->text()).contains(QStringLiteral("damaged")));
    CHECK(window->historyModel()->rowCount() == 0);
    QTest::qWait(50);
    REQUIRE(box->grab().save(shot(QStringLiteral("results-not-a-results-file.png"))));
    box->accept();
}

TEST_CASE("Open sweep results: a damaged results file lists the lines it skipped and why",
          "[ui][import][results]") {
    DatasetController datasets;
    QSignalSpy ready(&datasets, &DatasetController::datasetReady);
    datasets.requestDataset(pfa::DatasetRequest{});
    REQUIRE(waitForSignals(ready, 1, 20000));
    int nextId = 1;
    SweepController sweep([&] { return nextId++; });
    QTemporaryDir dir;
    const QString results = dir.filePath(QStringLiteral("runs.jsonl"));
    pfa::SweepSpec spec;
    spec.base.epochs = 2;
    spec.algorithms = {"dp-fermi"};
    spec.notions = {pfa::FairnessNotion::DemographicParity};
    spec.epsilons = {1.0, 4.0};
    spec.lambdas = {1.0};
    spec.seeds = {0};
    QSignalSpy done(&sweep, &SweepController::finished);
    sweep.start(spec, datasets.dataset(), 1, results);
    REQUIRE(waitForSignals(done, 1, 60000));
    {
        // Line 3 not JSON, line 4 JSON but no run, line 5 cut off by a crash.
        QFile file(results);
        REQUIRE(file.open(QIODevice::Append));
        file.write("this is no record\n{\"kind\": \"note\"}\n{\"algorithm\": \"dp-fer");
    }
    RunHistoryModel history;
    LedgerBook ledger;
    ResultsFileController files(&history, &ledger, [&] { return nextId++; });
    QSignalSpy opened(&files, &ResultsFileController::opened);
    QSignalSpy problem(&files, &ResultsFileController::problem);
    files.open(results);
    REQUIRE(waitForSignals(opened, 1, 20000));
    CHECK(opened.at(0).at(1).toInt() == 2);
    CHECK(opened.at(0).at(3).toInt() == 3);
    REQUIRE(problem.count() == 1);
    CHECK(problem.at(0).at(1).toString().contains(QStringLiteral(
        "runs.jsonl: 2 runs added; 3 damaged lines could not be read and were skipped.")));
    const QString details = problem.at(0).at(2).toString();
    CHECK(details == QStringLiteral("line 3: not a JSON record\n"
                                    "line 4: a JSON record, but not a run\n"
                                    "line 5: cut off: the file ends in the middle of this line"));
}

TEST_CASE("Session files: damaged or foreign files are refused in plain words",
          "[ui][import][session]") {
    QTemporaryDir dir;
    auto write = [&](const QString& name, const QByteArray& bytes) {
        const QString path = dir.filePath(name);
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        return path;
    };
    auto refusal = [](const QString& path) {
        SessionData data;
        QString error;
        CHECK_FALSE(loadSession(path, &data, &error));
        // The parser's words never reach the user.
        for (const char* jargon : {"illegal value", "byte", "unterminated", "garbage", "parse"}) {
            INFO(error.toStdString());
            CHECK_FALSE(lower(error).contains(QString::fromLatin1(jargon)));
        }
        return error;
    };
    CHECK(refusal(write(QStringLiteral("passwd.pfa"), "root:x:0:0:root:/root:/bin/bash\n")) ==
          QStringLiteral(
              "passwd.pfa is not a PFA Explorer session file. Sessions are the .pfa files that "
              "File ▸ Save session writes."));
    CHECK(refusal(write(QStringLiteral("empty.pfa"), "  \n")) ==
          QStringLiteral("empty.pfa is empty: it holds no session."));

    const QString good = dir.filePath(QStringLiteral("good.pfa"));
    SessionData session;
    session.settings[QStringLiteral("epochs")] = 12;
    QString error;
    REQUIRE(saveSession(good, session, &error));
    QFile file(good);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    CHECK(refusal(write(QStringLiteral("cut.pfa"), bytes.left(bytes.size() / 2)))
              .contains(QStringLiteral("cut.pfa is incomplete: the file ends too early")));
    QByteArray edited = bytes;
    edited.replace("\"settings\"",
                   "settings");  // a key without its quotes, as a hand edit might leave it
    const QString damaged = refusal(write(QStringLiteral("edited.pfa"), edited));
    CHECK(damaged.startsWith(QStringLiteral("edited.pfa is damaged near line ")));
    CHECK(refusal(write(QStringLiteral("other.pfa"), "{\"format\": \"something-else\"}"))
              .startsWith(QStringLiteral(
                  "other.pfa is not a PFA Explorer session file: it holds other data.")));
}

}  // namespace ui_import_test
