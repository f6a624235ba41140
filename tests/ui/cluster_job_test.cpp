// The sweep dialog's "Run on a cluster…": the sweep written as a Slurm job array whose tasks,
// run by pfa-cli from the sweep file, train exactly the runs the application would.
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>

#include "core/sweep/slurm_jobs.h"
#include "core/sweep/sweep_manifest.h"
#include "core/util/json_value.h"
#include "ui/actions/sweep_actions.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/sweep_controller.h"
#include "ui/dialogs/cluster_job_dialog.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui_test_support.h"

namespace ui_cluster_job_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

QString readAll(const std::string& path) {
    QFile file(QString::fromStdString(path));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

/// The sweep dialog the window opened.
SweepDialog* openedSweepDialog(MainWindow& window) {
    window.sweepActions()->openSweepDialog();
    SweepDialog* dialog = nullptr;
    const bool open = QTest::qWaitFor(
        [&] {
            dialog = window.findChild<SweepDialog*>();
            return dialog && dialog->isVisible();
        },
        10000);
    return open ? dialog : nullptr;
}

/// test error by run key, of a results file's completed runs.
std::map<std::string, double> errorsByKey(const QString& path) {
    std::map<std::string, double> errors;
    std::ifstream in(path.toStdString());
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const pfa::JsonValue record = pfa::parseJson(line);
        errors[record.at("run_key").asString()] = record.at("test_error").asNumber();
    }
    return errors;
}

}  // namespace

