// The generator registry: every generator's knobs are declared once, with one spelling each, and
// the data-set keys they produce are the keys of every earlier run (they seed its noise).

#include <catch2/catch.hpp>
#include <set>

#include "core/data/heavy_tailed.h"
#include "core/data/synthetic.h"
#include "core/generators/dataset_loading.h"
#include "core/generators/generator.h"
#include "core/sweep/prepared_dataset.h"
#include "core/util/error.h"

namespace core_data_generators_test {

using namespace pfa;
using Catch::Matchers::Contains;

TEST_CASE("Every generator declares its knobs once, one spelling each", "[generators]") {
    REQUIRE(dataGenerators().size() >= 5);
    std::set<std::string> names, knobNames;
    for (const DataGenerator& generator : dataGenerators()) {
        INFO(generator.name);
        CHECK(names.insert(generator.name).second);
        CHECK(findGenerator(generator.name) == &generator);
        CHECK(!generator.title.empty());
        CHECK(!generator.description.empty());
        REQUIRE(generator.generate);
        REQUIRE(generator.schema);
        REQUIRE(generator.describe);
        std::set<std::string> keyNames;
        for (const GeneratorKnob& knob : generator.knobs) {
            const ParamSpec& spec = knob.spec;
            INFO(spec.name);
            // One spelling across all generators: the command line has one namespace.
            CHECK(knobNames.insert(spec.name).second);
            CHECK(generatorOfKnob(spec.name) == &generator);
            CHECK(keyNames.insert(spec.runKeyName()).second);
            CHECK(!spec.label.empty());
            CHECK(!spec.help.empty());
            // The declared default is what the generator's options start with, and valid.
            DatasetRequest request;
            request.name = generator.name;
            CHECK(knob.get(request) == spec.defaultValue);
            CHECK(parseParameter(spec, spec.defaultValue) == spec.defaultValue);
            // A value other than the default goes in and comes out the same.
            std::string other;
            try {
                other = exampleValue(spec);
            } catch (const std::logic_error&) {  // no small example in range (rows ≥ 100)
                other = parseParameter(spec, spec.min + 1);
            }
            CHECK(other != spec.defaultValue);
            setKnob(request, spec.name, other);
            CHECK(knobValue(request, spec.name) == other);
            // A knob in the key changes it (users' knobs are named only with users).
            DatasetRequest defaults;
            defaults.name = generator.name;
            if (!knob.inKey || knob.inKey(request))
                CHECK(datasetKey(request) != datasetKey(defaults));
        }
    }
}

TEST_CASE("Generator knobs make the data-set keys of earlier runs, byte for byte", "[generators]") {
    // Written by the hand-made keys before the knobs were declared; a key seeds every run's noise.
    const auto key = [](const std::string& name) {
        DatasetRequest request;
        request.name = name;
        return datasetKey(request);
    };
    CHECK(key("synthetic") ==
          "synthetic(n=10000,d=8,minority=0.34999999999999998,bias=1,noise=0.050000000000000003,"
          "seed=20240)|split=0,0.25");
    CHECK(key("synthetic-heavy-tailed") ==
          "synthetic-heavy-tailed(n=20000,d=20,nu=3,nu_xi=3,s_xi=0.5,p_out=0.01,s_out=100,"
          "seed=20240)|split=0,0.25");
    CHECK(key("synthetic-personalised") ==
          "synthetic-personalised(N=1000,d=100,p=5,s=0.01,tau=0.01,g=10,rows=4,seed=42)|split=0,"
          "0.25");
    CHECK(key("synthetic-linear") == "synthetic-linear(n=12000,d=200,seed=7)|split=0,0.25");
    CHECK(key("synthetic-teacher") == "synthetic-teacher(n=20000,d=8,seed=20260)|split=0,0.25");
    // Users and silos are named only when on.
    DatasetRequest units;
    setKnob(units, "synthetic-users", 40.0);
    setKnob(units, "synthetic-silos", 4.0);
    setKnob(units, "synthetic-silo-heterogeneity", 0.5);
    CHECK(datasetKey(units) ==
          "synthetic(n=10000,d=8,minority=0.34999999999999998,bias=1,noise=0.050000000000000003,"
          "seed=20240,users=40,skew=0,rho=0,atypical=0,silos=4,h=0.5)|split=0,0.25");
}

TEST_CASE("Generator knobs are checked where they are set", "[generators]") {
    DatasetRequest request;
    request.name = "synthetic-heavy-tailed";
    setKnob(request, "heavy-feature-tail", "inf");
    CHECK(std::isinf(request.knobs<HeavyTailedOptions>().featureTail));
    setKnob(request, "heavy-outlier-share", 0.0);
    CHECK(request.knobs<HeavyTailedOptions>().outlierShare == 0.0);
    REQUIRE_THROWS_AS(setKnob(request, "heavy-outlier-share", 0.5), InputError);
    REQUIRE_THROWS_WITH(setKnob(request, "heavy-rows", "12.5"), Contains("heavy-rows"));
    REQUIRE_THROWS_WITH(setKnob(request, "synthetic-rows", 500.0),
                        Contains("only goes with the synthetic data set"));
    REQUIRE_THROWS_WITH(setKnob(request, "heavy-colour", 1.0), Contains("no knob 'heavy-colour'"));
    DatasetRequest adult;
    adult.name = "adult";
    REQUIRE_THROWS_AS(setKnob(adult, "synthetic-rows", 500.0), InputError);
    // A former spelling (earlier presets' object keys) finds the knob.
    const DataGenerator* heavy = findGenerator("synthetic-heavy-tailed");
    REQUIRE(heavy);
    REQUIRE(heavy->findKnob("outlier_share"));
    CHECK(heavy->findKnob("outlier_share")->spec.name == "heavy-outlier-share");
    // A knob that needs another: the users' skew needs users.
    DatasetRequest synthetic;
    setKnob(synthetic, "synthetic-user-skew", 1.0);
    REQUIRE_THROWS_WITH(checkKnobNeeds(synthetic, {"synthetic-user-skew"}),
                        Contains("synthetic-user-skew needs synthetic-users"));
    setKnob(synthetic, "synthetic-users", 50.0);
    CHECK_NOTHROW(checkKnobNeeds(synthetic, {"synthetic-user-skew"}));
}

TEST_CASE("A generator loads and describes through the registry", "[generators]") {
    DatasetRequest request;
    request.name = "synthetic";
    setKnob(request, "synthetic-rows", 300.0);
    setKnob(request, "synthetic-features", 3.0);
    const TabularData data = loadBuiltinDataset(request);
    CHECK(data.rows() == 300);
    CHECK(describeDatasetRequest(request) == describeSynthetic(request.knobs<SyntheticOptions>()));
    const std::vector<std::string> names = builtinDatasetNames();
    for (const DataGenerator& generator : dataGenerators())
        CHECK(std::find(names.begin(), names.end(), generator.name) != names.end());
}

}  // namespace core_data_generators_test
