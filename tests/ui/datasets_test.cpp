// Data sets in the GUI: catalog data sets imported from a folder and trained on, download
// through a mirror with progress and cancel, the data-set card, the import wizard.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "test_http_server.h"
#include "ui/charts/group_bar_chart.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/dialogs/download_dialog.h"
#include "ui/dialogs/import_wizard.h"
#include "ui/panels/dataset_card.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_datasets_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

const std::map<std::string, std::string> kSharedFolder = {
    {"adult", "adult"},
    {"compas", "compas"},
    {"credit-card", "credit-card-default"},
    {"german-credit", "german-credit"},
    {"parkinsons", "parkinsons-telemonitoring"}};

QString sharedFolder(const std::string& name) {
    return sharedDatasetFolder(QString::fromStdString(kSharedFolder.at(name)));
}

bool selectDataset(MainWindow& window, const std::string& name) {
    QComboBox* box = window.experimentPanel()->datasetBox();
    const int index = box->findData(QString::fromStdString(name));
    if (index < 0) return false;
    box->setCurrentIndex(index);
    return true;
}

/// Catalog data set `name`, imported from its offline copy, loads in the GUI and trains a
/// DP-FERMI run: one test case per data set, so that each one missing is reported skipped.
void checkCatalogDatasetInGui(const std::string& name) {
    const pfa::CatalogEntry& entry = pfa::findCatalogEntry(name);
    const QString folder = sharedFolder(entry.name);
    if (folder.isEmpty())
        PFA_SKIP_TEST(missingDatasetReason(QString::fromStdString(kSharedFolder.at(entry.name))));
    auto window = readyWindow(20);
    REQUIRE(selectDataset(*window, entry.name));
    if (!window->experimentPanel()->catalogFilesPresent()) {
        // Not downloaded: Run is disabled and the card shows what the data set is.
        CHECK_FALSE(window->runAction()->isEnabled());
        CHECK(window->datasetCard()->text().contains(QStringLiteral("Not downloaded yet")));
        // The import runs off the GUI thread and reports back with a signal.
        QSignalSpy imported(window->datasetController(), &DatasetController::importFinished);
        window->datasetController()->importFromFolder(QString::fromStdString(entry.name), folder);
        REQUIRE(waitForSignals(imported, 1, 60000));
        REQUIRE(imported.at(0).at(1).toString().toStdString() == "");
    }
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 20000));
    const pfa::PreparedDatasetPtr data = window->datasetController()->dataset();
    REQUIRE(data);
    const pfa::SensitiveChoice& choice = entry.sensitiveChoices.front();
    CHECK(data->split.train.rows() + data->split.test.rows() == entry.expectedRows);
    CHECK(data->split.train.features() == choice.expectedFeatures);
    // The card shows the source, license and groups with their base rates.
    CHECK(window->datasetCard()->text().contains(
        QString::fromStdString(entry.license).toHtmlEscaped()));
    CHECK(window->datasetCard()->groupChart()->groups().size() == choice.expectedGroups.size());

    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    const RunEntryPtr run = finishedEntry(finished, 0);
    CHECK(run->result.status == pfa::RunStatus::Completed);
    CHECK(run->result.config.algorithm == "dp-fermi");
    CHECK(run->result.privacy.epsilonSpent <= 1.0);
    WARN(entry.name << " (" << choice.id << "): " << entry.expectedRows << " rows, "
                    << data->split.train.features() << " features, groups "
                    << data->split.train.numGroups()
                    << "; DP-FERMI eps=1 lambda=1, 20 epochs: test error " << run->result.test.error
                    << ", violation " << run->violation() << ", certified eps "
                    << run->result.privacy.epsilonSpent);
}

}  // namespace

TEST_CASE("The catalog's data sets are those the GUI tests below load", "[ui][datasets]") {
    std::set<std::string> names;
    for (const pfa::CatalogEntry& entry : pfa::datasetCatalog()) names.insert(entry.name);
    std::set<std::string> tested;
    for (const auto& [name, folder] : kSharedFolder) tested.insert(name);
    CHECK(names == tested);
}

