// The controllers behind the main window, tested without a window: data sets, results files,
// sessions, run actions, presets on the panel, the epoch-time estimate and the About text.
#include <Eigen/Core>
#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "core/algorithms/registry.h"
#include "core/sweep/results_file.h"
#include "core/sweep/sweep_manifest.h"
#include "core/sweep/sweep_preset.h"
#include "core/util/build_info.h"
#include "ui/actions/run_actions.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/results_file_controller.h"
#include "ui/controllers/session_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/panels/sweep_status_widget.h"
#include "ui/runs/epoch_time_estimate.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/runs/run_history_model.h"
#include "ui/shell/about_text.h"
#include "ui/shell/application.h"
#include "ui/shell/panel_wiring.h"
#include "ui_test_support.h"

namespace ui_controllers_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE(
    "Data-set controller: loads off the GUI thread, answers only the latest request, names "
    "failures",
    "[ui][controllers]") {
    DatasetController datasets;
    QSignalSpy loading(&datasets, &DatasetController::datasetLoading);
    QSignalSpy ready(&datasets, &DatasetController::datasetReady);
    QSignalSpy failed(&datasets, &DatasetController::datasetFailed);

    pfa::DatasetRequest first;
    pfa::DatasetRequest second;
    second.split.seed = 7;  // other training rows: another data set
    datasets.requestDataset(first);
    datasets.requestDataset(second);
    CHECK(loading.count() == 2);
    CHECK(ready.isEmpty());  // nothing is loaded on the GUI thread
    REQUIRE(waitForSignals(ready, 1, 20000));
    QTest::qWait(100);
    REQUIRE(ready.count() == 1);  // the first answer was superseded before it arrived
    const auto data = ready.at(0).at(0).value<pfa::PreparedDatasetPtr>();
    REQUIRE(data);
    CHECK(data->key == pfa::datasetKey(second));
    CHECK(datasets.dataset() == data);
    CHECK(datasets.datasetFor(second) == data);
    CHECK_FALSE(datasets.datasetFor(first));

    // The same request again is served from the cache: the very same data.
    datasets.requestDataset(second);
    REQUIRE(waitForSignals(ready, 2, 20000));
    CHECK(ready.at(1).at(0).value<pfa::PreparedDatasetPtr>() == data);

    pfa::DatasetRequest missing;
    missing.name = "file";
    missing.filePath = "/nonexistent/own-data.csv";
    datasets.requestDataset(missing);
    REQUIRE(waitForSignals(failed, 1, 20000));
    CHECK(failed.at(0).at(0).toString().contains(QStringLiteral("own-data.csv")));
    CHECK(datasets.dataset() == data);  // a failed load keeps the last good data set
}

