// Tests of the Schema extensions (row filters, target and sensitive thresholds), the memory
// guard, checkGroupSizes() and the catalogue of bad-input errors. Inputs are generated here;
// the COMPAS and Parkinsons checks read the offline copies beside the project and are skipped,
// with a warning, when those are absent.

#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/data_checks.h"
#include "core/data/file_preview.h"
#include "core/data/schema.h"
#include "core/util/error.h"
#include "test_data.h"

namespace core_schema_extensions_test {

using Catch::Contains;
using pfa::ColumnRole;
using pfa::FilterOp;
using pfa::MissingPolicy;
using pfa::RowFilter;
using pfa::Schema;
using pfa::TabularData;

namespace {

Schema basicSchema() {
    Schema s;
    s.target = "y";
    s.positiveValues = {"yes"};
    s.sensitive = {"g"};
    return s;
}

TabularData readText(const std::string& text, const Schema& s, const pfa::ReadOptions& o = {}) {
    return pfa::readDelimitedText(text, "t.csv", s, o);
}

const pfa::FeatureColumn& feature(const TabularData& d, const std::string& name) {
    for (const auto& f : d.features)
        if (f.name == name) return f;
    FAIL("no feature " << name);
    throw std::logic_error("unreachable");
}

}  // namespace

// -------------------------------------------------------------------------------------------
// Row filters

TEST_CASE("filters: each operator keeps the rows that satisfy it", "[csv][filters]") {
    // Every selection below keeps two classes and two groups.
    const std::string text =
        "v,g,y\n"
        "-40,a,yes\n"
        "-30,b,no\n"
        "0,a,no\n"
        "30,b,yes\n"
        "31,a,no\n"
        "40,b,yes\n"
        "1.0,b,no\n"
        "1,a,yes\n";
    struct Case {
        FilterOp op;
        std::string value;
        std::vector<double> kept;
    };
    const std::vector<Case> cases = {
        {FilterOp::Equal, "1", {1, 1}},  // numeric equality: "1.0" equals "1"
        {FilterOp::NotEqual, "30", {-40, -30, 0, 31, 40, 1, 1}},
        {FilterOp::LessEqual, "0", {-40, -30, 0}},
        {FilterOp::GreaterEqual, "30", {30, 31, 40}},
        {FilterOp::Less, "0", {-40, -30}},
        {FilterOp::Greater, "30", {31, 40}},
        {FilterOp::AbsLessEqual, "30", {-30, 0, 30, 1, 1}},
    };
    for (const auto& c : cases) {
        INFO("op " << pfa::filterOpSymbol(c.op) << " " << c.value);
        Schema s = basicSchema();
        s.columns["v"].role = ColumnRole::Numeric;
        s.rowFilters = {{"v", c.op, c.value}};
        pfa::ReadStats stats;
        pfa::ReadOptions opt;
        opt.stats = &stats;
        const auto d = readText(text, s, opt);
        CHECK(feature(d, "v").numeric == c.kept);
        CHECK(stats.files[0].droppedFiltered == 8 - c.kept.size());
        CHECK(stats.files[0].kept == c.kept.size());
    }
}

TEST_CASE("filters: text comparison, ignored filter columns, several filters", "[csv][filters]") {
    Schema s = basicSchema();
    s.columns["degree"].role = ColumnRole::Ignore;  // read only for filtering
    s.columns["score"].role = ColumnRole::Ignore;
    s.rowFilters = {{"degree", FilterOp::NotEqual, "O"}, {"score", FilterOp::NotEqual, "N/A"}};
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = readText(
        "x,degree,score,g,y\n"
        "1,F,Low,a,yes\n"
        "2,O,Low,b,no\n"  // dropped: degree O
        "3,M,N/A,a,no\n"  // dropped: score N/A
        "4,M,High,b,no\n"
        "5,o,High,a,yes\n",  // text comparison is case-sensitive: kept
        s, opt);
    CHECK(feature(d, "x").numeric == std::vector<double>{1, 4, 5});
    CHECK(d.features.size() == 1);  // the filter columns are not features
    CHECK(stats.files[0].droppedFiltered == 2);
    CHECK(stats.files[0].records == 5);

    // Equal on text; a filter on the target column itself.
    Schema e = basicSchema();
    e.rowFilters = {{"c", FilterOp::Equal, "keep"}};
    const auto k = readText("c,g,y\nkeep,a,yes\ndrop,b,yes\nkeep,b,no\n", e);
    CHECK(k.rows() == 2);
}

TEST_CASE("filters: missing cells drop the row, non-numbers are errors", "[csv][filters]") {
    Schema s = basicSchema();
    s.missingToken = "?";
    s.missingPolicy = MissingPolicy::Error;  // a filtered row never reaches the missing check
    s.columns["days"].role = ColumnRole::Ignore;
    s.rowFilters = {{"days", FilterOp::AbsLessEqual, "30"}};
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d =
        readText("x,days,g,y\n1,-1,a,yes\n2,,b,no\n3,?,a,no\n4,5,b,no\n5,,?,no\n", s, opt);
    CHECK(feature(d, "x").numeric == std::vector<double>{1, 4});
    CHECK(stats.files[0].droppedFiltered == 3);
    CHECK(stats.files[0].droppedMissing == 0);

    REQUIRE_THROWS_WITH(
        readText("x,days,g,y\n1,-1,a,yes\n2,soon,b,no\n", s),
        Contains("t.csv:3 (column 'days'): value 'soon' is not a number") && Contains("|x| <= 30"));
    // Equal/NotEqual never need numbers: "soon" != "-1" as text.
    Schema t = basicSchema();
    t.rowFilters = {{"days", FilterOp::NotEqual, "-1"}};
    CHECK(readText("days,g,y\nsoon,a,yes\n-1,b,no\n-1.0,a,no\n2,b,no\n", t).rows() == 2);

    // Everything filtered away: the message says why.
    Schema all = basicSchema();
    all.rowFilters = {{"x", FilterOp::Greater, "100"}};
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,b,no\n", all),
                        Contains("no data rows left: of 2 records, 2 failed Schema.rowFilters"));
}

