// Users and silos in the GUI: the controls of the experiment panel's advanced section flow
// into the data-set request and sessions, and the data-set card shows rows per person and per
// silo.
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/generators/silo_settings.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/charts/tradeoff_chart.h"
#include "ui/charts/unit_histogram.h"
#include "ui/panels/data_units_form.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/generator_knob_forms.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_units_data_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

void choose(QComboBox* box, const QString& data) {
    const int index = box->findData(data);
    REQUIRE(index >= 0);
    box->setCurrentIndex(index);
}

long barTotal(const UnitHistogram* histogram) {
    long total = 0;
    for (const UnitHistogram::Bar& bar : histogram->bars()) total += bar.value;
    return total;
}

/// The card at the width of the data-set dock, laid out at the height it needs.
QImage cardPicture(DatasetCard& card) {
    card.resize(440, 200);
    card.resize(440, std::max(card.sizeHint().height(), card.heightForWidth(440)));
    card.show();
    QTest::qWait(50);
    return card.grab().toImage();
}

}  // namespace

TEST_CASE("Silo and synthetic users controls flow into the data-set request and sessions",
          "[ui][units-data]") {
    ExperimentPanel panel;
    DataUnitsForm* units = panel.unitsForm();
    REQUIRE(units);
    // Nothing by default: exactly the data of earlier versions.
    CHECK_FALSE(panel.datasetRequest().silos);
    CHECK(panel.datasetRequest().knobs<pfa::SyntheticOptions>().users == 0);
    CHECK_FALSE(units->formLayout()->isRowVisible(units->siloCountBox()));

    QSignalSpy reload(&panel, &ExperimentPanel::datasetRequestChanged);
    choose(units->siloMethodBox(), QStringLiteral("dirichlet"));
    CHECK(reload.count() >= 1);
    CHECK(units->formLayout()->isRowVisible(units->siloCountBox()));
    CHECK(units->formLayout()->isRowVisible(units->alphaBox()));
    CHECK_FALSE(units->formLayout()->isRowVisible(units->columnBox()));
    units->siloCountBox()->setValue(8);
    units->alphaBox()->setValue(0.5);
    units->siloSeedBox()->setValue(3);
    units->minRowsBox()->setValue(20);
    pfa::DatasetRequest request = panel.datasetRequest();
    REQUIRE(request.silos);
    CHECK(request.silos->method == pfa::SiloMethod::Dirichlet);
    CHECK(request.silos->silos == 8);
    CHECK(request.silos->dirichletAlpha == 0.5);
    CHECK(request.silos->seed == 3);
    CHECK(request.silos->minTrainRowsPerSilo == 20);

    // Saved with the session and restored.
    {
        ExperimentPanel restored;
        restored.fromJson(panel.toJson());
        CHECK(pfa::datasetKey(restored.datasetRequest()) ==
              pfa::datasetKey(panel.datasetRequest()));
    }

    // One silo per group: no N, no seed.
    choose(units->siloMethodBox(), QStringLiteral("attribute"));
    choose(units->columnBox(), QStringLiteral("group"));
    CHECK_FALSE(units->formLayout()->isRowVisible(units->siloCountBox()));
    CHECK(units->formLayout()->isRowVisible(units->columnBox()));
    request = panel.datasetRequest();
    REQUIRE(request.silos);
    CHECK(request.silos->method == pfa::SiloMethod::ByAttribute);
    CHECK(request.silos->attribute == pfa::SiloAttribute::Group);

    // The synthetic generator's people and silos (its knobs' rows); its silos replace a silo
    // split. The skew needs people: disabled, at its default, until there are some.
    GeneratorKnobForms* knobs = panel.generatorKnobs();
    auto* users = qobject_cast<QSpinBox*>(knobs->field("synthetic-users"));
    auto* skew = qobject_cast<QLineEdit*>(knobs->field("synthetic-user-skew"));
    auto* silos = qobject_cast<QSpinBox*>(knobs->field("synthetic-silos"));
    auto* heterogeneity = qobject_cast<QLineEdit*>(knobs->field("synthetic-silo-heterogeneity"));
    REQUIRE((users && skew && silos && heterogeneity));
    CHECK_FALSE(skew->isEnabled());
    users->setValue(200);
    CHECK(skew->isEnabled());
    skew->setText(QStringLiteral("1"));
    silos->setValue(8);
    heterogeneity->setText(QStringLiteral("0.5"));
    QSignalSpy committed(knobs, &GeneratorKnobForms::changed);
    CHECK(committed.wait(2000));
    request = panel.datasetRequest();
    CHECK(request.knobs<pfa::SyntheticOptions>().users == 200);
    CHECK(request.knobs<pfa::SyntheticOptions>().rowsPerUserSkew == 1.0);
    CHECK(request.knobs<pfa::SyntheticOptions>().silos == 8);
    CHECK(request.knobs<pfa::SyntheticOptions>().siloHeterogeneity == 0.5);
    CHECK_FALSE(request.silos);
    CHECK_FALSE(units->siloMethodBox()->isEnabled());
    {
        ExperimentPanel restored;
        restored.fromJson(panel.toJson());
        CHECK(pfa::datasetKey(restored.datasetRequest()) ==
              pfa::datasetKey(panel.datasetRequest()));
        // A session saved before users and silos existed: none.
        QJsonObject old = panel.toJson();
        old.remove(QStringLiteral("units"));
        for (const QString& key : old.keys()) {
            if (key.startsWith(QStringLiteral("synthetic-"))) old.remove(key);
        }
        ExperimentPanel earlier;
        earlier.fromJson(old);
        CHECK_FALSE(earlier.datasetRequest().silos);
        CHECK(earlier.datasetRequest().knobs<pfa::SyntheticOptions>().users == 0);
    }

    {
        // Sessions of earlier versions kept the people and silos in "units", with underscores.
        QJsonObject old;
        old.insert(QStringLiteral("units"), QJsonObject{{QStringLiteral("synthetic_users"), 120},
                                                        {QStringLiteral("synthetic_silos"), 4}});
        ExperimentPanel earlier;
        earlier.fromJson(old);
        CHECK(earlier.datasetRequest().knobs<pfa::SyntheticOptions>().users == 120);
        CHECK(earlier.datasetRequest().knobs<pfa::SyntheticOptions>().silos == 4);
    }

    // A preset's request shows its silos.
    pfa::DatasetRequest preset;
    preset.silos = pfa::SiloOptions{};
    preset.silos->method = pfa::SiloMethod::EqualRandom;
    preset.silos->silos = 6;
    REQUIRE(panel.selectDataset(preset));
    request = panel.datasetRequest();
    REQUIRE(request.silos);
    CHECK(request.silos->method == pfa::SiloMethod::EqualRandom);
    CHECK(request.silos->silos == 6);
    CHECK(request.knobs<pfa::SyntheticOptions>().users == 0);
}

