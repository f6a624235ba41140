// Intersectional groups in the GUI: several sensitive attributes chosen in the experiment panel
// form one group per combination ("Female & non-White"); the per-group table and the group bars
// list every combination with its size, and flag (never hide) those with too few test rows.
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonObject>
#include <QMenu>
#include <QPainter>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextStream>
#include <QToolButton>
#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "core/data/catalog.h"
#include "core/util/error.h"
#include "ui/charts/group_bar_chart.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/run_details_panel.h"
#include "ui_test_support.h"

namespace ui_intersectional_groups_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// The per-group table as group name → (n text, flagged).
struct TableRow {
    QString n;
    bool flagged = false;
    QString tooltip;
};
std::map<QString, TableRow> tableRows(const QTableWidget* table) {
    std::map<QString, TableRow> rows;
    for (int r = 0; r < table->rowCount(); ++r) {
        QString name = table->item(r, 0)->text();
        const bool flagged = name.startsWith(QStringLiteral("⚠ "));
        if (flagged) name = name.mid(2);
        rows[name] = {table->item(r, 1)->text(), flagged, table->item(r, 0)->toolTip()};
    }
    return rows;
}

/// Checks the menu entry `id` of the panel's intersect button (as a click would).
bool checkIntersect(ExperimentPanel* panel, const QString& id) {
    for (QAction* action : panel->intersectButton()->menu()->actions()) {
        if (action->data().toString() != id) continue;
        if (!action->isEnabled()) return false;
        action->setChecked(true);
        QTest::qWait(20);  // the menu is rebuilt after the click
        return true;
    }
    return false;
}

/// The group bars and the table side by side, for the README picture.
void saveIntersectionScreenshot(MainWindow& window, const QString& path) {
    GroupBarChart* bars = window.datasetCard()->groupChart();
    RunDetailsPanel* details = window.runDetails();
    QWidget* sensitiveRow = window.experimentPanel()->sensitiveBox()->parentWidget();
    bars->resize(560, bars->sizeHint().height());
    // Every group row in view (the panel otherwise follows its dock's size).
    QTableWidget* table = details->groupTable();
    const int tableHeight = table->horizontalHeader()->height() + 4 +
                            table->rowCount() * table->verticalHeader()->defaultSectionSize();
    details->setFixedSize(780, tableHeight + 140);
    QTest::qWait(50);
    const QPixmap left = bars->grab();
    const QPixmap right = details->grab();
    const QPixmap top = sensitiveRow->grab(
        QRect(0, window.experimentPanel()->sensitiveBox()->y() - 6, sensitiveRow->width(),
              window.experimentPanel()->sensitiveBox()->height() + 12));
    QPixmap out(left.width() + right.width() + 30,
                top.height() + std::max(left.height(), right.height()) + 30);
    out.fill(Qt::white);
    QPainter painter(&out);
    painter.drawPixmap(10, 10, top);
    painter.drawPixmap(10, top.height() + 20, left);
    painter.drawPixmap(left.width() + 20, top.height() + 20, right);
    painter.end();
    QDir().mkpath(QFileInfo(path).path());
    REQUIRE(out.save(path));
}

}  // namespace

TEST_CASE("Catalog sensitive choices combine into intersectional schemas", "[ui][intersectional]") {
    const pfa::CatalogEntry& adult = pfa::findCatalogEntry("adult");
    const pfa::Schema schema = adult.schemaFor("sex+race");
    CHECK(schema.sensitive == std::vector<std::string>{"sex", "race"});
    // Value labels stay bound to their column.
    CHECK(schema.sensitiveValueLabels.at("race=Black") == "non-White");
    CHECK(schema.sensitiveValueLabels.at("race=White") == "White");
    CHECK(schema.columns.count("sex") == 0);
    CHECK(schema.columns.count("race") == 0);
    CHECK_NOTHROW(schema.validate());
    CHECK(adult.sensitiveTitle("sex+race") == "sex (Female / Male) × race (White / non-White)");
    CHECK(adult.sensitiveTitle("race") == "race (White / non-White)");
    // The default and single choices are as before.
    CHECK(adult.schemaFor("").sensitive == std::vector<std::string>{"sex"});
    CHECK_THROWS_AS(adult.schemaFor("sex+sex"), pfa::InputError);
    CHECK_THROWS_AS(adult.schemaFor("sex+nope"), pfa::InputError);
    // A number split at a threshold is used alone; two readings of one column do not combine.
    CHECK_THROWS_AS(pfa::findCatalogEntry("german-credit").schemaFor("sex+age"), pfa::InputError);
    CHECK_THROWS_AS(pfa::findCatalogEntry("compas").schemaFor("race+race-all"), pfa::InputError);
}

