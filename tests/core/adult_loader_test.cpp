// Tests of the built-in Adult loader (core/data/adult.h) on the real UCI files kept beside the
// project (the folder PFA_SHARED_DATASETS; its PROVENANCE.md says where each file comes from).
// Reported skipped when absent.
// The expected numbers were counted once from adult.data / adult.test with an independent
// script (split on ',', strip, skip '|' lines, drop rows with a '?' field).

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <numeric>
#include <string>

#include "core/data/adult.h"
#include "core/data/csv_reader.h"
#include "core/util/error.h"
#include "test_skip.h"

namespace core_adult_loader_test {

using Catch::Contains;

namespace {

const std::string kAdultDir = (pfa::test::sharedDatasetsRoot() / "adult").string();

bool adultAvailable() {
    return std::filesystem::exists(kAdultDir + "/adult.data") &&
           std::filesystem::exists(kAdultDir + "/adult.test");
}

#define PFA_REQUIRE_ADULT_OR_SKIP()                                                                \
    do {                                                                                           \
        if (!adultAvailable())                                                                     \
            PFA_SKIP_TEST("the Adult files are not in " << kAdultDir << " (PFA_SHARED_DATASETS)"); \
    } while (0)

const pfa::FeatureColumn* findFeature(const pfa::TabularData& d, std::string_view name) {
    for (const auto& f : d.features)
        if (f.name == name) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("adult: the built-in schema is valid and declares 96 one-hot levels", "[adult]") {
    const pfa::Schema s = pfa::adultSchema();
    REQUIRE_NOTHROW(s.validate());
    CHECK(s.columnNames.size() == 15);
    std::size_t levels = 0;
    for (const auto& [name, spec] : s.columns) levels += spec.levels.size();
    CHECK(levels == 96);
    CHECK(s.columns.size() == 13);  // 6 numeric + 7 categorical; sex and income are not features
    CHECK(s.columns.count("sex") == 0);
    CHECK(std::find(s.columns.at("workclass").levels.begin(),
                    s.columns.at("workclass").levels.end(),
                    "Never-worked") == s.columns.at("workclass").levels.end());
}

TEST_CASE("adult: a missing file is named", "[adult]") {
    const std::string dir = std::filesystem::temp_directory_path().string() + "/pfa_no_adult_here";
    REQUIRE_THROWS_WITH(pfa::loadAdult(dir), Contains(dir + "/adult.data: file not found"));
}

TEST_CASE("adult: loadAdult reproduces the DP-FERMI preparation", "[adult][needs-data]") {
    PFA_REQUIRE_ADULT_OR_SKIP();
    const auto t0 = std::chrono::steady_clock::now();
    const pfa::TabularData d = pfa::loadAdult(kAdultDir);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO("loadAdult took " << seconds << " s");

    CHECK(d.name == "adult");
    REQUIRE(d.rows() == 45222);
    REQUIRE(d.group.size() == 45222);
    CHECK(d.userId.empty());

    // Target and groups.
    CHECK(d.classNames == std::vector<std::string>{"<=50K", ">50K"});
    CHECK(d.groupNames == std::vector<std::string>{"Female", "Male"});  // 0 = Female, 1 = Male
    CHECK(d.sensitiveDescription == "sex");
    std::size_t count[2][2] = {{0, 0}, {0, 0}};  // [group][label]
    for (std::size_t i = 0; i < d.rows(); ++i)
        ++count[static_cast<std::size_t>(d.group[i])][static_cast<std::size_t>(d.label[i])];
    CHECK(count[0][0] == 13026);  // Female, <=50K
    CHECK(count[0][1] == 1669);   // Female, >50K
    CHECK(count[1][0] == 20988);  // Male, <=50K
    CHECK(count[1][1] == 9539);   // Male, >50K
    CHECK(count[0][0] + count[0][1] == 14695);
    CHECK(count[1][0] + count[1][1] == 30527);
    CHECK(double(count[0][1]) / 14695.0 == Approx(0.1136).epsilon(0.001));
    CHECK(double(count[1][1]) / 30527.0 == Approx(0.3125).epsilon(0.001));

    // The test rows come last (15,060 of them); their labels end with '.' in the file. Had
    // the period not been stripped, none of them would be positive.
    const auto testBegin = d.label.begin() + 30162;
    CHECK(std::count(testBegin, d.label.end(), 1) == 3700);
    CHECK(std::count(d.label.begin(), testBegin, 1) == 7508);

    // Features: 6 numeric + 7 categorical with declared levels = 6 + 96 encoded columns.
    REQUIRE(d.features.size() == 13);
    CHECK(findFeature(d, "sex") == nullptr);
    CHECK(findFeature(d, "income") == nullptr);
    std::size_t numeric = 0, oneHot = 0;
    for (const auto& f : d.features) {
        if (f.kind == pfa::FeatureKind::Numeric) {
            ++numeric;
            CHECK(f.numeric.size() == d.rows());
            CHECK(f.codes.empty());
        } else {
            CHECK(f.levelsDeclared);
            oneHot += f.levels.size();
            REQUIRE(f.codes.size() == d.rows());
            // Every declared level occurs in the filtered data (none is dead weight).
            std::vector<std::size_t> seen(f.levels.size(), 0);
            for (int c : f.codes) ++seen[static_cast<std::size_t>(c)];
            INFO("column " << f.name);
            CHECK(std::count(seen.begin(), seen.end(), std::size_t{0}) == 0);
        }
    }
    CHECK(numeric == 6);
    CHECK(oneHot == 96);
    CHECK(numeric + oneHot == pfa::kAdultEncodedFeatures);

    // Numeric columns parsed fully (sums counted independently).
    const auto sum = [&](std::string_view name) {
        const auto* f = findFeature(d, name);
        REQUIRE(f != nullptr);
        REQUIRE(f->kind == pfa::FeatureKind::Numeric);
        return std::accumulate(f->numeric.begin(), f->numeric.end(), 0.0);
    };
    CHECK(sum("age") == 1743215.0);
    CHECK(sum("fnlwgt") == 8580184155.0);
    CHECK(sum("education-num") == 457577.0);
    CHECK(sum("capital-gain") == 49808883.0);
    CHECK(sum("capital-loss") == 4006462.0);
    CHECK(sum("hours-per-week") == 1851299.0);

    const auto* workclass = findFeature(d, "workclass");
    REQUIRE(workclass != nullptr);
    CHECK(workclass->levels.size() == 7);

    CHECK(seconds < 5.0);  // generous bound (debug builds); Release takes well under 0.1 s
}

TEST_CASE("adult: per-file row counts and the trailing period of adult.test",
          "[adult][needs-data]") {
    PFA_REQUIRE_ADULT_OR_SKIP();
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = pfa::readDelimitedFiles({kAdultDir + "/adult.data", kAdultDir + "/adult.test"},
                                           pfa::adultSchema(), opt);
    REQUIRE(stats.files.size() == 2);
    CHECK(stats.files[0].records == 32561);
    CHECK(stats.files[0].kept == 30162);
    CHECK(stats.files[0].droppedMissing == 2399);
    CHECK(stats.files[1].records == 16281);  // the "|1x3 Cross validator" line is a comment
    CHECK(stats.files[1].kept == 15060);
    CHECK(stats.files[1].droppedMissing == 1221);
    CHECK(d.rows() == 45222);

    // adult.test alone, without stripping the '.': no label equals ">50K" any more.
    pfa::Schema raw = pfa::adultSchema();
    raw.targetStripSuffixes.clear();
    REQUIRE_THROWS_WITH(pfa::readDelimitedFile(kAdultDir + "/adult.test", raw),
                        Contains("no row has the positive value '>50K'"));

    // With MissingPolicy::Error the first '?' is reported precisely (adult.data line 15,
    // native-country).
    pfa::Schema strict = pfa::adultSchema();
    strict.missingPolicy = pfa::MissingPolicy::Error;
    REQUIRE_THROWS_WITH(pfa::readDelimitedFile(kAdultDir + "/adult.data", strict),
                        Contains("adult.data:15 (column 'native-country'): missing value ('?')"));
}

}  // namespace core_adult_loader_test