TEST_CASE("The silo rows follow the silo split's declarations", "[ui][units-data]") {
    DataUnitsForm units;
    const std::pair<const char*, QWidget*> rows[] = {
        {"silos", units.siloCountBox()},       {"silo-split", units.siloMethodBox()},
        {"silo-alpha", units.alphaBox()},      {"silo-column", units.columnBox()},
        {"silo-min-rows", units.minRowsBox()}, {"silo-seed", units.siloSeedBox()}};
    for (const auto& [name, field] : rows) {
        INFO(name);
        const pfa::ParamSpec& spec = pfa::findSiloSetting(name)->knob.spec;
        auto* label = qobject_cast<QLabel*>(units.formLayout()->labelForField(field));
        REQUIRE(label);
        CHECK(label->text().toStdString() == spec.label);
        CHECK(field->toolTip().contains(QString::fromStdString(spec.help).toHtmlEscaped()));
    }
    CHECK(units.siloCountBox()->value() == 25);
    CHECK(units.siloSeedBox()->minimum() == 0);
    CHECK(units.minRowsBox()->minimum() == 1);
    CHECK(units.siloMethodBox()->itemText(2).toStdString() ==
          pfa::findSiloSetting("silo-split")->knob.spec.choices[1].label);

    // Each method shows the rows that go with it: equal silos keep their minimum and seed.
    choose(units.siloMethodBox(), QStringLiteral("equal"));
    QFormLayout* form = units.formLayout();
    CHECK(form->isRowVisible(units.siloCountBox()));
    CHECK(form->isRowVisible(units.minRowsBox()));
    CHECK(form->isRowVisible(units.siloSeedBox()));
    CHECK_FALSE(form->isRowVisible(units.alphaBox()));
    CHECK_FALSE(form->isRowVisible(units.columnBox()));
    units.minRowsBox()->setValue(30);
    pfa::DatasetRequest request;
    units.applyTo(request);
    REQUIRE(request.silos);
    CHECK(request.silos->minTrainRowsPerSilo == 30);
    choose(units.siloMethodBox(), QStringLiteral("attribute"));
    CHECK_FALSE(form->isRowVisible(units.siloSeedBox()));
    CHECK(form->isRowVisible(units.columnBox()));

    // Sessions under the settings' names; those of earlier versions, with underscores, still
    // load.
    const QJsonObject saved = units.toJson();
    CHECK(saved.value(QStringLiteral("silo-split")).toString() == QStringLiteral("attribute"));
    units.fromJson(QJsonObject{{QStringLiteral("silo_split"), QStringLiteral("dirichlet")},
                               {QStringLiteral("silos"), 8},
                               {QStringLiteral("silo_alpha"), 0.5},
                               {QStringLiteral("silo_column"), QStringLiteral("race")},
                               {QStringLiteral("silo_min_rows"), 20},
                               {QStringLiteral("silo_seed"), 3}});
    units.applyTo(request);
    REQUIRE(request.silos);
    CHECK(pfa::datasetKey(request) ==
          pfa::datasetKey(pfa::DatasetRequest{}) + "|silos=dirichlet/n=8/alpha=0.5/min=20/seed=3");
    CHECK(units.columnBox()->currentData().toString() == QStringLiteral("race"));
    units.fromJson(saved);
    units.applyTo(request);
    REQUIRE(request.silos);
    CHECK(request.silos->method == pfa::SiloMethod::ByAttribute);
    CHECK(request.silos->attribute == pfa::SiloAttribute::Group);  // the chooser's default

    // A preset's α = ∞ (exactly equal label mixes) is shown as such and kept: in the request
    // the form gives back and through a saved session (not clamped to a large number).
    pfa::DatasetRequest equalMixes;
    equalMixes.silos = pfa::SiloOptions{};
    equalMixes.silos->method = pfa::SiloMethod::Dirichlet;
    equalMixes.silos->silos = 4;
    equalMixes.silos->dirichletAlpha = std::numeric_limits<double>::infinity();
    units.showRequest(equalMixes);
    CHECK(units.alphaBox()->text() == QStringLiteral("inf"));
    pfa::DatasetRequest shown;
    units.applyTo(shown);
    REQUIRE(shown.silos);
    CHECK(std::isinf(shown.silos->dirichletAlpha));
    const QJsonObject withInfinity = units.toJson();
    units.fromJson(QJsonObject{});
    units.fromJson(withInfinity);
    units.applyTo(shown);
    REQUIRE(shown.silos);
    CHECK(std::isinf(shown.silos->dirichletAlpha));
    CHECK(pfa::datasetKey(shown) == pfa::datasetKey(equalMixes));
}