TEST_CASE("Catalog data set adult loads in the GUI and trains a DP-FERMI run", "[ui][datasets]") {
    checkCatalogDatasetInGui("adult");
}
TEST_CASE("Catalog data set compas loads in the GUI and trains a DP-FERMI run", "[ui][datasets]") {
    checkCatalogDatasetInGui("compas");
}
TEST_CASE("Catalog data set credit-card loads in the GUI and trains a DP-FERMI run",
          "[ui][datasets]") {
    checkCatalogDatasetInGui("credit-card");
}
TEST_CASE("Catalog data set german-credit loads in the GUI and trains a DP-FERMI run",
          "[ui][datasets]") {
    checkCatalogDatasetInGui("german-credit");
}
TEST_CASE("Catalog data set parkinsons loads in the GUI and trains a DP-FERMI run",
          "[ui][datasets]") {
    checkCatalogDatasetInGui("parkinsons");
}

TEST_CASE("Download dialog: mirror download with verification, and cancel keeps the partial file",
          "[ui][datasets][needs-data]") {
    const QString folder = sharedFolder("german-credit");
    if (folder.isEmpty()) PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("german-credit")));
    QFile source(QDir(folder).filePath(QStringLiteral("german.data")));
    REQUIRE(source.open(QIODevice::ReadOnly));
    const QByteArray bytes = source.readAll();
    pfa::test::TestHttpServer server;
    server.addBlob("/german-credit/german.data", bytes.toStdString());
    qputenv("PFA_DATASET_MIRROR", QByteArray::fromStdString(server.url("")));
    const std::filesystem::path target = pfa::catalogDatasetDirectory("german-credit");
    std::filesystem::remove_all(target);

    SECTION("cancel, then resume") {
        server.stallConnections(30000, 1);  // the first transfer stops after 30 kB
        DatasetController datasets;
        DownloadDialog dialog(&datasets, QStringLiteral("german-credit"));
        QSignalSpy done(&dialog, &QDialog::finished);
        QSignalSpy progress(&dialog, &DownloadDialog::progressed);
        dialog.start();
        // Until the 30 kB are in the partial file (the first reports may come before any byte):
        // the server holds the transfer there until the client leaves, so nothing races the
        // cancel, however slow the machine.
        REQUIRE(QTest::qWaitFor(
            [&] { return !progress.isEmpty() && progress.last().at(0).toLongLong() >= 30000; },
            60000));
        dialog.reject();  // the Cancel button
        REQUIRE(waitForSignals(done, 1, 60000));
        CHECK(dialog.cancelled());
        CHECK(std::filesystem::exists(target / "german.data.part"));
        CHECK_FALSE(std::filesystem::exists(target / "german.data"));
        DownloadDialog again(&datasets, QStringLiteral("german-credit"));
        QSignalSpy doneAgain(&again, &QDialog::finished);
        again.start();
        REQUIRE(waitForSignals(doneAgain, 1, 60000));
        CHECK(again.error().isEmpty());
        CHECK(std::filesystem::file_size(target / "german.data") ==
              static_cast<std::uintmax_t>(bytes.size()));
    }
    SECTION("a corrupted file is rejected with a clear message") {
        server.setCorruption(true);
        DatasetController datasets;
        QSignalSpy finished(&datasets, &DatasetController::downloadFinished);
        DownloadDialog dialog(&datasets, QStringLiteral("german-credit"));
        QSignalSpy done(&dialog, &QDialog::finished);
        dialog.start();
        REQUIRE(waitForSignals(done, 1, 60000));
        CHECK(dialog.error().contains(QStringLiteral("SHA-256")));
        // The window's message says the way around it.
        CHECK(dialog.failureMessage().startsWith(dialog.error()));
        CHECK(dialog.failureMessage().contains(QStringLiteral("Import from folder")));
        REQUIRE(finished.count() == 1);  // the controller says so too, without a dialog
        CHECK(finished.at(0).at(0).toString() == QStringLiteral("german-credit"));
        CHECK(finished.at(0).at(1).toString() == dialog.error());
        CHECK_FALSE(finished.at(0).at(2).toBool());
        CHECK_FALSE(std::filesystem::exists(target / "german.data"));
    }
    qunsetenv("PFA_DATASET_MIRROR");
    std::filesystem::remove_all(target);
}