TEST_CASE(
    "Two sensitive columns of an imported file: every intersection with its size, the tiny one "
    "flagged",
    "[ui][intersectional]") {
    // A small file written here: colour × shape, with few rows of "blue & star".
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("shapes.csv"));
    {
        QFile file(path);
        REQUIRE(file.open(QIODevice::WriteOnly | QIODevice::Text));
        QTextStream out(&file);
        out << "x1,x2,colour,shape,label\n";
        std::mt19937 rng(7);
        std::normal_distribution<double> noise(0.0, 1.0);
        const char* colours[] = {"red", "blue"};
        const char* shapes[] = {"square", "circle", "star"};
        for (int i = 0; i < 900; ++i) {
            const int c = i % 2, s = (i / 2) % 3;
            if (c == 1 && s == 2 && i % 36 != 5) continue;  // blue & star: 25 of 150 rows kept
            const double x1 = noise(rng) + 0.5 * c, x2 = noise(rng) - 0.3 * s;
            out << x1 << ',' << x2 << ',' << colours[c] << ',' << shapes[s] << ','
                << (x1 + x2 > 0 ? 1 : 0) << '\n';
        }
    }
    auto window = readyWindow(10);
    pfa::Schema schema;
    schema.target = "label";
    schema.positiveValues = {"1"};
    schema.sensitive = {"colour", "shape"};
    window->experimentPanel()->addUserFile(path, schema);
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 20000));
    const pfa::PreparedDatasetPtr data = window->datasetController()->dataset();
    REQUIRE(data);
    REQUIRE(data->split.train.numGroups() == 6);

    // The group bars: six combinations with their sizes and test rows; the tiny one flagged.
    const std::vector<GroupBarChart::Group>& bars = window->datasetCard()->groupChart()->groups();
    REQUIRE(bars.size() == 6);
    long total = 0;
    for (const GroupBarChart::Group& g : bars) {
        INFO(g.name.toStdString() << " " << g.size << " rows, " << g.testSize << " test rows");
        total += g.size;
        CHECK(g.name.contains(QStringLiteral(" & ")));
        CHECK(g.testSize >= 0);
        CHECK(g.small() == (g.testSize < kSmallGroupRows));
        CHECK(g.small() == (g.name == QStringLiteral("blue & star")));
    }
    CHECK(total == data->split.train.rows() + data->split.test.rows());

    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    const RunEntryPtr run = finishedEntry(finished, 0);
    REQUIRE(run->result.test.groups.size() == 6);
    const auto rows = tableRows(window->runDetails()->groupTable());
    REQUIRE(rows.size() == 6);
    for (const pfa::GroupRow& g : run->result.test.groups) {
        const QString name = QString::fromStdString(g.group);
        INFO(name.toStdString() << " n = " << g.n);
        REQUIRE(rows.count(name) == 1);
        CHECK(rows.at(name).n == QString::number(g.n));
        CHECK(rows.at(name).flagged == (g.n < kSmallGroupRows));
        CHECK(rows.at(name).flagged == (name == QStringLiteral("blue & star")));
        if (rows.at(name).flagged) CHECK(rows.at(name).tooltip.contains(QStringLiteral("too few")));
    }
    // Side by side (two runs compared), the small group's rows are marked too.
    window->runDetails()->showRuns({run, run});
    QStringList labels;
    for (int r = 0; r < window->runDetails()->comparisonTable()->rowCount(); ++r)
        labels << window->runDetails()->comparisonTable()->item(r, 0)->text();
    CHECK(labels.contains(QStringLiteral("Selection rate — ⚠ blue & star")));
    CHECK(labels.contains(QStringLiteral("Selection rate — red & star")));
    CHECK(smallGroupNote(0).startsWith(QStringLiteral("empty")));
    CHECK(smallGroupNote(12).startsWith(QStringLiteral("n = 12 test rows")));
    CHECK(smallGroupNote(kSmallGroupRows).isEmpty());
}

