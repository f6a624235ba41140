// The data-set catalog: every description parses, and every data set loaded from the offline
// copies beside the project has its documented rows, encoded features and group sizes.
#include "core/data/catalog.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/algorithms/registry.h"
#include "core/data/preprocessing.h"
#include "core/util/error.h"
#include "core/util/sha256.h"
#include "test_data.h"

namespace core_catalog_test {

using namespace pfa;

namespace {

// Folder of each catalog data set under ../shared/datasets (see PROVENANCE.md).
const std::map<std::string, std::string> kSharedFolder = {
    {"adult", "adult"},
    {"compas", "compas"},
    {"credit-card", "credit-card-default"},
    {"german-credit", "german-credit"},
    {"parkinsons", "parkinsons-telemonitoring"},
};

}  // namespace

TEST_CASE("The catalog describes the five benchmark data sets completely",
          "[catalog][needs-data]") {
    std::set<std::string> names;
    for (const CatalogEntry& entry : datasetCatalog()) {
        INFO(entry.name);
        names.insert(entry.name);
        CHECK_FALSE(entry.title.empty());
        CHECK(entry.description.size() > 80);
        CHECK_FALSE(entry.license.empty());
        CHECK_FALSE(entry.citation.empty());
        CHECK(entry.preprocessing.size() > 80);
        CHECK_FALSE(entry.sources.empty());
        CHECK(entry.expectedRows > 0);
        REQUIRE_FALSE(entry.files.empty());
        for (const DatasetFile& file : entry.files) {
            CHECK(file.sha256.size() == 64);
            CHECK(file.bytes > 0);
            REQUIRE_FALSE(file.urls.empty());
            for (const std::string& url : file.urls) CHECK(url.rfind("https://", 0) == 0);
        }
        for (const SensitiveChoice& choice : entry.sensitiveChoices) {
            CHECK(choice.expectedFeatures > 0);
            CHECK(choice.expectedGroups.size() >= 2);
            CHECK_NOTHROW(entry.schemaFor(choice.id).validate());
        }
    }
    CHECK(names ==
          std::set<std::string>{"adult", "compas", "credit-card", "german-credit", "parkinsons"});
    REQUIRE_THROWS_WITH(findCatalogEntry("mnist"), Catch::Contains("unknown data set 'mnist'"));
    REQUIRE_THROWS_WITH(findCatalogEntry("adult").sensitiveChoice("religion"),
                        Catch::Contains("no sensitive choice 'religion'"));
}

namespace {

/// The files, rows, features and groups of catalog entry `name` against its offline copy: one
/// test case per data set, so that each one missing is reported skipped on its own.
void checkCatalogEntry(const std::string& name) {
    const CatalogEntry& entry = findCatalogEntry(name);
    const std::string directory = test::sharedDatasetPath(kSharedFolder.at(entry.name));
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason(kSharedFolder.at(entry.name)));
    for (const DatasetFile& file : entry.files) {
        CHECK(sha256File(directory + "/" + file.name) == file.sha256);
    }
    for (const SensitiveChoice& choice : entry.sensitiveChoices) {
        INFO("sensitive " << choice.id);
        const TabularData data = entry.load(directory, choice.id);
        CHECK(static_cast<long>(data.rows()) == entry.expectedRows);
        const Dataset encoded = encodeAll(data);
        CHECK(encoded.features() == choice.expectedFeatures);
        // Declared levels make the feature count independent of the split.
        const DataSplit split = splitAndEncode(data, {0.25, 7});
        CHECK(split.train.features() == choice.expectedFeatures);
        std::map<std::string, long> groups;
        for (int g : data.group) ++groups[data.groupNames[static_cast<std::size_t>(g)]];
        CHECK(groups == choice.expectedGroups);
        CHECK(data.classNames.size() == 2);
    }
}

}  // namespace

// The five names are those of the catalog (checked above).
TEST_CASE("Catalog data set adult yields its documented rows, features and groups",
          "[catalog][data]") {
    checkCatalogEntry("adult");
}
TEST_CASE("Catalog data set compas yields its documented rows, features and groups",
          "[catalog][data]") {
    checkCatalogEntry("compas");
}
TEST_CASE("Catalog data set credit-card yields its documented rows, features and groups",
          "[catalog][data]") {
    checkCatalogEntry("credit-card");
}
TEST_CASE("Catalog data set german-credit yields its documented rows, features and groups",
          "[catalog][data]") {
    checkCatalogEntry("german-credit");
}
TEST_CASE("Catalog data set parkinsons yields its documented rows, features and groups",
          "[catalog][data]") {
    checkCatalogEntry("parkinsons");
}

TEST_CASE("Parkinsons keeps the subject as a user id, never as a feature",
          "[catalog][data][needs-data]") {
    const std::string directory = test::sharedDatasetPath("parkinsons-telemonitoring");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("parkinsons-telemonitoring"));
    const TabularData data = findCatalogEntry("parkinsons").load(directory);
    REQUIRE(data.userId.size() == data.rows());
    std::set<int> subjects(data.userId.begin(), data.userId.end());
    CHECK(subjects.size() == 42);
    for (const FeatureColumn& column : data.features) {
        CHECK(column.name != "subject#");
        CHECK(column.name != "total_UPDRS");
        CHECK(column.name != "sex");
    }
    long positive = 0;
    for (int y : data.label) positive += y;
    CHECK(positive == 2934);
}

TEST_CASE(
    "A group below the public share bound: published refuses with the minimum, conservative trains",
    "[catalog][privacy][needs-data]") {
    const std::string directory = test::sharedDatasetPath("compas");
    if (directory.empty()) PFA_SKIP_TEST(test::missingDatasetReason("compas"));
    const DataSplit split = splitAndEncode(findCatalogEntry("compas").load(directory, "race-all"));
    TrainConfig config;
    config.algorithm = "dp-fermi";
    config.epsilon = 1.0;
    config.lambda = 1.0;
    config.epochs = 2;
    // The conservative calibration floors its privatised shares at rho and clips every row:
    // Native American (11 rows in all) needs no exception.
    CHECK_NOTHROW(findAlgorithm("dp-fermi").validate(config, split));
    // The published analysis uses the exact shares and needs every group above rho.
    config.calibration = Calibration::Published;
    config.scope = ProtectionScope::SensitiveOnly;
    config.minGroupShare = 1.0 / 12.0;
    REQUIRE_THROWS_WITH(findAlgorithm("dp-fermi").validate(config, split),
                        Catch::Contains("too few for the published calibration") &&
                            Catch::Contains("needs at least") && Catch::Contains("rho = 0.08333"));
}

TEST_CASE("Schemas survive a JSON round trip", "[catalog]") {
    for (const CatalogEntry& entry : datasetCatalog()) {
        INFO(entry.name);
        const Schema schema = entry.schemaFor("");
        const Schema copy = schemaFromJson(parseJson(schemaToJson(schema)));
        CHECK(schemaToJson(copy) == schemaToJson(schema));
        CHECK(copy.target == schema.target);
        CHECK(copy.columns.size() == schema.columns.size());
        CHECK(copy.rowFilters.size() == schema.rowFilters.size());
        CHECK(copy.targetThreshold == schema.targetThreshold);
    }
    REQUIRE_THROWS_WITH(
        schemaFromJson(parseJson(R"({"target": "y", "columns": {"a": {"role": "weird"}}})")),
        Catch::Contains("unknown column role 'weird'"));
}

}  // namespace core_catalog_test
