// The silo split's settings, declared once (core/generators/silo_settings.h): their rules and
// the round trip through their text. (The presets' silos: dataset_request_silos_test.cpp.)
#include "core/generators/silo_settings.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>

#include "core/sweep/prepared_dataset.h"
#include "core/util/error.h"

namespace core_silo_settings_test {

using namespace pfa;
using Catch::Contains;
using Catch::StartsWith;
using Given = std::map<std::string, std::string>;

namespace {

/// The request's silos after the command line's options `given` (no preset).
DatasetRequest withOptions(const Given& given, DatasetRequest request = {}) {
    applySiloSettings(request, given, "--");
    return request;
}

/// The message applySiloSettings refuses `given` with.
std::string refusal(const Given& given, DatasetRequest request = {}) {
    try {
        applySiloSettings(request, given, "--");
    } catch (const InputError& error) {
        return error.what();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("Silo settings are declared once, with the presets' former keys",
          "[data][units][silo-settings]") {
    const std::vector<std::string> names = {"silos",       "silo-split",    "silo-alpha",
                                            "silo-column", "silo-min-rows", "silo-seed"};
    REQUIRE(siloSettings().size() == names.size());
    const std::map<std::string, std::string> objectKeys = {
        {"count", "silos"},        {"method", "silo-split"},      {"alpha", "silo-alpha"},
        {"column", "silo-column"}, {"min_rows", "silo-min-rows"}, {"seed", "silo-seed"}};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const SiloSetting& setting = siloSettings()[i];
        INFO(setting.name());
        CHECK(setting.name() == names[i]);
        CHECK_FALSE(setting.knob.spec.label.empty());
        CHECK_FALSE(setting.knob.spec.help.empty());
        CHECK_FALSE(setting.metavar.empty());
        CHECK(findSiloSetting(setting.name()) == &setting);
        // Defaults are SiloOptions' own.
        CHECK(setting.knob.get(DatasetRequest{}) == setting.knob.spec.defaultValue);
    }
    for (const auto& [key, name] : objectKeys) {
        REQUIRE(findSiloSetting(key));
        CHECK(findSiloSetting(key)->name() == name);
    }
    CHECK_FALSE(findSiloSetting("number"));
    // Which methods each goes with: what the GUI hides and the command line refuses.
    CHECK(findSiloSetting("silo-alpha")->methodNames() == "dirichlet");
    CHECK(findSiloSetting("silo-column")->methodNames() == "attribute");
    CHECK(findSiloSetting("silos")->methodNames() == "equal or dirichlet");
    CHECK(findSiloSetting("silo-seed")->methodNames() == "equal or dirichlet");
    CHECK(findSiloSetting("silo-min-rows")->methodNames().empty());
    CHECK(findSiloSetting("silo-min-rows")->goesWith(SiloMethod::EqualRandom));
    CHECK_FALSE(findSiloSetting("silo-seed")->goesWith(SiloMethod::ByAttribute));
}

TEST_CASE("Silo options become the same SiloOptions and data-set key as before",
          "[data][units][silo-settings]") {
    const DatasetRequest none = withOptions({});
    CHECK_FALSE(none.silos);

    const DatasetRequest equal = withOptions({{"silos", "5"}, {"silo-seed", "3"}});
    REQUIRE(equal.silos);
    CHECK(equal.silos->method == SiloMethod::EqualRandom);
    CHECK(equal.silos->silos == 5);
    CHECK(equal.silos->seed == 3);
    CHECK(datasetKey(equal) == datasetKey(DatasetRequest{}) + "|silos=equal/n=5/min=1/seed=3");

    const DatasetRequest dirichlet = withOptions({{"silos", "8"},
                                                  {"silo-split", "dirichlet"},
                                                  {"silo-alpha", "0.5"},
                                                  {"silo-min-rows", "20"},
                                                  {"silo-seed", "4"}});
    REQUIRE(dirichlet.silos);
    CHECK(dirichlet.silos->method == SiloMethod::Dirichlet);
    CHECK(dirichlet.silos->dirichletAlpha == 0.5);
    CHECK(dirichlet.silos->minTrainRowsPerSilo == 20);
    CHECK(datasetKey(dirichlet) ==
          datasetKey(DatasetRequest{}) + "|silos=dirichlet/n=8/alpha=0.5/min=20/seed=4");
    CHECK(
        std::isinf(withOptions({{"silos", "2"}, {"silo-split", "dirichlet"}, {"silo-alpha", "inf"}})
                       .silos->dirichletAlpha));

    const DatasetRequest byColumn =
        withOptions({{"silo-split", "attribute"}, {"silo-column", " native-country "}});
    REQUIRE(byColumn.silos);
    CHECK(byColumn.silos->attribute == SiloAttribute::FeatureColumn);
    CHECK(byColumn.silos->column == "native-country");  // trimmed
    CHECK(withOptions({{"silo-split", "attribute"}, {"silo-column", "label"}}).silos->attribute ==
          SiloAttribute::Label);
    // The methods' earlier spellings are still read.
    CHECK(withOptions({{"silo-split", "by-attribute"}, {"silo-column", "group"}}).silos->method ==
          SiloMethod::ByAttribute);

    // Round trip: each setting's text, given again, makes the same silos.
    for (const DatasetRequest& request : {equal, dirichlet, byColumn}) {
        Given given;
        for (const SiloSetting& setting : siloSettings()) {
            if (setting.goesWith(request.silos->method))
                given[setting.name()] = setting.knob.get(request);
        }
        CHECK(datasetKey(withOptions(given)) == datasetKey(request));
    }
}

TEST_CASE("Every rule between the silo options has its message", "[data][units][silo-settings]") {
    CHECK(refusal({{"silo-seed", "3"}}) == "--silo-seed only goes with --silos N or --silo-split");
    CHECK(refusal({{"silo-alpha", "1"}}) ==
          "--silo-alpha only goes with --silos N or --silo-split");
    CHECK(refusal({{"silo-split", "dirichlet"}}) == "--silo-split dirichlet needs --silos N (" +
                                                        findSiloSetting("silos")->knob.spec.help +
                                                        ")");
    CHECK_THAT(refusal({{"silo-split", "attribute"}}),
               StartsWith("--silo-split attribute needs --silo-column COL (what the silos follow"));
    CHECK(refusal({{"silos", "3"}, {"silo-split", "attribute"}, {"silo-column", "group"}}) ==
          "--silos only goes with --silo-split equal or dirichlet");
    CHECK(refusal({{"silos", "3"}, {"silo-alpha", "1"}}) ==
          "--silo-alpha only goes with --silo-split dirichlet");
    CHECK(refusal({{"silos", "3"}, {"silo-column", "group"}}) ==
          "--silo-column only goes with --silo-split attribute");
    CHECK(refusal({{"silo-split", "attribute"}, {"silo-column", "group"}, {"silo-seed", "1"}}) ==
          "--silo-seed only goes with --silo-split equal or dirichlet");
    // Values, against their declarations.
    CHECK(refusal({{"silos", "0"}}) == "--silos 0 is invalid: it must be a whole number >= 1");
    CHECK(refusal({{"silos", "2.5"}}) == "--silos 2.5 is invalid: it must be a whole number >= 1");
    CHECK(refusal({{"silos", "3"}, {"silo-split", "kmeans"}}) ==
          "--silo-split kmeans is invalid: it must be equal | dirichlet | attribute");
    CHECK(refusal({{"silos", "3"}, {"silo-split", "dirichlet"}, {"silo-alpha", "-1"}}) ==
          "--silo-alpha -1 is invalid: it must be > 0");
    CHECK(refusal({{"silos", "3"}, {"silo-split", "dirichlet"}, {"silo-alpha", "0"}}) ==
          "--silo-alpha 0 is invalid: it must be > 0");
    CHECK(refusal({{"silo-split", "attribute"}, {"silo-column", "  "}}) ==
          "--silo-column    is invalid: it must be a non-empty text");
    CHECK(refusal({{"silos", "3"}, {"silo-min-rows", "0"}}) ==
          "--silo-min-rows 0 is invalid: it must be a whole number >= 1");
    CHECK(refusal({{"silos", "3"}, {"silo-seed", "-1"}}) ==
          "--silo-seed -1 is invalid: it must be a whole number >= 0");
    CHECK(refusal({{"silo-count", "3"}}) == "unknown silo setting 'silo-count'");

    // A refusal leaves the request as it was.
    DatasetRequest request = withOptions({{"silos", "4"}});
    CHECK_THROWS(applySiloSettings(request, {{"silo-alpha", "1"}}, "--"));
    CHECK(datasetKey(request) == datasetKey(withOptions({{"silos", "4"}})));
}

TEST_CASE("Silo options complete the silos a preset gave", "[data][units][silo-settings]") {
    DatasetRequest preset;
    preset.silos = SiloOptions{};
    preset.silos->silos = 10;
    // Its number of silos serves another method; a method alone asks for nothing more.
    const DatasetRequest dirichlet = withOptions({{"silo-split", "dirichlet"}}, preset);
    CHECK(dirichlet.silos->method == SiloMethod::Dirichlet);
    CHECK(dirichlet.silos->silos == 10);
    CHECK(withOptions({{"silo-seed", "7"}}, preset).silos->seed == 7);
    // The column it lacks is still needed.
    CHECK_THAT(refusal({{"silo-split", "attribute"}}, preset),
               StartsWith("--silo-split attribute needs --silo-column COL"));
    preset.silos->method = SiloMethod::ByAttribute;
    setSiloColumn(*preset.silos, "race");
    CHECK(withOptions({{"silo-min-rows", "50"}}, preset).silos->column == "race");
}

}  // namespace core_silo_settings_test
