// Tests of the ARFF reader (core/data/arff_reader.h). Every input is written here (a small,
// invented German-credit-like file among them); nothing is read from outside the test.

#include "core/data/arff_reader.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/data/schema.h"
#include "core/util/error.h"
#include "temp_file.h"

namespace core_arff_reader_test {

using Catch::Contains;
using pfa::ColumnRole;
using pfa::FeatureKind;
using pfa::MissingPolicy;
using pfa::Schema;
using pfa::TabularData;
using pfa::test::TempFile;

namespace {

/// An invented German-credit-like file: the layout of Weka's credit-g.arff (nominal codes,
/// numeric amounts, personal_status holding sex), with made-up rows.
const std::string kCredit =
    "% German-credit-like data, invented for this test\n"
    "@relation credit-like\n"
    "\n"
    "@attribute checking_status {'<0','0<=X<200','>=200','no checking'}\n"
    "@attribute duration numeric\n"
    "@attribute purpose {'new car','used car',furniture/equipment,radio/tv,education}\n"
    "@attribute credit_amount real\n"
    "@attribute personal_status {'male single','female div/dep/mar','male mar/wid'}\n"
    "@attribute age integer\n"
    "@attribute class {good,bad}\n"
    "\n"
    "@data\n"
    "'<0',6,radio/tv,1200,'male single',60,good\n"
    "'0<=X<200',48,radio/tv,6000,'female div/dep/mar',22,bad\n"
    "'no checking',12,education,2100,'male single',49,good\n"
    "'<0',42,furniture/equipment,7900,'male single',45,good\n"
    "'<0',24,'new car',4900,'male single',53,bad\n"
    "'no checking',36,education,9100,'male single',35,good\n"
    "'no checking',24,furniture/equipment,2800,'male single',53,good\n"
    "'0<=X<200',36,'used car',6900,'male single',35,good\n"
    "'no checking',12,radio/tv,3100,'male mar/wid',61,good\n"
    "'0<=X<200',30,'new car',5200,'male mar/wid',28,bad\n"
    "'0<=X<200',12,'new car',1300,'female div/dep/mar',25,bad\n"
    "'<0',48,education,4300,'female div/dep/mar',24,bad\n";

Schema creditSchema() {
    Schema s;
    s.target = "class";
    s.positiveValues = {"good"};
    s.sensitive = {"personal_status"};
    s.sensitiveValueLabels = {
        {"male single", "male"}, {"male mar/wid", "male"}, {"female div/dep/mar", "female"}};
    return s;
}

TabularData readText(const std::string& text, const Schema& s, const pfa::ReadOptions& o = {}) {
    return pfa::readArffText(text, "t.arff", s, o);
}

const pfa::FeatureColumn& feature(const TabularData& d, const std::string& name) {
    for (const auto& f : d.features)
        if (f.name == name) return f;
    FAIL("no feature " << name);
    throw std::logic_error("unreachable");
}

/// Header with attributes x (numeric), c {lo, hi}, g {a, b}, y {yes, no}, then `rows`.
std::string small(const std::string& rows) {
    return "@relation r\n@attribute x numeric\n@attribute c {lo,hi}\n@attribute g {a,b}\n"
           "@attribute y {yes,no}\n@data\n" +
           rows;
}

Schema smallSchema() {
    Schema s;
    s.target = "y";
    s.positiveValues = {"yes"};
    s.sensitive = {"g"};
    return s;
}

}  // namespace

// -------------------------------------------------------------------------------------------
// Parsing

TEST_CASE("arff: German-credit-like file", "[arff]") {
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = readText(kCredit, creditSchema(), opt);
    REQUIRE(d.rows() == 12);
    CHECK(d.name == "t");
    CHECK(d.classNames == std::vector<std::string>{"not good", "good"});
    CHECK(std::count(d.label.begin(), d.label.end(), 1) == 7);
    CHECK(d.groupNames == std::vector<std::string>{"female", "male"});
    CHECK(d.sensitiveDescription == "personal_status");
    REQUIRE(d.features.size() == 5);

    // Nominal attributes: declared levels in header order, every one of them, even unused.
    const auto& checking = feature(d, "checking_status");
    CHECK(checking.kind == FeatureKind::Categorical);
    CHECK(checking.levelsDeclared);
    CHECK(checking.levels ==
          std::vector<std::string>{"<0", "0<=X<200", ">=200", "no checking"});  // not sorted
    CHECK(checking.codes[0] == 0);
    CHECK(checking.codes[1] == 1);
    CHECK(checking.codes[2] == 3);
    const auto& purpose = feature(d, "purpose");
    CHECK(purpose.levels == std::vector<std::string>{"new car", "used car", "furniture/equipment",
                                                     "radio/tv", "education"});
    // numeric, real and integer are numeric features.
    CHECK(feature(d, "duration").kind == FeatureKind::Numeric);
    CHECK(feature(d, "credit_amount").numeric[1] == 6000.0);
    CHECK(feature(d, "age").numeric.front() == 60.0);

    REQUIRE(stats.files.size() == 1);
    CHECK(stats.files[0].records == 12);
    CHECK(stats.files[0].kept == 12);
    CHECK(stats.files[0].delimiter == ',');
}

TEST_CASE("arff: quoting, escapes, comments, keyword case, blank lines", "[arff]") {
    const std::string text =
        "%% leading comment\n"
        "\n"
        "  @RELATION 'my data' % the name is quoted\n"
        "@Attribute 'first name' STRING\n"
        "@ATTRIBUTE \"the \\\"size\\\"\" {\"x small\", 'large' , medium}\n"
        "@attribute g{a,b}\n"  // no space before the list
        "@attribute y {yes,no}\n"
        "@attribute note string\n"
        "@DaTa\n"
        "% a comment among the rows\n"
        "'Ann \\'A\\'',\"x small\",a,yes,'50% off'\n"
        "\"Bob, Jr.\",large,b,no,plain % trailing comment\n"
        "\n"
        "  'tab\\there' , medium , a , no , \"back\\\\slash\"\n";
    Schema s = smallSchema();
    const auto d = readText(text, s);
    REQUIRE(d.rows() == 3);
    const auto& name = feature(d, "first name");
    CHECK(name.kind == FeatureKind::Categorical);
    CHECK_FALSE(name.levelsDeclared);  // string attribute: levels from the data, sorted
    CHECK(name.levels == std::vector<std::string>{"Ann 'A'", "Bob, Jr.", "tab\there"});
    const auto& size = feature(d, "the \"size\"");
    CHECK(size.levels == std::vector<std::string>{"x small", "large", "medium"});
    CHECK(size.codes == std::vector<int>{0, 1, 2});
    CHECK(feature(d, "note").levels == std::vector<std::string>{"50% off", "back\\slash", "plain"});
}

TEST_CASE("arff: missing values", "[arff]") {
    const std::string text =
        small("1,lo,a,yes\n?,hi,b,no\n3, ? ,a,no\n4,hi,b,?\n5,lo,?,yes\n6,hi,b,no\n");
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = readText(text, smallSchema(), opt);
    CHECK(feature(d, "x").numeric == std::vector<double>{1, 6});
    CHECK(stats.files[0].droppedMissing == 4);

    Schema e = smallSchema();
    e.missingPolicy = MissingPolicy::Error;
    REQUIRE_THROWS_WITH(readText(text, e),
                        Contains("t.arff:8 (column 'x'): missing value (empty cell)"));
    // A quoted '?' is a value, not a missing marker.
    const auto q = readText(
        "@relation r\n@attribute s string\n@attribute g {a,b}\n@attribute y {yes,no}\n@data\n"
        "'?',a,yes\nok,b,no\n",
        smallSchema());
    CHECK(feature(q, "s").levels == std::vector<std::string>{"?", "ok"});
    // The schema's own missing token applies too.
    Schema na = smallSchema();
    na.missingToken = "NA";
    CHECK(readText(small("NA,lo,a,no\n2,hi,b,yes\n3,lo,a,no\n"), na).rows() == 2);
}

TEST_CASE("arff: the schema applies as for CSV, layout fields are ignored", "[arff]") {
    Schema s = smallSchema();
    s.hasHeader = false;  // ignored: the header defines the columns
    s.delimiter = ';';
    s.commentPrefix = "#";
    s.columns["c"].role = ColumnRole::Ignore;
    s.rowFilters = {{"c", pfa::FilterOp::NotEqual, "hi"}};
    s.name = "custom";
    const auto d = readText(small("1,lo,a,yes\n2,hi,b,no\n3,lo,b,no\n4,lo,a,no\n"), s);
    CHECK(d.name == "custom");
    CHECK(d.rows() == 3);
    CHECK(d.features.size() == 1);

    // Overrides: a Categorical role without levels keeps the nominal levels; Numeric reads
    // a nominal {0,1} as numbers.
    Schema o;
    o.target = "y";
    o.targetThreshold = 0.5;
    o.sensitive = {"age"};
    o.sensitiveThreshold = 25;
    o.columns["c"].role = ColumnRole::Categorical;
    o.columns["flag"].role = ColumnRole::Numeric;
    o.columns["x"].role = ColumnRole::Categorical;
    const auto e = readText(
        "@relation r\n@attribute x numeric\n@attribute c {lo,hi}\n@attribute flag {0,1}\n"
        "@attribute age numeric\n@attribute y numeric\n@data\n"
        "1,lo,0,19,0.2\n2,hi,1,30,0.9\n1,hi,1,44,0.7\n",
        o);
    CHECK(feature(e, "c").levels == std::vector<std::string>{"lo", "hi"});
    CHECK(feature(e, "c").levelsDeclared);
    CHECK(feature(e, "flag").kind == FeatureKind::Numeric);
    CHECK(feature(e, "x").kind == FeatureKind::Categorical);
    CHECK(e.label == std::vector<int>{0, 1, 1});
    CHECK(e.groupNames == std::vector<std::string>{"age < 25", "age \u2265 25"});
    CHECK(e.classNames == std::vector<std::string>{"\u2264 0.5", "> 0.5"});

    // Schema::defaultRole: unlisted columns follow it; Categorical keeps nominal levels.
    Schema c = smallSchema();
    c.defaultRole = ColumnRole::Categorical;
    const auto f = readText(small("1,lo,a,yes\n2,hi,b,no\n"), c);
    CHECK(feature(f, "c").levels == std::vector<std::string>{"lo", "hi"});
    CHECK(feature(f, "c").levelsDeclared);
    CHECK(feature(f, "x").kind == FeatureKind::Categorical);
    c.defaultRole = ColumnRole::Ignore;
    c.columns["x"].role = ColumnRole::Numeric;
    const auto g = readText(small("1,lo,a,yes\n2,hi,b,no\n"), c);
    REQUIRE(g.features.size() == 1);
    CHECK(g.features[0].name == "x");
}

TEST_CASE("arff: files, statistics and progress", "[arff]") {
    TempFile f(kCredit, ".arff");
    const auto d = pfa::readArffFile(f.path(), creditSchema());
    CHECK(d.rows() == 12);
    CHECK(d.name == std::filesystem::path(f.path()).stem().string());
    REQUIRE_THROWS_WITH(pfa::readArffFile(f.path() + ".nope", creditSchema()),
                        Contains(".nope: file not found"));
    REQUIRE_THROWS_WITH(
        pfa::readArffFile(std::filesystem::temp_directory_path().string(), creditSchema()),
        Contains("is a directory"));

    std::string big = small("");
    for (int i = 0; i < 10000; ++i)
        big += std::to_string(i) + (i % 2 ? ",lo,a,yes\n" : ",hi,b,no\n");
    std::vector<double> fractions;
    pfa::ReadOptions opt;
    opt.progress = [&](double x) {
        fractions.push_back(x);
        return false;
    };
    CHECK(readText(big, smallSchema(), opt).rows() == 10000);
    REQUIRE(fractions.size() >= 2);
    CHECK(std::is_sorted(fractions.begin(), fractions.end()));
    CHECK(fractions.back() == 1.0);
    opt.progress = [](double) { return true; };
    CHECK_THROWS_AS(readText(big, smallSchema(), opt), pfa::ReadCancelled);

    pfa::ReadOptions tiny;
    tiny.memoryLimitBytes = 100;
    REQUIRE_THROWS_WITH(pfa::readArffFile(f.path(), creditSchema(), tiny),
                        Contains("of memory is available"));
}

// -------------------------------------------------------------------------------------------
// Errors: each names the file, and the line and column where they apply.

TEST_CASE("arff errors: unsupported features", "[arff][errors]") {
    const Schema s = smallSchema();
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute when date 'yyyy-MM-dd'\n@data\n", s),
                        Contains("t.arff:2 (column 'when'): date attributes are not supported"));
    REQUIRE_THROWS_WITH(
        readText("@relation r\n@attribute bag relational\n@data\n", s),
        Contains("t.arff:2 (column 'bag'): relational attributes are not supported"));
    REQUIRE_THROWS_WITH(readText(small("{0 1, 2 a, 3 yes}\n"), s),
                        Contains("t.arff:7: sparse ARFF is not supported"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes,{2}\n"), s),
                        Contains("instance weights") && Contains("not supported"));
}

TEST_CASE("arff errors: malformed header", "[arff][errors]") {
    const Schema s = smallSchema();
    REQUIRE_THROWS_WITH(readText("", s), Contains("t.arff: the file is empty"));
    REQUIRE_THROWS_WITH(readText("% only a comment\n\n", s),
                        Contains("not an ARFF file: no '@relation' line"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n", s),
                        Contains("t.arff:1: not an ARFF file: the first line must be "
                                 "'@relation <name>'"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute x frobnicate\n@data\n", s),
                        Contains("t.arff:2 (column 'x'): unknown attribute type 'frobnicate'"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute x\n@data\n", s),
                        Contains("(column 'x'): the attribute has no type"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute 'x numeric\n@data\n", s),
                        Contains("t.arff:2: unterminated quoted value"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute c {a,b\n@data\n", s),
                        Contains("t.arff:2 (column 'c'): unterminated list of nominal values"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute c {}\n@data\n", s),
                        Contains("the list of nominal values is empty"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute c {a,,b}\n@data\n", s),
                        Contains("a nominal value is empty"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute c {a,b,a}\n@data\n", s),
                        Contains("the nominal value 'a' is declared twice"));
    REQUIRE_THROWS_WITH(
        readText("@relation r\n@attribute x numeric\n@attribute x real\n@data\n", s),
        Contains("t.arff:3 (column 'x'): the attribute is declared twice"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute x numeric extra\n@data\n", s),
                        Contains("unexpected text after the attribute type"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@data\n1\n", s),
                        Contains("t.arff:2: @data before any @attribute"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute x numeric\n", s),
                        Contains("the ARFF header has no @data line"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@attribute x numeric\nbogus\n", s),
                        Contains("t.arff:3: expected @attribute or @data, found 'bogus'"));
    REQUIRE_THROWS_WITH(readText("@relation r\n@relation q\n", s), Contains("a second @relation"));
}

TEST_CASE("arff errors: bad rows and values", "[arff][errors]") {
    const Schema s = smallSchema();
    REQUIRE_THROWS_WITH(readText(small(""), s),
                        Contains("t.arff: the file has no data rows after @data"));
    REQUIRE_THROWS_WITH(readText(small("% nothing\n\n"), s), Contains("no data rows"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\n2,hi,b\n"), s),
                        Contains("t.arff:8: expected 4 values (one per @attribute), found 3"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\n2,medium,b,no\n"), s),
                        Contains("t.arff:8 (column 'c'): value 'medium' is not one of the values "
                                 "declared for this nominal attribute: 'lo', 'hi'"));
    // Nominal values are checked for every column, also the target and sensitive ones.
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,maybe\n"), s),
                        Contains("(column 'y'): value 'maybe'"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\nten,hi,b,no\n"), s),
                        Contains("t.arff:8 (column 'x'): value 'ten' is not a number"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\n2,'hi,b,no\n"), s),
                        Contains("t.arff:8 (column 'c'): unterminated quoted value"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,'a'b,yes\n"), s),
                        Contains("(column 'g'): unexpected text after a closing quote"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,no\n2,hi,b,no\n"), s),
                        Contains("(column 'y'): the target has only one class"));
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\n2,hi,a,no\n"), s),
                        Contains("(column 'g'): the sensitive column has only one group ('a')"));
    std::string nul = small("1,lo,a,yes\n");
    nul += '\0';
    REQUIRE_THROWS_WITH(readText(nul, s), Contains("does not look like a text file"));

    Schema unknown = smallSchema();
    unknown.target = "income";
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\n"), unknown),
                        Contains("t.arff (column 'income'): unknown column named in "
                                 "Schema.target") &&
                            Contains("'x', 'c', 'g', 'y'"));
    Schema bad = smallSchema();
    bad.sensitive.clear();
    REQUIRE_THROWS_WITH(readText(small("1,lo,a,yes\n"), bad),
                        Contains("Schema.sensitive: at least one sensitive column is required"));
}

}  // namespace core_arff_reader_test