TEST_CASE("filters: validation and unknown columns", "[csv][filters][schema]") {
    Schema s = basicSchema();
    s.rowFilters = {{"", FilterOp::Equal, "1"}};
    REQUIRE_THROWS_WITH(s.validate(), Contains("Schema.rowFilters[0]: the column name is empty"));
    s.rowFilters = {{"x", FilterOp::Equal, ""}};
    REQUIRE_THROWS_WITH(s.validate(), Contains("Schema.rowFilters[0]: the value is empty"));
    s.rowFilters = {{"x", FilterOp::Equal, "a"}, {"x", FilterOp::Less, "ten"}};
    REQUIRE_THROWS_WITH(s.validate(),
                        Contains("Schema.rowFilters[1]: the value 'ten' is not a finite number"));
    s.rowFilters = {{"x", FilterOp::Less, "inf"}};
    REQUIRE_THROWS_WITH(s.validate(), Contains("Schema.rowFilters[0]"));
    s.rowFilters = {{"zz", FilterOp::Less, "1"}};
    REQUIRE_NOTHROW(s.validate());
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n", s),
                        Contains("(column 'zz'): unknown column named in Schema.rowFilters"));
    s.hasHeader = false;
    s.columnNames = {"x", "g", "y"};
    REQUIRE_THROWS_WITH(s.validate(), Contains("Schema.rowFilters[0]: unknown column 'zz'"));
    CHECK(std::string(pfa::filterOpSymbol(FilterOp::GreaterEqual)) == ">=");
}

// -------------------------------------------------------------------------------------------
// Target threshold