TEST_CASE("The data-set card shows rows per person and per silo", "[ui][units-data]") {
    DatasetCard card;
    pfa::DatasetRequest request;
    request.knobs<pfa::SyntheticOptions>().users = 200;
    request.knobs<pfa::SyntheticOptions>().rowsPerUserSkew = 1.0;
    request.knobs<pfa::SyntheticOptions>().silos = 8;
    request.knobs<pfa::SyntheticOptions>().siloHeterogeneity = 0.5;
    card.showDataset(pfa::prepareDataset(request));
    INFO(card.text().toStdString());
    CHECK(QRegularExpression(
              QStringLiteral("^People: 200 people, [\\d,]+–[\\d,]+ applications each$"))
              .match(card.usersSummary())
              .hasMatch());
    CHECK(QRegularExpression(QStringLiteral("^Silos: 8 silos, [\\d,]+–[\\d,]+ rows each "
                                            "\\(generated, heterogeneity h = 0.5\\)$"))
              .match(card.silosSummary())
              .hasMatch());
    // 200 people: one bar each, largest first, holding every row.
    CHECK_FALSE(card.userHistogram()->binned());
    REQUIRE(card.userHistogram()->bars().size() == 200);
    CHECK(barTotal(card.userHistogram()) == 10000);
    CHECK(card.userHistogram()->bars().front().value >
          10 * card.userHistogram()->bars().back().value);  // skew 1
    // 8 silos: one bar each, largest first, holding every row.
    CHECK_FALSE(card.siloHistogram()->binned());
    REQUIRE(card.siloHistogram()->bars().size() == 8);
    CHECK(barTotal(card.siloHistogram()) == 10000);
    CHECK(card.siloHistogram()->bars().front().value >= card.siloHistogram()->bars().back().value);
    CHECK(QRegularExpression(QStringLiteral("^silo \\d: [\\d,]+ rows$"))
              .match(card.siloHistogram()->bars().front().tip)
              .hasMatch());
    CHECK_FALSE(card.userHistogram()->toolTip().isEmpty());
    const QImage picture = cardPicture(card);
    CHECK(picture.width() == 440);
    REQUIRE(picture.save(QStringLiteral(PFA_SCREENSHOT_DIR "/units-histogram.png")));

    // A Dirichlet silo split: its α on the card, one bar per silo.
    pfa::DatasetRequest dirichlet;
    dirichlet.silos = pfa::SiloOptions{};
    dirichlet.silos->method = pfa::SiloMethod::Dirichlet;
    dirichlet.silos->silos = 8;
    dirichlet.silos->dirichletAlpha = 0.5;
    card.showDataset(pfa::prepareDataset(dirichlet));
    CHECK(card.usersSummary().isEmpty());
    CHECK(card.userHistogram()->isHidden());
    CHECK(card.silosSummary().contains(QStringLiteral("8 silos")));
    CHECK(card.silosSummary().contains(QStringLiteral("(Dirichlet α = 0.5, silo seed 0)")));
    CHECK(card.siloHistogram()->bars().size() == 8);
    CHECK(barTotal(card.siloHistogram()) == 10000);
    REQUIRE(cardPicture(card).save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/units-histogram-dirichlet.png")));

    // Without users and silos the section is gone.
    card.showDataset(pfa::prepareDataset(pfa::DatasetRequest{}));
    CHECK(card.usersSummary().isEmpty());
    CHECK(card.silosSummary().isEmpty());
    CHECK(card.siloHistogram()->isHidden());
    CHECK_FALSE(card.text().contains(QStringLiteral("Silos")));
}

TEST_CASE("Many units: the histogram counts units per range of rows", "[ui][units-data]") {
    UnitHistogram histogram;
    std::vector<UnitHistogram::Unit> units;
    for (int i = 0; i < 1000; ++i) units.push_back({QStringLiteral("user %1").arg(i), 1 + i % 7});
    histogram.setUnits(units, QStringLiteral("person"), QStringLiteral("people"),
                       QStringLiteral("rows"));
    CHECK(histogram.binned());
    REQUIRE(histogram.bars().size() == 7);  // 1 … 7 rows: one range each
    CHECK(barTotal(&histogram) == 1000);
    CHECK(histogram.bars().front().value == 143);  // i % 7 == 0 for 143 of 0 … 999
    CHECK(histogram.bars().front().tip == QStringLiteral("143 people with 1 rows each"));
    histogram.setUnits({}, QStringLiteral("person"), QStringLiteral("people"),
                       QStringLiteral("rows"));
    CHECK(histogram.bars().empty());
    CHECK(histogram.toolTip().isEmpty());
}

TEST_CASE("Parkinsons by subject: 42 people on the card", "[ui][units-data][needs-data]") {
    const QString folder = sharedDatasetFolder(QStringLiteral("parkinsons-telemonitoring"));
    if (folder.isEmpty())
        PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("parkinsons-telemonitoring")));
    pfa::DatasetRequest request;
    request.name = "parkinsons";
    request.dataDirectory = folder.toStdString();
    DatasetCard card;
    card.showDataset(pfa::prepareDataset(request));
    INFO(card.text().toStdString());
    CHECK(QRegularExpression(QStringLiteral("^People: 42 people, \\d+–\\d+ recordings each$"))
              .match(card.usersSummary())
              .hasMatch());
    CHECK(card.silosSummary().isEmpty());
    CHECK_FALSE(card.userHistogram()->binned());
    CHECK(card.userHistogram()->bars().size() == 42);
    // Subjects are numbered: a bar's tooltip says what the number is.
    CHECK(QRegularExpression(QStringLiteral("^person \\d+: \\d+ recordings$"))
              .match(card.userHistogram()->bars().front().tip)
              .hasMatch());
    CHECK(barTotal(card.userHistogram()) == 5875);
    REQUIRE(cardPicture(card).save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/units-histogram-parkinsons.png")));
}