TEST_CASE(
    "Results-file controller: a sweep's file is read off the GUI thread, each run listed once, "
    "damaged lines counted",
    "[ui][controllers][sweep]") {
    // A small sweep written by the sweep controller, without a window.
    DatasetController datasets;
    QSignalSpy ready(&datasets, &DatasetController::datasetReady);
    datasets.requestDataset(pfa::DatasetRequest{});
    REQUIRE(waitForSignals(ready, 1, 20000));
    const pfa::PreparedDatasetPtr data = datasets.dataset();
    int nextId = 1;
    SweepController sweep([&] { return nextId++; });
    QTemporaryDir dir;
    const QString results = dir.filePath(QStringLiteral("small.jsonl"));
    pfa::SweepSpec spec;
    spec.datasets = {data->key};
    spec.base.epochs = 3;
    spec.algorithms = {"dp-fermi"};
    spec.notions = {pfa::FairnessNotion::DemographicParity};
    spec.epsilons = {1.0, 4.0};
    spec.lambdas = {0.0, 1.0};
    spec.seeds = {0};
    spec.datasets.clear();  // the controller sets its data set
    SweepStatusWidget status;
    connectSweepStatus(&status, &sweep);
    CHECK(status.isHidden());
    QSignalSpy sweepDone(&sweep, &SweepController::finished);
    sweep.start(spec, data, 2, results);
    CHECK_FALSE(status.isHidden());  // shown while the sweep runs
    CHECK(status.text().contains(QStringLiteral("4 runs")));
    REQUIRE(waitForSignals(sweepDone, 1, 60000));
    CHECK(status.isHidden());
    REQUIRE(sweepDone.at(0).at(1).toString().isEmpty());

    RunHistoryModel history;
    LedgerBook ledger;
    ResultsFileController files(&history, &ledger, [&] { return nextId++; });
    QSignalSpy opened(&files, &ResultsFileController::opened);
    files.open(results);
    CHECK(opened.isEmpty());  // read in the background
    REQUIRE(waitForSignals(opened, 1, 20000));
    CHECK(opened.at(0).at(1).toInt() == 4);  // added
    CHECK(opened.at(0).at(2).toInt() == 0);  // skipped
    CHECK(opened.at(0).at(4).toString().isEmpty());
    CHECK(history.rowCount() == 4);
    CHECK(ledger.ledger(pfa::ledgerKey(data->request))->entries().size() == 4);

    // Opened again, with a damaged line at the end: nothing new, the line is counted.
    {
        QFile file(results);
        REQUIRE(file.open(QIODevice::Append));
        file.write("{\"not\": \"a run\"\n");
    }
    files.open(results);
    REQUIRE(waitForSignals(opened, 2, 20000));
    CHECK(opened.at(1).at(1).toInt() == 0);
    CHECK(opened.at(1).at(2).toInt() == 4);
    CHECK(opened.at(1).at(3).toInt() == 1);
    CHECK(history.rowCount() == 4);

    files.open(dir.filePath(QStringLiteral("missing.jsonl")));
    REQUIRE(waitForSignals(opened, 3, 20000));
    CHECK(opened.at(2).at(4).toString().contains(QStringLiteral("no such file")));

    // A cluster sweep's manifest (pfa-cli cluster slurm): the runs of its shard files so far,
    // with how far the sweep is; opened again later, the runs recorded since.
    const pfa::ResultsFileContent content = pfa::readResultsFile(results.toStdString());
    REQUIRE(content.records.size() == 4);
    pfa::SweepManifest manifest;
    manifest.name = "cluster";
    manifest.shards = 2;
    manifest.shardFile = dir.filePath(QStringLiteral("cluster.shard-{I}.jsonl")).toStdString();
    manifest.mergedFile = dir.filePath(QStringLiteral("cluster.jsonl")).toStdString();
    for (std::size_t i = 0; i < 4; ++i)
        manifest.runs.emplace_back(content.records[i].at("run_key").asString(), i < 2 ? 0 : 1);
    const QString manifestPath = dir.filePath(QStringLiteral("cluster.manifest.json"));
    const auto writeText = [](const QString& path, const std::string& text) {
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text.data(), static_cast<qint64>(text.size()));
    };
    writeText(manifestPath, pfa::manifestJson(manifest));
    writeText(QString::fromStdString(pfa::shardFileOf(manifest, 0)),
              content.lines[0] + "\n" + content.lines[1] + "\n");
    RunHistoryModel clusterHistory;
    LedgerBook clusterLedger;
    ResultsFileController cluster(&clusterHistory, &clusterLedger, [&] { return nextId++; });
    QSignalSpy clusterOpened(&cluster, &ResultsFileController::opened);
    QSignalSpy progress(&cluster, &ResultsFileController::sweepProgress);
    cluster.open(manifestPath);
    REQUIRE(waitForSignals(clusterOpened, 1, 20000));
    CHECK(clusterOpened.at(0).at(1).toInt() == 2);
    REQUIRE(progress.size() == 1);
    CHECK(progress.at(0).at(0).toString().contains(QStringLiteral("2 of 4 run(s)")));
    CHECK(progress.at(0).at(0).toString().contains(QStringLiteral("1 of 2 shard(s) still")));
    writeText(QString::fromStdString(pfa::shardFileOf(manifest, 1)),
              content.lines[2] + "\n" + content.lines[3] + "\n");
    cluster.open(manifestPath);
    REQUIRE(waitForSignals(clusterOpened, 2, 20000));
    CHECK(clusterOpened.at(1).at(1).toInt() == 2);  // the new shard's runs
    CHECK(clusterOpened.at(1).at(2).toInt() == 2);  // the first shard's, already in
    CHECK(progress.at(1).at(0).toString().contains(QStringLiteral("every shard complete")));
    CHECK(clusterHistory.rowCount() == 4);
}

