// A data-set request's users and silos: silo options of any data set applied after the split,
// the synthetic generator's users/silos knobs, their keys and descriptions, and presets.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/data/builtin_datasets.h"
#include "core/generators/dataset_loading.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/sweep_preset.h"
#include "core/util/error.h"

namespace core_dataset_request_silos_test {

using namespace pfa;
using Catch::Contains;

namespace {

DatasetRequest smallSynthetic() {
    DatasetRequest request;
    request.knobs<SyntheticOptions>().rows = 1000;
    return request;
}

SiloOptions silosOf(SiloMethod method, int count) {
    SiloOptions options;
    options.method = method;
    options.silos = count;
    return options;
}

SweepPreset presetWith(const std::string& dataset) {
    return parseSweepPreset(
        "p.json",
        R"({"name":"p","title":"t","source":"s","dataset":)" + dataset +
            R"(,"algorithms":["erm"],"fairness":["dp"],"epsilons":["inf"],"lambdas":[0],"seeds":[0]})");
}

}  // namespace

TEST_CASE("A request without silos is split, keyed and described as before",
          "[data][units][units-data]") {
    const DatasetRequest request = smallSynthetic();
    const PreparedDatasetPtr prepared = prepareDataset(request);
    CHECK_FALSE(prepared->split.train.silos);
    CHECK_FALSE(prepared->split.test.silos);
    CHECK_FALSE(prepared->split.train.users);
    // The key and the description of earlier versions, character for character.
    CHECK(datasetKey(request) ==
          "synthetic(n=1000,d=8,minority=0.34999999999999998,bias=1,noise=0.050000000000000003,"
          "seed=20240)"
          "|split=0,0.25");
    CHECK(describeDatasetRequest(request) == describeSynthetic(request.knobs<SyntheticOptions>()));
    CHECK(describeDatasetRequest(request).find("silo") == std::string::npos);
}

TEST_CASE("Silo options of a request deal the split's rows out to silos",
          "[data][units][units-data]") {
    DatasetRequest request = smallSynthetic();
    const std::string plainKey = datasetKey(request);
    const DataSplit plain = splitDatasetRequest(loadBuiltinDataset(request), request);

    SECTION("equal random silos") {
        request.silos = silosOf(SiloMethod::EqualRandom, 5);
        request.silos->seed = 3;
        const PreparedDatasetPtr prepared = prepareDataset(request);
        REQUIRE(prepared->split.train.silos);
        REQUIRE(prepared->split.test.silos);
        CHECK(prepared->split.train.silos->units() == 5);
        CHECK(prepared->split.train.silos->rows() == prepared->split.train.rows());
        CHECK(prepared->split.test.silos->rows() == prepared->split.test.rows());
        CHECK(prepared->split.train.silos->minRowsPerUnit() == 150);  // 750 training rows / 5
        CHECK(prepared->split.train.silos->maxRowsPerUnit() == 150);
        // Exactly what makeSilos makes of the same split: the request adds nothing of its own.
        const SiloAssignment direct = makeSilos(plain, *request.silos);
        CHECK(*prepared->split.train.silos == direct.train);
        CHECK(*prepared->split.test.silos == direct.test);
        CHECK(prepared->split.train.siloDescription == direct.description);
        // Rows, labels and features are those of the plain split.
        CHECK(prepared->split.train.X == plain.train.X);
        CHECK(prepared->split.test.y == plain.test.y);
        CHECK(datasetKey(request) == plainKey + "|silos=equal/n=5/min=1/seed=3");
        // The same people in the training rows: the same privacy ledger.
        CHECK(ledgerKey(request) == ledgerKeyFromDatasetKey(plainKey));
        CHECK_THAT(
            prepared->context.datasetDescription,
            Contains(
                "split into silos: 5 silos of equal size, rows drawn at random (silo seed 3)"));
    }
    SECTION("Dirichlet silos") {
        request.silos = silosOf(SiloMethod::Dirichlet, 4);
        request.silos->dirichletAlpha = 0.5;
        const DataSplit split = splitDatasetRequest(loadBuiltinDataset(request), request);
        REQUIRE(split.train.silos);
        CHECK(split.train.silos->units() == 4);
        CHECK(*split.train.silos == makeSilos(plain, *request.silos).train);
        CHECK(datasetKey(request) == plainKey + "|silos=dirichlet/n=4/alpha=0.5/min=1/seed=0");
        CHECK_THAT(describeDatasetRequest(request),
                   Contains("4 silos with a Dirichlet(α = 0.5) label mix"));
        // Another α is another data set for the runs' keys.
        SiloOptions other = *request.silos;
        other.dirichletAlpha = 2.0;
        DatasetRequest otherRequest = request;
        otherRequest.silos = other;
        CHECK(datasetKey(otherRequest) != datasetKey(request));
    }
    SECTION("one silo per group") {
        request.silos = silosOf(SiloMethod::ByAttribute, 1);
        setSiloColumn(*request.silos, "group");
        CHECK(request.silos->attribute == SiloAttribute::Group);
        CHECK(siloColumnName(*request.silos) == "group");
        const DataSplit split = splitDatasetRequest(loadBuiltinDataset(request), request);
        REQUIRE(split.train.silos);
        CHECK(split.train.silos->units() == 2);
        CHECK(datasetKey(request) == plainKey + "|silos=attribute/by=group/min=1");
    }
}

TEST_CASE("Silo options are checked before any split", "[data][units][units-data]") {
    SiloOptions options = silosOf(SiloMethod::EqualRandom, 0);
    REQUIRE_THROWS_WITH(validateSiloOptions(options), Contains("number of silos 0 is invalid"));
    options = silosOf(SiloMethod::Dirichlet, 3);
    options.dirichletAlpha = 0.0;
    REQUIRE_THROWS_WITH(validateSiloOptions(options), Contains("Dirichlet alpha = 0 is invalid"));
    options.dirichletAlpha = NAN;
    REQUIRE_THROWS_AS(validateSiloOptions(options), InputError);
    options.dirichletAlpha = INFINITY;  // equal label mixes
    CHECK_NOTHROW(validateSiloOptions(options));
    options.minTrainRowsPerSilo = 0;
    REQUIRE_THROWS_WITH(validateSiloOptions(options), Contains("minimum training rows per silo 0"));
    options = silosOf(SiloMethod::ByAttribute, 1);
    REQUIRE_THROWS_WITH(validateSiloOptions(options), Contains("needs a column"));

    CHECK(parseSiloMethod("equal") == SiloMethod::EqualRandom);
    CHECK(parseSiloMethod("dirichlet") == SiloMethod::Dirichlet);
    CHECK(parseSiloMethod("attribute") == SiloMethod::ByAttribute);
    for (SiloMethod method :
         {SiloMethod::EqualRandom, SiloMethod::Dirichlet, SiloMethod::ByAttribute}) {
        CHECK(parseSiloMethod(siloMethodName(method)) == method);
    }
    REQUIRE_THROWS_WITH(parseSiloMethod("kmeans"),
                        Contains("choose equal, dirichlet or attribute"));

    // More silos than training rows: refused by the split, with the numbers.
    DatasetRequest request = smallSynthetic();
    request.silos = silosOf(SiloMethod::EqualRandom, 5000);
    REQUIRE_THROWS_WITH(prepareDataset(request), Contains("the data has 750"));
}

TEST_CASE("Synthetic users and silos: keyed, and not split into silos twice",
          "[data][units][units-data]") {
    DatasetRequest request = smallSynthetic();
    request.knobs<SyntheticOptions>().users = 50;
    request.knobs<SyntheticOptions>().silos = 5;
    request.knobs<SyntheticOptions>().siloHeterogeneity = 0.5;
    const PreparedDatasetPtr prepared = prepareDataset(request);
    REQUIRE(prepared->split.train.users);
    REQUIRE(prepared->split.train.silos);
    CHECK(prepared->split.train.silos->units() == 5);
    CHECK(datasetKey(request) ==
          "synthetic(n=1000,d=8,minority=0.34999999999999998,bias=1,noise=0.050000000000000003,"
          "seed=20240,"
          "users=50,skew=0,rho=0,atypical=0,silos=5,h=0.5)|split=0,0.25");
    // Other users are other rows: another ledger.
    CHECK(ledgerKey(request) != ledgerKey(smallSynthetic()));
    request.silos = silosOf(SiloMethod::EqualRandom, 3);
    REQUIRE_THROWS_WITH(prepareDataset(request), Contains("already comes in silos"));
}

TEST_CASE("A preset's data set may ask for silos and the synthetic users and silos",
          "[sweep][preset][units-data]") {
    const SweepPreset silos = presetWith(
        R"({"name":"adult","silos":{"method":"dirichlet","count":8,"alpha":0.5,"min_rows":20,"seed":4}})");
    REQUIRE(silos.dataset.silos);
    CHECK(silos.dataset.silos->method == SiloMethod::Dirichlet);
    CHECK(silos.dataset.silos->silos == 8);
    CHECK(silos.dataset.silos->dirichletAlpha == 0.5);
    CHECK(silos.dataset.silos->minTrainRowsPerSilo == 20);
    CHECK(silos.dataset.silos->seed == 4);
    const SweepPreset byColumn = presetWith(
        R"({"name":"adult","silos":{"method":"attribute","column":"native-country","min_rows":100}})");
    REQUIRE(byColumn.dataset.silos);
    CHECK(byColumn.dataset.silos->attribute == SiloAttribute::FeatureColumn);
    CHECK(byColumn.dataset.silos->column == "native-country");
    CHECK_FALSE(presetWith(R"({"name":"adult"})").dataset.silos);

    const SweepPreset synthetic = presetWith(
        R"({"name":"synthetic","synthetic":{"rows":2000,"users":100,"user_skew":1,"user_correlation":0.5,)"
        R"("atypical_users":0.1,"silos":4,"silo_heterogeneity":1}})");
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().rows == 2000);
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().users == 100);
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().rowsPerUserSkew == 1.0);
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().userCorrelation == 0.5);
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().atypicalUserShare == 0.1);
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().silos == 4);
    CHECK(synthetic.dataset.knobs<SyntheticOptions>().siloHeterogeneity == 1.0);

    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"equal","number":3}})"),
                        Contains("unknown silos key 'number'"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"attribute"}})"),
                        Contains("silo-split attribute needs silo-column"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"equal","count":0}})"),
                        Contains("silos 0 is invalid: it must be a whole number >= 1"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"dirichlet","alpha":-1}})"),
                        Contains("silo-alpha -1 is invalid: it must be > 0"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","synthetic":{"users":10}})"),
                        Contains("only goes with the synthetic data set"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","synthetic-users":10})"),
                        Contains("\"synthetic-users\" only goes with the synthetic data set"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"synthetic","synthetic":{"user":10}})"),
                        Contains("\"synthetic\" has no knob 'user'"));
    REQUIRE_THROWS_WITH(
        presetWith(R"({"name":"synthetic","synthetic-user":10})"),
        Contains("unknown dataset key 'synthetic-user'") && Contains("synthetic-users"));
}