TEST_CASE("Import wizard: preview, roles, full check, and bad files named precisely",
          "[ui][datasets][slow]") {
    QTemporaryDir dir;
    const QString good = dir.filePath(QStringLiteral("loans.csv"));
    {
        std::ofstream out(good.toStdString());
        out << "income;region;gender;race;approved\n";
        for (int i = 0; i < 400; ++i) {
            out << 20 + (i * 37) % 80 << ";r" << i % 3 << ";" << (i % 2 ? "m" : "f") << ";"
                << (i % 5 ? "x" : "y") << ";" << ((i * 37) % 80 > 35 ? "yes" : "no") << "\n";
        }
    }
    ImportWizard wizard;
    QSignalSpy previewed(&wizard, &ImportWizard::previewReady);
    wizard.setFile(good);
    REQUIRE(waitForSignals(previewed, 1, 60000));
    wizard.setColumnRole(QStringLiteral("gender"), QStringLiteral("sensitive"));
    wizard.setColumnRole(QStringLiteral("race"), QStringLiteral("sensitive"));  // intersectional
    wizard.setColumnRole(QStringLiteral("approved"), QStringLiteral("target"));
    wizard.setPositiveValue(QStringLiteral("yes"));
    const pfa::Schema schema = wizard.schema();
    CHECK(schema.delimiter == ';');
    CHECK(schema.target == "approved");
    CHECK(schema.positiveValues == std::vector<std::string>{"yes"});
    CHECK(schema.sensitive == std::vector<std::string>{"gender", "race"});
    QSignalSpy checked(&wizard, &ImportWizard::checkFinished);
    wizard.runCheck();
    REQUIRE(waitForSignals(checked, 1, 60000));
    CHECK(wizard.checkSucceeded());
    CHECK(wizard.checkError().isEmpty());

    // Bad files: each gives its own precise message.
    struct Bad {
        const char* content;
        const char* expected;
    };
    for (const Bad& bad :
         {Bad{"", "empty"}, Bad{"a,b,y,s\n1,2,yes,f\n3,4,no\n", "expected 4 fields"},
          Bad{"a,y,s\n1,yes,f\nx,no,m\n2,no,f\n", "'x'"},
          Bad{"a,y,s\n1,yes,f\n2,yes,m\n", "one class"}}) {
        INFO(bad.expected);
        const QString path = dir.filePath(QStringLiteral("bad.csv"));
        {
            std::ofstream out(path.toStdString(), std::ios::trunc);
            out << bad.content;
        }
        ImportWizard w;
        QSignalSpy p(&w, &ImportWizard::previewReady);
        QSignalSpy refused(&w, &ImportWizard::previewFailed);
        w.setFile(path);
        // Either answer arrives, however long the machine takes to read the file.
        REQUIRE(QTest::qWaitFor([&] { return p.count() + refused.count() > 0; }, 60000));
        if (refused.count() > 0) {
            // The preview itself refused the file (empty, ragged): nothing to import.
            CHECK(p.count() == 0);
            CHECK_FALSE(w.hasPreview());
            CHECK(refused.at(0).at(0).toString().contains(QString::fromLatin1(bad.expected),
                                                          Qt::CaseInsensitive));
            continue;
        }
        w.setColumnRole(QStringLiteral("a"), QStringLiteral("numeric"));
        w.setColumnRole(QStringLiteral("s"), QStringLiteral("sensitive"));
        w.setColumnRole(QStringLiteral("y"), QStringLiteral("target"));
        w.setPositiveValue(QStringLiteral("yes"));
        QSignalSpy c(&w, &ImportWizard::checkFinished);
        w.runCheck();
        REQUIRE(waitForSignals(c, 1, 60000));
        CHECK_FALSE(w.checkSucceeded());
        CHECK(w.checkError().contains(QString::fromLatin1(bad.expected), Qt::CaseInsensitive));
    }
}

}  // namespace ui_datasets_test