TEST_CASE(
    "Run on a cluster writes the sweep dialog's sweep as a Slurm job whose tasks train "
    "the same runs",
    "[ui][sweep][cluster]") {
    auto window = readyWindow(30);
    QTemporaryDir dir;
    SweepDialog* sweepDialog = openedSweepDialog(*window);
    REQUIRE(sweepDialog);
    sweepDialog->epsilonEdit()->setText(QStringLiteral("1, 4"));
    sweepDialog->lambdaEdit()->setText(QStringLiteral("0, 2"));
    sweepDialog->seedsTo()->setValue(1);  // seeds 0 and 1
    const QString results = dir.filePath(QStringLiteral("cluster/small.jsonl"));
    sweepDialog->setResultsFile(results);
    REQUIRE(sweepDialog->problem().isEmpty());
    REQUIRE(sweepDialog->clusterButton()->isEnabled());
    QTest::mouseClick(sweepDialog->clusterButton(), Qt::LeftButton);
    ClusterJobDialog* dialog = nullptr;
    REQUIRE(QTest::qWaitFor(
        [&] {
            dialog = window->findChild<ClusterJobDialog*>();
            return dialog && dialog->isVisible();
        },
        10000));
    CHECK(dialog->resultsEdit()->text() == results);
    // 2 ε × 2 λ × 2 seeds; automatic shards: one per seed.
    CHECK(dialog->summaryLabel()->text().contains(QStringLiteral("8 run(s) in 2 array task(s)")));
    dialog->timeEdit()->setText(QStringLiteral("ten minutes"));
    CHECK(dialog->problem().contains(QStringLiteral("ten minutes")));
    CHECK_FALSE(dialog->writeButton()->isEnabled());
    dialog->timeEdit()->setText(QStringLiteral("00:30:00"));
    dialog->partitionEdit()->setText(QStringLiteral("debug"));
    dialog->pfaCliEdit()->setText(QStringLiteral(PFA_CLI_PATH));
    REQUIRE(dialog->problem().isEmpty());
    dialog->resize(900, 700);
    QTest::qWait(50);
    QTest::mouseClick(dialog->writeButton(), Qt::LeftButton);
    REQUIRE(dialog->copyButton()->isEnabled());
    REQUIRE(dialog->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/cluster-job-dialog.png")));
    const pfa::ClusterSweep& written = dialog->written();
    const pfa::SweepJobFiles files(results.toStdString());
    CHECK(dialog->outputText()->toPlainText().contains(
        QString::fromStdString(written.jobs.submitCommand)));

    const QString array = readAll(written.jobs.arrayFile);
    CHECK(array.contains(QStringLiteral("#SBATCH --array=0-1")));
    CHECK(array.contains(QStringLiteral("#SBATCH --partition=debug")));
    CHECK(array.contains(QStringLiteral("#SBATCH --time=00:30:00")));
    CHECK(array.contains(QStringLiteral("--preset")));
    CHECK(array.contains(QString::fromStdString(written.sweepFile)));
    CHECK(readAll(written.jobs.submitFile).contains(QStringLiteral("--dependency=afterany:")));
    CHECK(readAll(written.jobs.mergeFile).contains(QStringLiteral("merge --manifest")));

    // The manifest lists the runs the application's own sweep would run, key for key.
    const pfa::SweepManifest manifest = pfa::readManifest(files.manifest);
    REQUIRE(manifest.runs.size() == 8);
    pfa::SweepSpec spec = sweepDialog->spec();
    spec.datasets = {window->datasetController()->dataset()->key};
    std::vector<std::string> expected;
    for (const pfa::SweepRun& run : spec.expand()) expected.push_back(run.key);
    std::vector<std::string> listed;
    for (const auto& run : manifest.runs) listed.push_back(run.first);
    CHECK(listed == expected);

    // pfa-cli, given the tasks' options, plans the same runs and trains them as the
    // application does: shard 0's test errors equal the application's, run by run.
    const QStringList taskOptions = [&] {
        QStringList options;
        for (const std::string& argument : manifest.trainArguments)
            options << QString::fromStdString(argument);
        return options;
    }();
    QProcess plan;
    plan.start(QStringLiteral(PFA_CLI_PATH),
               QStringList{QStringLiteral("train")}
                   << taskOptions << QStringLiteral("--out") << dir.filePath("plan.jsonl")
                   << QStringLiteral("--write-manifest") << dir.filePath("plan.manifest.json"));
    REQUIRE(plan.waitForFinished(60000));
    INFO(plan.readAllStandardError().toStdString());
    REQUIRE(plan.exitCode() == 0);
    const pfa::SweepManifest planned =
        pfa::readManifest(dir.filePath("plan.manifest.json").toStdString());
    CHECK(planned.runs == manifest.runs);

    QProcess shard;
    const QString shardFile = dir.filePath(QStringLiteral("shard-0.jsonl"));
    shard.start(QStringLiteral(PFA_CLI_PATH),
                QStringList{QStringLiteral("train")}
                    << taskOptions << QStringLiteral("--shard") << QStringLiteral("0/2")
                    << QStringLiteral("--out") << shardFile << QStringLiteral("--quiet"));
    REQUIRE(shard.waitForFinished(120000));
    REQUIRE(shard.exitCode() == 0);
    const std::map<std::string, double> fromCluster = errorsByKey(shardFile);
    REQUIRE(fromCluster.size() == 4);

    dialog->close();
    QSignalSpy finished(window->sweepController(), &SweepController::finished);
    QTest::mouseClick(sweepDialog->startButton(), Qt::LeftButton);
    REQUIRE(waitForSignals(finished, 1, 120000));
    const std::map<std::string, double> fromApplication = errorsByKey(results);
    REQUIRE(fromApplication.size() == 8);
    for (const auto& [key, error] : fromCluster) {
        INFO(key);
        REQUIRE(fromApplication.count(key) == 1);
        CHECK(fromApplication.at(key) == error);
    }
}

TEST_CASE("Run on a cluster is offered only for sweeps that can be sharded",
          "[ui][sweep][cluster]") {
    pfa::TrainConfig base;
    SweepDialog dialog(base, QStringLiteral("Synthetic"), 7500, 8, 0.01, nullptr);
    dialog.setResultsFile(QStringLiteral("/tmp/unused.jsonl"));
    dialog.applyPreset(pfa::findSweepPreset("diff2-vs-dp-gd"));
    REQUIRE(dialog.problem().isEmpty());
    CHECK(dialog.clusterButton()->isEnabled());
    // Auto-tuning's trials are chosen by their results: not split into shards (yet), said so.
    QComboBox* tuning = nullptr;
    for (QComboBox* box : dialog.findChildren<QComboBox*>()) {
        if (box->findData(QStringLiteral("auto-tune")) >= 0) tuning = box;
    }
    REQUIRE(tuning);
    tuning->setCurrentIndex(tuning->findData(QStringLiteral("auto-tune")));
    CHECK_FALSE(dialog.clusterButton()->isEnabled());
    CHECK(dialog.clusterButton()->toolTip().contains(QStringLiteral("Auto-tuned")));
    tuning->setCurrentIndex(0);
    CHECK(dialog.clusterButton()->isEnabled());
    // A sweep that cannot start cannot be written either.
    dialog.epsilonEdit()->setText(QStringLiteral("abc"));
    CHECK_FALSE(dialog.clusterButton()->isEnabled());
}

}  // namespace ui_cluster_job_test