TEST_CASE("Session controller: modified state, save and open, recent files, damaged files refused",
          "[ui][controllers][session]") {
    QSettings().clear();
    ExperimentPanel panel;
    RunHistoryModel history;
    LedgerBook ledger;
    SessionController session(&panel, &history, &ledger);
    QSignalSpy state(&session, &SessionController::stateChanged);
    CHECK(session.displayName() == QStringLiteral("untitled session"));
    CHECK_FALSE(session.isModified());
    CHECK_FALSE(session.hasUnsavedWork());

    pfa::RunResult result;
    result.status = pfa::RunStatus::Completed;
    result.config.lambda = 2.5;
    history.append(makeRunEntry(41, result, pfa::RunContext{}, QDateTime::currentDateTime()));
    CHECK(session.isModified());
    CHECK(session.hasUnsavedWork());
    CHECK(state.count() == 1);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("one.pfa"));
    QString error;
    REQUIRE(session.saveTo(path, &error));
    CHECK_FALSE(session.isModified());
    CHECK(session.displayName() == QStringLiteral("one.pfa"));
    CHECK(session.recentSessions().value(0) == path);

    history.clear();
    CHECK(session.isModified());
    QSignalSpy aboutToOpen(&session, &SessionController::aboutToOpen);
    QSignalSpy opened(&session, &SessionController::opened);
    REQUIRE(session.openFrom(path, &error));
    CHECK(aboutToOpen.count() == 1);
    REQUIRE(opened.count() == 1);
    CHECK(opened.at(0).at(0).toInt() == 41);  // run ids of the opened session go up to 41
    REQUIRE(history.rowCount() == 1);
    CHECK(history.entries()[0]->result.config.lambda == 2.5);
    CHECK_FALSE(session.isModified());

    const QString broken = dir.filePath(QStringLiteral("broken.pfa"));
    {
        QFile file(broken);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("{\"format\": \"pfa-explorer-session\", \"runs\": [");
    }
    CHECK_FALSE(session.openFrom(broken, &error));
    CHECK(error.contains(QStringLiteral("broken.pfa is incomplete: the file ends too early")));
    CHECK(aboutToOpen.count() == 1);  // nothing was replaced
    CHECK(history.rowCount() == 1);
    CHECK(session.path() == path);
}

TEST_CASE("A preset's data set is chosen on the panel through its own API",
          "[ui][controllers][sweep]") {
    ExperimentPanel panel;
    const pfa::SweepPreset& preset = pfa::findSweepPreset("parkinsons-dp");
    REQUIRE(panel.selectDataset(preset.dataset));
    const pfa::DatasetRequest chosen = panel.datasetRequest();
    CHECK(chosen.name == "parkinsons");
    CHECK(chosen.sensitive == preset.dataset.sensitive);
    CHECK(chosen.split.method == pfa::SplitMethod::PandasSample);
    CHECK(chosen.split.seed == preset.dataset.split.seed);
    CHECK(chosen.split.testFraction == preset.dataset.split.testFraction);
    pfa::DatasetRequest unknown;
    unknown.name = "no-such-data";
    CHECK_FALSE(panel.selectDataset(unknown));
    CHECK(panel.datasetRequest().name == "parkinsons");
}

TEST_CASE("Epoch time is measured on completed runs of the same data only", "[ui][controllers]") {
    pfa::PreparedDataset data;
    data.context.datasetDescription = "synthetic lending";
    auto run = [](const std::string& description, double seconds, int epochs,
                  pfa::RunStatus status) {
        pfa::RunResult result;
        result.status = status;
        result.seconds = seconds;
        result.config.epochs = epochs;
        pfa::RunContext context;
        context.datasetDescription = description;
        return makeRunEntry(1, result, context, QDateTime::currentDateTime());
    };
    CHECK(measuredSecondsPerEpoch({}, data) < 0);
    const std::vector<RunEntryPtr> runs = {
        run("synthetic lending", 2.0, 10, pfa::RunStatus::Completed),
        run("synthetic lending", 4.0, 30, pfa::RunStatus::Completed),
        run("synthetic lending", 9.0, 1, pfa::RunStatus::Cancelled),  // not a full run
        run("adult", 100.0, 10, pfa::RunStatus::Completed),           // other data
    };
    CHECK(measuredSecondsPerEpoch(runs, data) == Approx(6.0 / 40.0));
}