TEST_CASE("Choosing sex and race of COMPAS in the panel gives intersectional groups",
          "[ui][intersectional][screenshot][needs-data]") {
    const QString compasFolder = sharedDatasetFolder(QStringLiteral("compas"));
    if (compasFolder.isEmpty()) PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("compas")));
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    QComboBox* datasets = panel->datasetBox();
    datasets->setCurrentIndex(datasets->findData(QStringLiteral("compas")));
    if (!panel->catalogFilesPresent()) {
        QSignalSpy imported(window->datasetController(), &DatasetController::importFinished);
        window->datasetController()->importFromFolder(QStringLiteral("compas"), compasFolder);
        REQUIRE(waitForSignals(imported, 1, 60000));
    }
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000));
    // One attribute: the button offers the others; the same column read otherwise is disabled.
    panel->sensitiveBox()->setCurrentIndex(panel->sensitiveBox()->findData(QStringLiteral("sex")));
    CHECK(panel->intersectButton()->isVisible());
    CHECK_FALSE(panel->intersectButton()->toolTip().isEmpty());
    REQUIRE(checkIntersect(panel, QStringLiteral("race-all")));
    CHECK(panel->sensitiveId() == QStringLiteral("sex+race-all"));
    CHECK(panel->datasetRequest().sensitive == "sex+race-all");
    CHECK_FALSE(checkIntersect(panel, QStringLiteral("race")));  // race-all reads that column
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000));
    const pfa::PreparedDatasetPtr data = window->datasetController()->dataset();
    REQUIRE(data);
    CHECK(data->key.find("sex+race-all") != std::string::npos);
    const int groups = data->split.train.numGroups();
    CHECK(groups > 6);
    const std::vector<GroupBarChart::Group>& bars = window->datasetCard()->groupChart()->groups();
    REQUIRE(static_cast<int>(bars.size()) == groups);
    int flaggedBars = 0;
    for (const GroupBarChart::Group& g : bars) {
        CHECK(g.name.contains(QStringLiteral(" & ")));
        flaggedBars += g.small() ? 1 : 0;
    }
    CHECK(flaggedBars > 0);  // e.g. few Native American or Asian women

    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
    const RunEntryPtr run = finishedEntry(finished, 0);
    // The run's record names both attributes.
    CHECK(run->context.datasetDescription.find(" × ") != std::string::npos);
    CHECK(run->context.runKey.find("sex+race-all") != std::string::npos);
    const auto rows = tableRows(window->runDetails()->groupTable());
    CHECK(static_cast<int>(rows.size()) == groups);  // every combination listed, none hidden
    int flaggedRows = 0;
    for (const pfa::GroupRow& g : run->result.test.groups) {
        const QString name = QString::fromStdString(g.group);
        REQUIRE(rows.count(name) == 1);
        CHECK(rows.at(name).n == (g.n == 0 ? QStringLiteral("empty") : QString::number(g.n)));
        CHECK(rows.at(name).flagged == (g.n < kSmallGroupRows));
        flaggedRows += rows.at(name).flagged ? 1 : 0;
    }
    CHECK(flaggedRows > 0);
    WARN("COMPAS sex × race (all six): "
         << groups << " groups, " << flaggedRows << " with fewer than " << kSmallGroupRows
         << " test rows; DP-FERMI ε=1 λ=1 violation " << run->violation());

    // The choice travels with the settings (sessions), and older settings still load.
    const QJsonObject saved = panel->toJson();
    CHECK(saved["sensitive"].toString() == QStringLiteral("sex+race-all"));
    QJsonObject old = saved;
    old["sensitive"] = QStringLiteral("race");
    panel->fromJson(old);
    CHECK(panel->sensitiveId() == QStringLiteral("race"));
    panel->fromJson(saved);
    CHECK(panel->sensitiveId() == QStringLiteral("sex+race-all"));
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 20000));
    window->runDetails()->showRun(run);
    window->resize(1280, 720);
    QTest::qWait(100);
    saveIntersectionScreenshot(*window,
                               QStringLiteral(PFA_SCREENSHOT_DIR "/intersectional-groups.png"));
}

TEST_CASE(
    "Choosing sex and race of Adult in the panel gives its four combinations, with their sizes",
    "[ui][intersectional][needs-data]") {
    const QString adultFolder = sharedDatasetFolder(QStringLiteral("adult"));
    if (adultFolder.isEmpty()) PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("adult")));
    auto window = readyWindow(20);
    ExperimentPanel* panel = window->experimentPanel();
    QComboBox* datasets = panel->datasetBox();
    datasets->setCurrentIndex(datasets->findData(QStringLiteral("adult")));
    if (!panel->catalogFilesPresent()) {
        QSignalSpy imported(window->datasetController(), &DatasetController::importFinished);
        window->datasetController()->importFromFolder(QStringLiteral("adult"), adultFolder);
        REQUIRE(waitForSignals(imported, 1, 60000));
    }
    panel->sensitiveBox()->setCurrentIndex(panel->sensitiveBox()->findData(QStringLiteral("sex")));
    REQUIRE(checkIntersect(panel, QStringLiteral("race")));
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 30000));
    const pfa::PreparedDatasetPtr adult = window->datasetController()->dataset();
    REQUIRE(adult);
    CHECK(adult->split.train.numGroups() == 4);
    const std::vector<GroupBarChart::Group>& adultBars =
        window->datasetCard()->groupChart()->groups();
    REQUIRE(adultBars.size() == 4);
    for (const GroupBarChart::Group& g : adultBars) {
        CHECK(g.name.contains(QStringLiteral(" & ")));
        CHECK(g.size > 1000);
        CHECK_FALSE(g.small());
    }
}

}  // namespace ui_intersectional_groups_test