TEST_CASE("A preset's silos object reads as before, and the flat settings read alike",
          "[sweep][preset][silo-settings]") {
    // What parseSilos made of these objects before the declarations, field by field.
    SiloOptions dirichlet;
    dirichlet.method = SiloMethod::Dirichlet;
    dirichlet.silos = 8;
    dirichlet.dirichletAlpha = 0.5;
    dirichlet.minTrainRowsPerSilo = 20;
    dirichlet.seed = 4;
    SiloOptions equal;  // the shipped presets' object: the count, and 0 as the seed
    equal.silos = 10;
    SiloOptions defaults;  // a method alone: 25 silos
    SiloOptions byColumn;
    byColumn.method = SiloMethod::ByAttribute;
    byColumn.column = "native-country";
    byColumn.minTrainRowsPerSilo = 100;
    SiloOptions byLabel;
    byLabel.method = SiloMethod::ByAttribute;
    byLabel.attribute = SiloAttribute::Label;
    SiloOptions unbounded = dirichlet;
    unbounded.dirichletAlpha = INFINITY;
    const std::vector<std::pair<std::string, SiloOptions>> objects = {
        {R"({"method":"dirichlet","count":8,"alpha":0.5,"min_rows":20,"seed":4})", dirichlet},
        {R"({"method":"equal","count":10})", equal},
        {R"({"method":"equal"})", defaults},
        {R"({"method":"attribute","column":"native-country","min_rows":100})", byColumn},
        {R"({"method":"by-attribute","column":"label"})", byLabel},
        {R"({"method":"dirichlet","count":8,"alpha":"inf","min_rows":20,"seed":4})", unbounded}};
    for (const auto& [object, expected] : objects) {
        INFO(object);
        const DatasetRequest request =
            presetWith(R"({"name":"adult","silos":)" + object + "}").dataset;
        REQUIRE(request.silos);
        const SiloOptions& silos = *request.silos;
        CHECK(silos.method == expected.method);
        CHECK(silos.silos == expected.silos);
        CHECK((silos.dirichletAlpha == expected.dirichletAlpha));
        CHECK(silos.minTrainRowsPerSilo == expected.minTrainRowsPerSilo);
        CHECK(silos.attribute == expected.attribute);
        CHECK(silos.column == expected.column);
        CHECK(silos.seed == expected.seed);
    }
    // The settings by name in the dataset object: the same data set.
    CHECK(datasetKey(presetWith(R"({"name":"adult","silo-split":"dirichlet","silos":8,)"
                                R"("silo-alpha":0.5,"silo-min-rows":20,"silo-seed":4})")
                         .dataset) ==
          datasetKey(
              presetWith(R"({"name":"adult","silos":)" + objects.front().first + "}").dataset));
    CHECK(datasetKey(presetWith(R"({"name":"adult","silos":10})").dataset) ==
          datasetKey(
              presetWith(R"({"name":"adult","silos":{"method":"equal","count":10}})").dataset));

    // The shipped presets, now spelt flat: the data set of their earlier "silos" object.
    CHECK(datasetKey(findSweepPreset("diff2-vs-dp-gd-adult").dataset) ==
          datasetKey(
              presetWith(
                  R"({"name":"adult","sensitive":"sex","silos":{"method":"equal","count":10}})")
                  .dataset));

    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"equal","number":3}})"),
                        Contains("unknown silos key 'number'"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"count":3}})"),
                        Contains("\"method\" is required"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"attribute"}})"),
                        Contains("silo-split attribute needs silo-column"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silo-split":"dirichlet"})"),
                        Contains("silo-split dirichlet needs silos N"));
    REQUIRE_THROWS_WITH(presetWith(R"({"name":"adult","silos":{"method":"equal","alpha":2}})"),
                        Contains("silo-alpha only goes with silo-split dirichlet"));
}

}  // namespace core_dataset_request_silos_test