TEST_CASE(
    "The About text lists every algorithm of the registry's source list, with its description",
    "[ui][controllers]") {
    // The names are read from core/algorithms/algorithm_list.h (FILE of each
    // PFA_ALGORITHM(FACTORY, FAMILY/FILE) line, '_' read as '-'), not from the registry the About
    // text itself is built from: an About text that leaves an algorithm out, lists one twice or out
    // of menu order, or shows one without its description fails here. (From the checkout's path,
    // not __FILE__: that is relative to the build folder with Ninja.)
    const std::filesystem::path list =
        std::filesystem::path(PFA_SOURCE_ROOT) / "core" / "algorithms" / "algorithm_list.h";
    std::ifstream in(list);
    REQUIRE(in);
    std::vector<std::string> names;
    const std::regex line(R"(^PFA_ALGORITHM\(\s*\w+\s*,\s*\w+/(\w+)\s*\))");
    for (std::string text; std::getline(in, text);) {
        std::smatch match;
        if (!std::regex_search(text, match, line)) continue;
        std::string name = match[1];
        std::replace(name.begin(), name.end(), '_', '-');
        names.push_back(name);
    }
    REQUIRE(names.size() >= 19);  // as many as there were when this test was written, or more

    const QString about = aboutText();
    QTextDocument document;
    document.setHtml(about);
    const QStringList lines = document.toPlainText().split(QLatin1Char('\n'));
    std::vector<std::string> listed;  // "name: description" lines, in order
    for (const QString& shown : lines) {
        const int colon = shown.indexOf(QStringLiteral(": "));
        if (colon > 0 &&
            about.contains(QStringLiteral("<b>") + shown.left(colon) + QStringLiteral("</b>")))
            listed.push_back(shown.left(colon).toStdString());
    }
    CHECK(listed == names);  // each once, in the list's (menu) order, nothing else
    for (const std::string& name : names) {
        INFO(name);
        const std::string description = pfa::findAlgorithm(name).description();
        CHECK(description.size() > 20);
        CHECK(lines.contains(QString::fromStdString(name + ": " + description)));
    }
    // The accountant and the versions the program was built with and runs on.
    CHECK(about.contains(QStringLiteral("Rényi-DP")));
    CHECK(about.contains(QStringLiteral("PFA Explorer ") +
                         QString::fromLatin1(pfa::ui::applicationVersion())));
    CHECK(about.contains(QStringLiteral("Qt ") + QString::fromLatin1(qVersion())));
    CHECK(about.contains(QStringLiteral("Eigen %1.%2.%3")
                             .arg(EIGEN_WORLD_VERSION)
                             .arg(EIGEN_MAJOR_VERSION)
                             .arg(EIGEN_MINOR_VERSION)));
}

TEST_CASE("The About text shows the version and the commit of the build", "[ui][controllers]") {
    CHECK(aboutText().contains(QStringLiteral("PFA Explorer " PFA_VERSION "</h3>")));
    pfa::setBuildCommit("abc1234-dirty");
    const QString text = aboutText();
    pfa::setBuildCommit("");  // the other tests see a build without a commit
    CHECK(text.contains(QStringLiteral("PFA Explorer " PFA_VERSION " (abc1234-dirty)</h3>")));
}

TEST_CASE(
    "Run actions: enabled by the panel and the training state, Run and Step train the loaded data",
    "[ui][controllers]") {
    ExperimentPanel panel;
    DatasetController datasets;
    TrainingController training;
    QObject::connect(&datasets, &DatasetController::datasetReady, &panel,
                     &ExperimentPanel::setDataset);
    RunActions actions(&training, &datasets, &panel);
    CHECK_FALSE(actions.runAction()->isEnabled());  // no data set yet
    CHECK(actions.stateText() == QStringLiteral("Not ready"));

    QSignalSpy ready(&datasets, &DatasetController::datasetReady);
    datasets.requestDataset(panel.datasetRequest());
    REQUIRE(waitForSignals(ready, 1, 20000));
    CHECK(actions.runAction()->isEnabled());
    CHECK_FALSE(actions.stopAction()->isEnabled());
    CHECK(actions.stateText() == QStringLiteral("Ready"));

    panel.epochsBox()->setValue(5);
    QSignalSpy finished(&training, &TrainingController::runFinished);
    actions.runAction()->trigger();
    CHECK(actions.runAction()->text() == QStringLiteral("&Restart"));
    CHECK(actions.stopAction()->isEnabled());
    REQUIRE(waitForSignals(finished, 1));
    CHECK(finishedEntry(finished, 0)->result.config.epochs == 5);
    CHECK(actions.stateText() == QStringLiteral("Ready"));

    panel.epochsBox()->setValue(1000);
    actions.stepAction()->trigger();  // from idle: one epoch, then paused
    REQUIRE(
        QTest::qWaitFor([&] { return actions.stateText() == QStringLiteral("Paused"); }, 60000));
    CHECK(actions.pauseAction()->text() == QStringLiteral("Res&ume"));
    QSignalSpy stopped(&actions, &RunActions::stopped);
    actions.stopAction()->trigger();
    CHECK(stopped.count() == 1);
    REQUIRE(waitForSignals(finished, 2, 60000));
    CHECK(finishedEntry(finished, 1)->stoppedByUser);
    training.shutdown();
}

}  // namespace ui_controllers_test