TEST_CASE("target threshold: class 1 iff value > threshold", "[csv][threshold]") {
    Schema s = basicSchema();
    s.positiveValues.clear();
    s.targetThreshold = 27.576;
    const auto d = readText("x,g,y\n1,a,30\n2,b,27.576\n3,a,-1e3\n4,b,27.5761\n", s);
    CHECK(d.label == std::vector<int>{1, 0, 0, 1});
    CHECK(d.classNames == std::vector<std::string>{"\u2264 27.576", "> 27.576"});

    s.targetThreshold = 1.0 / 3.0;  // up to 6 significant digits in the names
    CHECK(readText("x,g,y\n1,a,0\n2,b,1\n", s).classNames ==
          std::vector<std::string>{"\u2264 0.333333", "> 0.333333"});

    s.negativeClassName = "mild";
    s.positiveClassName = "severe";
    CHECK(readText("x,g,y\n1,a,0\n2,b,1\n", s).classNames ==
          std::vector<std::string>{"mild", "severe"});

    s.targetThreshold = 0.5;
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,0\n2,b,high\n", s),
                        Contains("t.csv:3 (column 'y'): value 'high' is not a number") &&
                            Contains("Schema.targetThreshold"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,0\n2,b,0.5\n", s),
                        Contains("(column 'y'): the target has only one class after filtering: "
                                 "no row has a value > 0.5"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,1\n2,b,9\n", s),
                        Contains("every row has a value > 0.5"));

    Schema both = basicSchema();
    both.targetThreshold = 1;
    REQUIRE_THROWS_WITH(both.validate(), Contains("Schema.targetThreshold: cannot be combined with "
                                                  "Schema.positiveValues"));
    both.positiveValues.clear();
    both.targetThreshold = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_THROWS_WITH(both.validate(), Contains("Schema.targetThreshold: the threshold is not"));
}

// -------------------------------------------------------------------------------------------
// Sensitive threshold

TEST_CASE("sensitive threshold: two groups below and at-or-above", "[csv][threshold]") {
    Schema s = basicSchema();
    s.sensitive = {"age"};
    s.sensitiveThreshold = 25;
    const auto d = readText("x,age,y\n1,19,yes\n2,25,no\n3,67,no\n4,24.9,yes\n", s);
    CHECK(d.sensitiveDescription == "age");
    CHECK(d.groupNames == std::vector<std::string>{"age < 25", "age \u2265 25"});
    CHECK(d.group == std::vector<int>{0, 1, 1, 0});

    s.sensitiveThresholdLabels = {"young", "old"};
    const auto e = readText("x,age,y\n1,19,yes\n2,25,no\n", s);
    CHECK(e.groupNames == std::vector<std::string>{"old", "young"});  // sorted, as all groups
    CHECK(e.group == std::vector<int>{1, 0});

    REQUIRE_THROWS_WITH(readText("x,age,y\n1,19,yes\n2,old,no\n", s),
                        Contains("t.csv:3 (column 'age'): value 'old' is not a number") &&
                            Contains("Schema.sensitiveThreshold"));
    REQUIRE_THROWS_WITH(
        readText("x,age,y\n1,30,yes\n2,40,no\n", s),
        Contains("(column 'age'): the sensitive column has only one group ('old')"));

    Schema v = s;
    v.sensitive = {"age", "sex"};
    REQUIRE_THROWS_WITH(v.validate(),
                        Contains("Schema.sensitiveThreshold: needs exactly one sensitive column"));
    v = s;
    v.sensitiveThresholdLabels = {"young"};
    REQUIRE_THROWS_WITH(v.validate(), Contains("Schema.sensitiveThresholdLabels: exactly two"));
    v.sensitiveThresholdLabels = {"a", "a"};
    REQUIRE_THROWS_WITH(v.validate(), Contains("the two names are equal"));
    v.sensitiveThresholdLabels = {"a", ""};
    REQUIRE_THROWS_WITH(v.validate(), Contains("a name is empty"));
    v = s;
    v.sensitiveValueLabels = {{"1", "x"}};
    REQUIRE_THROWS_WITH(v.validate(), Contains("Schema.sensitiveValueLabels: cannot be combined"));
    v = basicSchema();
    v.sensitiveThresholdLabels = {"a", "b"};
    REQUIRE_THROWS_WITH(v.validate(), Contains("Schema.sensitiveThresholdLabels: only used with"));
}

// -------------------------------------------------------------------------------------------
// Memory guard

TEST_CASE("memory guard: refuses inputs larger than memory allows", "[csv][memory]") {
    const std::string text = "x,g,y\n1,a,yes\n2,b,no\n";
    REQUIRE(text.size() == 21);
    pfa::ReadOptions opt;
    opt.memoryLimitBytes = 21 * pfa::kParseBytesPerInputByte;  // exactly enough
    CHECK(readText(text, basicSchema(), opt).rows() == 2);
    opt.memoryLimitBytes = 21 * pfa::kParseBytesPerInputByte - 1;
    REQUIRE_THROWS_AS(readText(text, basicSchema(), opt), pfa::InputError);
    REQUIRE_THROWS_WITH(readText(text, basicSchema(), opt),
                        Contains("t.csv: the file is 21 bytes but only 83 bytes of memory"));

    // Sizes in MB/GB, checked before any parsing.
    REQUIRE_THROWS_WITH(
        pfa::checkInputFitsMemory(std::uint64_t{3} << 30, "big.csv", std::uint64_t{2} << 30),
        Contains("big.csv: the file is 3.0 GB but only 2.0 GB of memory is "
                 "available; reading needs about 4 bytes of memory per byte") &&
            Contains("about 12 GB"));
    REQUIRE_THROWS_WITH(pfa::checkInputFitsMemory(std::uint64_t{300} << 20, "a.csv + b.csv",
                                                  std::uint64_t{1} << 30),
                        Contains("a.csv + b.csv: the files are 300 MB but only 1.0 GB"));
    REQUIRE_NOTHROW(
        pfa::checkInputFitsMemory(std::uint64_t{100} << 20, "ok.csv", std::uint64_t{1} << 30));
}

TEST_CASE("memory guard: the real limit, MemAvailable, lets a small input through",
          "[csv][memory]") {
    if (!pfa::availableMemoryBytes()) PFA_SKIP_TEST("/proc/meminfo has no readable MemAvailable");
    CHECK(*pfa::availableMemoryBytes() > 0);
    REQUIRE_NOTHROW(pfa::checkInputFitsMemory(1000, "small.csv"));
}

// -------------------------------------------------------------------------------------------
// Group sizes

TEST_CASE("checkGroupSizes names the smallest group, its size and the minimum", "[checks]") {
    Schema s = basicSchema();
    std::string text = "x,g,y\n";
    for (int i = 0; i < 10; ++i) text += std::to_string(i) + ",big,yes\n";
    for (int i = 0; i < 3; ++i) text += std::to_string(i) + ",small,no\n";
    const auto d = readText(text, s);
    REQUIRE_NOTHROW(pfa::checkGroupSizes(d, 3));
    REQUIRE_THROWS_AS(pfa::checkGroupSizes(d, 4), pfa::InputError);
    REQUIRE_THROWS_WITH(pfa::checkGroupSizes(d, 4),
                        Contains("the sensitive group 'small' (g) has only 3 rows; every group "
                                 "needs at least 4 rows"));
    TabularData empty = d;
    empty.group.assign(empty.group.size(), 0);  // group 1 has no row left
    REQUIRE_THROWS_WITH(pfa::checkGroupSizes(empty, 1), Contains("'small' (g) has only 0 rows"));
}

// -------------------------------------------------------------------------------------------
// Every bad input has its own clear message.

TEST_CASE("bad inputs: one specific message each", "[csv][errors]") {
    const Schema s = basicSchema();
    REQUIRE_THROWS_WITH(readText("", s), Contains("t.csv: the file is empty"));
    REQUIRE_THROWS_WITH(readText(std::string("\x7F"
                                             "ELF\x02\x01\x01\0\0",
                                             9),
                                 s),
                        Contains("does not look like a text file"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,b\n", s),
                        Contains("t.csv:3: expected 3 fields, found 2"));
    Schema n = basicSchema();
    n.columns["x"].role = ColumnRole::Numeric;
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\nabc,b,no\n", n),
                        Contains("t.csv:3 (column 'x'): value 'abc' is not a number"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,no\n2,b,no\n", s),
                        Contains("the target has only one class"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,a,no\n", s),
                        Contains("the sensitive column has only one group"));
    std::string many = "x,g,y\n";
    for (int i = 0; i < 65; ++i) many += "1,g" + std::to_string(i) + (i % 2 ? ",yes\n" : ",no\n");
    REQUIRE_THROWS_WITH(readText(many, s), Contains("more than 64 sensitive groups"));
    pfa::ReadOptions small;
    small.memoryLimitBytes = 10;
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,b,no\n", s, small),
                        Contains("of memory is available"));
}

// -------------------------------------------------------------------------------------------
// Real files (skipped when absent)

TEST_CASE("COMPAS with ProPublica's filter keeps 6172 rows",
          "[csv][filters][datasets][needs-data]") {
    const std::string path = pfa::test::sharedDatasetPath("compas/compas-scores-two-years.csv");
    if (path.empty())
        PFA_SKIP_TEST(pfa::test::missingDatasetReason("compas/compas-scores-two-years.csv"));
    // Only a few features are used: every other column (many with empty cells) is ignored,
    // including the filter columns, which are read just for filtering.
    const std::vector<std::string> used = {
        "age", "sex", "age_cat", "priors_count", "c_charge_degree", "race", "two_year_recid"};
    const pfa::FilePreview preview = pfa::previewFile(path, 5);
    REQUIRE(preview.hasHeader);
    REQUIRE(preview.columns.size() == 53);
    Schema s;
    s.target = "two_year_recid";
    s.positiveValues = {"1"};
    s.sensitive = {"race"};
    bool renamed = false;
    for (const auto& c : preview.columns) {
        renamed = renamed || c.name == "decile_score.1";
        if (std::find(used.begin(), used.end(), c.name) == used.end())
            s.columns[c.name].role = ColumnRole::Ignore;
    }
    CHECK(renamed);  // duplicate header names are renamed pandas-style
    s.rowFilters = {{"days_b_screening_arrest", FilterOp::AbsLessEqual, "30"},
                    {"is_recid", FilterOp::NotEqual, "-1"},
                    {"c_charge_degree", FilterOp::NotEqual, "O"},
                    {"score_text", FilterOp::NotEqual, "N/A"}};
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = pfa::readDelimitedFile(path, s, opt);
    CHECK(d.rows() == 6172);
    CHECK(stats.files[0].records == 7214);
    CHECK(stats.files[0].droppedFiltered == 7214 - 6172);
    CHECK(stats.files[0].droppedMissing == 0);
    CHECK(d.groupNames.size() == 6);
    CHECK(std::count(d.label.begin(), d.label.end(), 1) == 2809);
    CHECK(d.features.size() == 5);
}

TEST_CASE("Parkinsons total_UPDRS > 27.576 gives 2934 / 2941 rows",
          "[csv][threshold][datasets][needs-data]") {
    const std::string path =
        pfa::test::sharedDatasetPath("parkinsons-telemonitoring/parkinsons_updrs.data");
    if (path.empty())
        PFA_SKIP_TEST(
            pfa::test::missingDatasetReason("parkinsons-telemonitoring/parkinsons_updrs.data"));
    Schema s;
    s.target = "total_UPDRS";
    s.targetThreshold = 27.576;
    s.sensitive = {"sex"};
    s.columns["motor_UPDRS"].role = ColumnRole::Ignore;  // a near-copy of the target
    s.columns["subject#"].role = ColumnRole::Ignore;
    const auto d = pfa::readDelimitedFile(path, s);
    REQUIRE(d.rows() == 5875);
    const auto positives = std::count(d.label.begin(), d.label.end(), 1);
    CHECK(positives == 2934);
    CHECK(static_cast<long>(d.rows()) - positives == 2941);
    CHECK(d.classNames == std::vector<std::string>{"\u2264 27.576", "> 27.576"});
    CHECK(d.groupNames == std::vector<std::string>{"0", "1"});
}

TEST_CASE("German credit: age >= 25 as a thresholded sensitive attribute",
          "[csv][threshold][datasets][needs-data]") {
    const std::string path = pfa::test::sharedDatasetPath("german-credit/german.data");
    if (path.empty()) PFA_SKIP_TEST(pfa::test::missingDatasetReason("german-credit/german.data"));
    Schema s;
    s.delimiter = ' ';
    s.hasHeader = false;
    for (int i = 1; i <= 20; ++i) s.columnNames.push_back("A" + std::to_string(i));
    s.columnNames.push_back("credit");
    s.target = "credit";
    s.positiveValues = {"1"};
    s.negativeClassName = "bad";
    s.positiveClassName = "good";
    s.sensitive = {"A13"};  // age in years
    s.sensitiveThreshold = 25;
    s.sensitiveThresholdLabels = {"young", "aged"};
    const auto d = pfa::readDelimitedFile(path, s);
    REQUIRE(d.rows() == 1000);
    CHECK(d.groupNames == std::vector<std::string>{"aged", "young"});
    CHECK(std::count(d.group.begin(), d.group.end(), 0) == 851);  // 149 are younger than 25
    CHECK(std::count(d.label.begin(), d.label.end(), 1) == 700);
}

}  // namespace core_schema_extensions_test