TEST_CASE("A silo split chosen in the panel reaches the loaded data and the card",
          "[ui][units-data]") {
    auto window = readyWindow(2);
    ExperimentPanel* panel = window->experimentPanel();
    panel->advancedToggle()->setChecked(true);
    DataUnitsForm* units = panel->unitsForm();
    choose(units->siloMethodBox(), QStringLiteral("equal"));
    units->siloCountBox()->setValue(5);
    DatasetCard* card = window->datasetCard();
    const bool shown = QTest::qWaitFor(
        [&] { return card->silosSummary().contains(QStringLiteral("5 silos")); }, 20000);
    INFO(card->text().toStdString() << " / " << panel->problem().toStdString());
    REQUIRE(shown);
    // 10,000 rows in 5 equal silos (training and test rows together).
    CHECK(card->silosSummary() ==
          QStringLiteral("Silos: 5 silos, %1 rows each (equal random split, silo seed 0)")
              .arg(QLocale().toString(2000)));
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 60000));
    // The run is made on those silos, and its record says so.
    REQUIRE(runWithLambdas(*window, {0.0}));
    REQUIRE_FALSE(window->historyModel()->entries().empty());
    const auto& run = window->historyModel()->entries().back();
    CHECK(run->context.datasetDescription.find("split into silos: 5 silos of equal size") !=
          std::string::npos);
    CHECK(run->context.runKey.find("|silos=equal/n=5/min=1/seed=0") != std::string::npos);
    // The tradeoff chart tells these runs apart from runs on the same data without silos.
    const QString key = TradeoffChart::datasetKeyOf(*run);
    CHECK(key.endsWith(QStringLiteral("|silos=equal/n=5/min=1/seed=0")));
    CHECK(TradeoffChart::datasetLabel(key) == QStringLiteral("synthetic, silos equal/n=5"));
    CHECK(TradeoffChart::datasetLabel(key.section(QStringLiteral("|silos="), 0, 0)) ==
          QStringLiteral("synthetic"));
    window->resize(1280, 720);
    QTest::qWait(100);
    REQUIRE(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/units-panel-1280x720.png")));
    // The card in its dock, as a user at 1280×720 sees it.
    QWidget* dock = card;
    while (dock && !qobject_cast<QDockWidget*>(dock)) dock = dock->parentWidget();
    REQUIRE(dock);
    dock->raise();
    QTest::qWait(100);
    REQUIRE(window->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/units-card-1280x720.png")));
    // The advanced section's users-and-silos rows, with a Dirichlet split chosen.
    choose(units->siloMethodBox(), QStringLiteral("dirichlet"));
    QTest::qWait(50);
    CHECK(units->alphaBox()->isVisible());
    REQUIRE(units->parentWidget()->grab().save(
        QStringLiteral(PFA_SCREENSHOT_DIR "/units-controls.png")));
    // Silos the data cannot fill: said in the panel, in plain words, and Run waits.
    units->siloCountBox()->setValue(9000);
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().contains(QStringLiteral("9000 silos")); },
                            20000));
    CHECK(panel->problem().contains(QStringLiteral("the data has 7500")));
    CHECK_FALSE(window->runAction()->isEnabled());
}

}  // namespace ui_units_data_test
