// Tests of the delimited-file reader (core/data/csv_reader.h) and Schema::validate().
// Every input is generated here, in memory or as a temporary file.

#include "core/data/csv_reader.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/data/schema.h"
#include "core/util/error.h"
#include "temp_file.h"

namespace core_csv_reader_test {

using Catch::Contains;
using pfa::ColumnRole;
using pfa::FeatureKind;
using pfa::MissingPolicy;
using pfa::Schema;
using pfa::TabularData;
using pfa::test::TempFile;

namespace {

/// Header-based schema: target y (positive "yes"), sensitive g.
Schema basicSchema() {
    Schema s;
    s.target = "y";
    s.positiveValues = {"yes"};
    s.sensitive = {"g"};
    return s;
}

TabularData readText(const std::string& text, const Schema& s = basicSchema(),
                     const pfa::ReadOptions& o = {}) {
    return pfa::readDelimitedText(text, "t.csv", s, o);
}

const pfa::FeatureColumn& feature(const TabularData& d, const std::string& name) {
    for (const auto& f : d.features)
        if (f.name == name) return f;
    FAIL("no feature " << name);
    throw std::logic_error("unreachable");
}

bool hasFeature(const TabularData& d, const std::string& name) {
    return std::any_of(d.features.begin(), d.features.end(),
                       [&](const auto& f) { return f.name == name; });
}

}  // namespace

// -------------------------------------------------------------------------------------------
// Parsing

TEST_CASE("csv: basic file with header, auto types, binary target, one sensitive column", "[csv]") {
    const auto d = readText("x,c,g,y\n1.5,red,a,yes\n-2,blue,b,no\n+3,red,a,no\n");
    CHECK(d.name == "t");
    REQUIRE(d.rows() == 3);
    CHECK(d.label == std::vector<int>{1, 0, 0});
    CHECK(d.classNames == std::vector<std::string>{"not yes", "yes"});
    CHECK(d.groupNames == std::vector<std::string>{"a", "b"});
    CHECK(d.group == std::vector<int>{0, 1, 0});
    CHECK(d.sensitiveDescription == "g");
    CHECK(d.userId.empty());
    REQUIRE(d.features.size() == 2);  // target and sensitive are not features
    const auto& x = d.features[0];
    CHECK(x.name == "x");
    CHECK(x.kind == FeatureKind::Numeric);
    CHECK(x.numeric == std::vector<double>{1.5, -2.0, 3.0});
    const auto& c = d.features[1];
    CHECK(c.name == "c");
    CHECK(c.kind == FeatureKind::Categorical);
    CHECK_FALSE(c.levelsDeclared);
    CHECK(c.levels == std::vector<std::string>{"blue", "red"});  // sorted
    CHECK(c.codes == std::vector<int>{1, 0, 1});
}

TEST_CASE("csv: RFC 4180 quoting", "[csv]") {
    const std::string text =
        "name,note,g,y\n"
        "\"Smith, John\",\"said \"\"hi\"\"\",a,yes\n"
        "\"multi\nline\",\"x\",b,no\n"
        "plain,\"\",a,no\n";  // "" is an empty (missing) cell -> dropped under DropRow
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = readText(text, basicSchema(), opt);
    REQUIRE(d.rows() == 2);
    const auto& name = feature(d, "name");
    REQUIRE(name.kind == FeatureKind::Categorical);
    CHECK(name.levels == std::vector<std::string>{"Smith, John", "multi\nline"});
    CHECK(feature(d, "note").levels == std::vector<std::string>{"said \"hi\"", "x"});
    REQUIRE(stats.files.size() == 1);
    CHECK(stats.files[0].droppedMissing == 1);
    CHECK(stats.files[0].records == 3);
    CHECK(stats.files[0].kept == 2);
    CHECK(stats.files[0].delimiter == ',');
}

TEST_CASE("csv: quoted fields keep whitespace, unquoted ones are trimmed", "[csv]") {
    const auto d = readText("a , b,g,y\n  \"  padded \" , x ,a,yes\nq,  x,b,no\n");
    REQUIRE(d.features.size() == 2);
    CHECK(d.features[0].name == "a");
    CHECK(d.features[1].name == "b");
    CHECK(d.features[0].levels == std::vector<std::string>{"  padded ", "q"});
    CHECK(d.features[1].levels == std::vector<std::string>{"x"});

    Schema noTrim = basicSchema();
    noTrim.trimWhitespace = false;
    const auto e = readText("a,g,y\n x ,a,yes\nx,b,no\n", noTrim);
    CHECK(e.features[0].levels == std::vector<std::string>{" x ", "x"});
}

TEST_CASE("csv: line numbers count physical lines across multi-line fields", "[csv]") {
    // Record 1 spans lines 2-4; the bad number sits on line 5.
    Schema s = basicSchema();
    s.columns["x"].role = ColumnRole::Numeric;
    REQUIRE_THROWS_WITH(readText("x,n,g,y\n1,\"a\nb\nc\",a,yes\nbad,n,b,no\n", s),
                        Contains("t.csv:5 (column 'x')") && Contains("'bad' is not a number"));
}

TEST_CASE("csv: CRLF, CR-only line ends, BOM, blank and trailing lines", "[csv]") {
    for (const std::string& eol : {std::string("\r\n"), std::string("\r"), std::string("\n")}) {
        std::string text = "\xEF\xBB\xBFx,g,y" + eol + "1,a,yes" + eol + eol + "2,b,no" + eol +
                           "\"q" + eol + "r\",a,no" + eol + eol + eol;
        Schema s = basicSchema();
        s.columns["x"].role = ColumnRole::Categorical;
        const auto d = readText(text, s);
        REQUIRE(d.rows() == 3);
        CHECK(d.features[0].name == "x");  // the BOM is not part of the first name
        // An embedded line break is stored as "\n" whatever the file uses.
        CHECK(d.features[0].levels == std::vector<std::string>{"1", "2", "q\nr"});
    }
    // A CRLF pair is one line end: the error is on physical line 3, not 5.
    Schema s = basicSchema();
    s.columns["x"].role = ColumnRole::Numeric;
    REQUIRE_THROWS_WITH(readText("x,g,y\r\n1,a,yes\r\nz,b,no\r\n", s), Contains("t.csv:3"));
}

TEST_CASE("csv: the delimiter is auto-detected", "[csv]") {
    struct Case {
        char delim;
        std::string text;
    };
    const std::vector<Case> cases = {
        {',', "x,g,y\n1,a,yes\n2,b,no\n"},
        {';', "x;g;y\n1,5;a;yes\n2,5;b;no\n"},  // decimal commas do not fool it
        {'\t', "x\tg\ty\n1 a\ta\tyes\n2\tb\tno\n"},
        {'|', "x|g|y\n1|a|yes\n2|b|no\n"},
        {',', "x,g,y\n\"a;b;c;d\",a,yes\n2,b,no\n"},      // delimiters inside quotes do not count
        {',', "x,g,y\n\"a\"\";\"\"b\",a,yes\n2,b,no\n"},  // nor do those between doubled quotes
        {';', "h;g;y\n5'10\";a;yes\n6' 1\";b;no\n"},      // a quote inside a field is literal
    };
    for (const auto& c : cases) {
        pfa::ReadStats stats;
        pfa::ReadOptions opt;
        opt.stats = &stats;
        const auto d = readText(c.text, basicSchema(), opt);
        CHECK(d.rows() == 2);
        REQUIRE(stats.files.size() == 1);
        CHECK(stats.files[0].delimiter == c.delim);
    }
    // An explicit delimiter wins: with ';' this comma file has one field per line.
    Schema s = basicSchema();
    s.delimiter = ';';
    s.hasHeader = false;
    s.columnNames = {"x", "g", "y"};
    REQUIRE_THROWS_WITH(readText("1,a,yes\n", s),
                        Contains("expected 3 fields, found 1") && Contains("delimiter"));
}

TEST_CASE("csv: space-delimited file without header", "[csv]") {
    Schema s = basicSchema();
    s.delimiter = ' ';
    s.hasHeader = false;
    s.columnNames = {"code", "x", "g", "y"};
    const auto d = readText("A11 6 a yes\nA12 48 b no\n", s);
    REQUIRE(d.rows() == 2);
    CHECK(feature(d, "code").levels == std::vector<std::string>{"A11", "A12"});
    CHECK(feature(d, "x").numeric == std::vector<double>{6, 48});
}

TEST_CASE("csv: automatic column types", "[csv]") {
    const auto d = readText(
        "n,m,z,g,y\n"
        "1,1,007,a,yes\n"
        "2.5e3,x,8,b,no\n"
        "-0.25,2,9,a,no\n");
    const auto& n = feature(d, "n");
    REQUIRE(n.kind == FeatureKind::Numeric);
    CHECK(n.numeric == std::vector<double>{1.0, 2500.0, -0.25});
    const auto& m = feature(d, "m");  // one non-number makes the whole column categorical
    REQUIRE(m.kind == FeatureKind::Categorical);
    CHECK(m.levels == std::vector<std::string>{"1", "2", "x"});
    CHECK(m.codes == std::vector<int>{0, 2, 1});
    CHECK(m.numeric.empty());
    CHECK(feature(d, "z").kind == FeatureKind::Numeric);

    // In a column of numbers and texts every number is the level of its shortest form, before
    // and after the first text: "007", "7.0" and "7" are one level.
    const auto mixed = readText("c,g,y\n007,a,yes\n2.50,b,no\nx,a,no\n7.0,b,yes\n1e2,a,no\n");
    REQUIRE(mixed.features[0].kind == FeatureKind::Categorical);
    CHECK(mixed.features[0].levels == std::vector<std::string>{"100", "2.5", "7", "x"});
    CHECK(mixed.features[0].codes == std::vector<int>{2, 1, 3, 2, 0});

    // "inf" and "nan" are not finite numbers: the column becomes categorical.
    const auto e = readText("v,g,y\n1,a,yes\ninf,b,no\nnan,a,no\n");
    CHECK(e.features[0].kind == FeatureKind::Categorical);
    CHECK(e.features[0].levels == std::vector<std::string>{"1", "inf", "nan"});
}

TEST_CASE("csv: declared roles, declared levels, ignore and user id", "[csv]") {
    Schema s = basicSchema();
    s.columns["num"].role = ColumnRole::Categorical;  // numbers read as categories
    s.columns["lvl"].role = ColumnRole::Categorical;
    s.columns["lvl"].levels = {"low", "mid", "high", "unused"};
    s.columns["skip"].role = ColumnRole::Ignore;
    s.userId = "uid";
    const auto d = readText(
        "uid,num,lvl,skip,g,y\n"
        "u7,3,high,?,a,yes\n"
        "u2,1,low,,b,no\n"  // an empty cell in an ignored column does not drop the row
        "u7,3,mid,zz,a,no\n",
        s);
    REQUIRE(d.rows() == 3);
    REQUIRE(d.features.size() == 2);
    CHECK_FALSE(hasFeature(d, "skip"));
    CHECK_FALSE(hasFeature(d, "uid"));
    const auto& num = feature(d, "num");
    CHECK(num.kind == FeatureKind::Categorical);
    CHECK(num.levels == std::vector<std::string>{"1", "3"});
    const auto& lvl = feature(d, "lvl");
    CHECK(lvl.levelsDeclared);
    CHECK(lvl.levels == std::vector<std::string>{"low", "mid", "high", "unused"});  // as declared
    CHECK(lvl.codes == std::vector<int>{2, 0, 1});
    CHECK(d.userId == std::vector<int>{0, 1, 0});                // order of first appearance
    CHECK(d.userNames == std::vector<std::string>{"u7", "u2"});  // the column's values by id
}

TEST_CASE("csv: intersectional groups, names, labels and ids", "[csv]") {
    Schema s;
    s.target = "y";
    s.positiveValues = {"1"};
    s.sensitive = {"race", "sex"};
    s.sensitiveValueLabels = {{"sex=1", "male"}, {"sex=2", "female"}, {"B", "Black"}};
    const auto d = readText(
        "x,race,sex,y\n"
        "1,W,1,1\n"
        "2,B,2,0\n"
        "3,W,2,0\n"
        "4,B,1,1\n"
        "5,W,1,0\n",
        s);
    CHECK(d.sensitiveDescription == "race & sex");
    // Sorted by name: "Black & female" < "Black & male" < "W & female" < "W & male".
    CHECK(d.groupNames ==
          std::vector<std::string>{"Black & female", "Black & male", "W & female", "W & male"});
    CHECK(d.group == std::vector<int>{3, 0, 2, 1, 3});
    CHECK_FALSE(hasFeature(d, "race"));
    CHECK_FALSE(hasFeature(d, "sex"));
    CHECK(d.classNames == std::vector<std::string>{"not 1", "1"});

    // Labels can merge raw codes into one group (German credit: A91/A93/A94 are male).
    Schema m = basicSchema();
    m.sensitiveValueLabels = {{"A91", "male"}, {"A93", "male"}, {"A92", "female"}};
    const auto e = readText("x,g,y\n1,A91,yes\n2,A92,no\n3,A93,no\n", m);
    CHECK(e.groupNames == std::vector<std::string>{"female", "male"});
    CHECK(e.group == std::vector<int>{1, 0, 1});
}

TEST_CASE("csv: binary target with several positive values, suffixes and class names", "[csv]") {
    Schema s = basicSchema();
    s.positiveValues = {"yes", "y"};
    s.targetStripSuffixes = {"."};
    auto d = readText("x,g,y\n1,a,yes.\n2,b,no.\n3,a,y\n4,b,yes\n", s);
    CHECK(d.label == std::vector<int>{1, 0, 1, 1});
    CHECK(d.classNames == std::vector<std::string>{"not (yes or y)", "yes or y"});

    s.negativeClassName = "<=50K";
    s.positiveClassName = ">50K";
    d = readText("x,g,y\n1,a,yes\n2,b,no\n", s);
    CHECK(d.classNames == std::vector<std::string>{"<=50K", ">50K"});
}

TEST_CASE("csv: multi-class target", "[csv]") {
    Schema s = basicSchema();
    s.positiveValues.clear();
    s.targetStripSuffixes = {"."};
    const auto d = readText("x,g,y\n1,a,mid\n2,b,high.\n3,a,low\n4,b,mid\n", s);
    CHECK(d.classNames == std::vector<std::string>{"high", "low", "mid"});
    CHECK(d.label == std::vector<int>{2, 0, 1, 2});
}

TEST_CASE("csv: missing values, drop or error", "[csv]") {
    const std::string text =
        "x,c,g,y\n1,r,a,yes\n?,r,b,no\n3,,a,no\n4,s,?,yes\n5,s,b,?\n6,t,b,no\n";
    Schema s = basicSchema();
    s.missingToken = "?";
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = readText(text, s, opt);
    REQUIRE(d.rows() == 2);
    CHECK(feature(d, "x").numeric == std::vector<double>{1, 6});
    // Levels come only from kept rows.
    CHECK(feature(d, "c").levels == std::vector<std::string>{"r", "t"});
    CHECK(stats.files[0].droppedMissing == 4);

    s.missingPolicy = MissingPolicy::Error;
    REQUIRE_THROWS_WITH(readText(text, s), Contains("t.csv:3 (column 'x'): missing value ('?')"));
    // Empty cells are missing too.
    REQUIRE_THROWS_WITH(readText("x,c,g,y\n1,,a,yes\n", s),
                        Contains("t.csv:2 (column 'c'): missing value (empty cell)"));
    try {
        readText(text, s);
        FAIL("no exception");
    } catch (const pfa::DataFileError& e) {
        CHECK(e.file() == "t.csv");
        CHECK(e.line() == 3);
        CHECK(e.column() == "x");
    }
}

TEST_CASE("csv: comment lines and header rules", "[csv]") {
    Schema s = basicSchema();
    s.commentPrefix = "#";
    auto d = readText("# a comment\nx,g,y\n#another\n1,a,yes\n2,b,no\n# end\n", s);
    CHECK(d.rows() == 2);

    // Duplicate and empty header names get unique names.
    d = readText(",x,x,g,y\n1,2,3,a,yes\n4,5,6,b,no\n");
    REQUIRE(d.features.size() == 3);
    CHECK(d.features[0].name == "column 1");
    CHECK(d.features[1].name == "x");
    CHECK(d.features[2].name == "x.1");

    // With a header, Schema.columnNames must match it.
    s = basicSchema();
    s.columnNames = {"x", "g", "y"};
    d = readText("x,g,y\n1,a,yes\n2,b,no\n", s);
    CHECK(d.rows() == 2);
    REQUIRE_THROWS_WITH(
        readText("x,gg,y\n1,a,yes\n2,b,no\n", s),
        Contains("t.csv:1 (column 'column 2')") && Contains("found 'gg', expected 'g'"));
}

TEST_CASE("csv: several files are concatenated", "[csv]") {
    TempFile a("x,g,y\n1,a,yes\n2,b,no\n", ".csv");
    TempFile b("# second part\nx,g,y\n3,b,yes\n4,c,no\n5,a,no\n", ".csv");
    Schema s = basicSchema();
    s.commentPrefix = "#";
    pfa::ReadStats stats;
    pfa::ReadOptions opt;
    opt.stats = &stats;
    const auto d = pfa::readDelimitedFiles({a.path(), b.path()}, s, opt);
    REQUIRE(d.rows() == 5);
    CHECK(feature(d, "x").numeric == std::vector<double>{1, 2, 3, 4, 5});
    CHECK(d.groupNames == std::vector<std::string>{"a", "b", "c"});  // shared across files
    CHECK(d.group == std::vector<int>{0, 1, 1, 2, 0});
    REQUIRE(stats.files.size() == 2);
    CHECK(stats.files[0].kept == 2);
    CHECK(stats.files[1].kept == 3);
    CHECK(stats.files[1].file == b.path());

    TempFile c("x,h,y\n3,b,yes\n", ".csv");
    REQUIRE_THROWS_WITH(
        pfa::readDelimitedFiles({a.path(), c.path()}, s),
        Contains(c.path() + ":1 (column 'column 2')") && Contains("differs from the first file"));
    // A missing second file is reported before the first one is parsed.
    REQUIRE_THROWS_WITH(pfa::readDelimitedFiles({a.path(), a.path() + ".nope"}, s),
                        Contains(a.path() + ".nope: file not found"));

    // Single-file entry point, and the data set name from the file stem.
    const auto e = pfa::readDelimitedFile(a.path(), s);
    CHECK(e.rows() == 2);
    CHECK(e.name == std::filesystem::path(a.path()).stem().string());
}

TEST_CASE("csv: large input streams across chunk boundaries", "[csv]") {
    // ~1.5 MB with CRLF, quoted multi-line fields and quotes scattered over chunk borders.
    std::string text = "id,note,g,y\r\n";
    const int n = 40000;
    for (int i = 0; i < n; ++i) {
        text += std::to_string(i) + ",";
        if (i % 7 == 0)
            text += "\"line one\r\nline \"\"two\"\"\"";
        else
            text += "plain text number " + std::to_string(i % 13);
        text += i % 2 ? ",a," : ",b,";
        text += i % 3 ? "no" : "yes";
        text += "\r\n";
    }
    std::vector<double> fractions;
    pfa::ReadOptions opt;
    opt.progress = [&](double f) {
        fractions.push_back(f);
        return false;
    };
    const auto d = readText(text, basicSchema(), opt);
    REQUIRE(d.rows() == static_cast<std::size_t>(n));
    const auto& id = feature(d, "id");
    REQUIRE(id.kind == FeatureKind::Numeric);
    bool idsOk = true;
    for (int i = 0; i < n; ++i) idsOk = idsOk && id.numeric[static_cast<std::size_t>(i)] == i;
    CHECK(idsOk);
    const auto& note = feature(d, "note");
    CHECK(note.levels.size() == 14);
    CHECK(std::find(note.levels.begin(), note.levels.end(), "line one\nline \"two\"") !=
          note.levels.end());
    CHECK(std::count(d.label.begin(), d.label.end(), 1) == (n + 2) / 3);
    // Progress: several calls, non-decreasing, ending at 1.
    REQUIRE(fractions.size() >= 5);
    CHECK(std::is_sorted(fractions.begin(), fractions.end()));
    CHECK(fractions.back() == 1.0);
    CHECK(fractions.front() > 0.0);

    // Returning true cancels with ReadCancelled.
    int calls = 0;
    opt.progress = [&](double) { return ++calls == 2; };
    CHECK_THROWS_AS(readText(text, basicSchema(), opt), pfa::ReadCancelled);
    CHECK(calls == 2);
}

// -------------------------------------------------------------------------------------------
// Errors: every one names the file, and the line and column where they apply.

TEST_CASE("csv errors: unreadable files", "[csv][errors]") {
    const Schema s = basicSchema();
    REQUIRE_THROWS_WITH(pfa::readDelimitedFile("/nonexistent/dir/data.csv", s),
                        Contains("/nonexistent/dir/data.csv: file not found"));
    const std::string dir = std::filesystem::temp_directory_path().string();
    REQUIRE_THROWS_WITH(pfa::readDelimitedFile(dir, s), Contains("is a directory"));
    {
        TempFile empty("", ".csv");
        REQUIRE_THROWS_WITH(pfa::readDelimitedFile(empty.path(), s),
                            Contains(empty.path() + ": the file is empty"));
    }
    REQUIRE_THROWS_WITH(readText("", s), Contains("t.csv: the file is empty"));
    REQUIRE_THROWS_WITH(readText("\xEF\xBB\xBF", s), Contains("t.csv: the file is empty"));
    REQUIRE_THROWS_WITH(readText("\n\n  \n", s), Contains("no header and no data"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n\n", s),
                        Contains("t.csv: the file has a header but no data rows"));
    Schema noHeader = s;
    noHeader.hasHeader = false;
    noHeader.columnNames = {"x", "g", "y"};
    noHeader.commentPrefix = "|";
    REQUIRE_THROWS_WITH(readText("|just a comment\n", noHeader), Contains("no data rows"));
}

TEST_CASE("csv errors: binary garbage", "[csv][errors]") {
    const Schema s = basicSchema();
    std::string nul = "x,g,y\n1,a,yes\n2,b";
    nul += '\0';
    nul += "no\n";
    REQUIRE_THROWS_WITH(readText(nul, s),
                        Contains("t.csv:3") && Contains("does not look like a text file"));
    TempFile bin(std::string("\x7F"
                             "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
                             16),
                 ".bin");
    REQUIRE_THROWS_WITH(pfa::readDelimitedFile(bin.path(), s),
                        Contains("does not look like a text file"));
    // Latin-1 "é" (0xE9) is not valid UTF-8.
    REQUIRE_THROWS_WITH(readText("x,g,y\ncaf\xE9,a,yes\n", s),
                        Contains("t.csv:2") && Contains("invalid UTF-8") &&
                            Contains("does not look like a text file"));
    REQUIRE_THROWS_WITH(readText(std::string("\xFF\xFEx\0,\0", 6), s), Contains("UTF-16"));
    // Valid multi-byte UTF-8 is fine.
    const auto d = readText("x,g,y\ncafé,a,yes\n日本,b,no\n", s);
    CHECK(d.features[0].levels == std::vector<std::string>{"café", "日本"});
    // A NUL after the sniffed window is still caught, with its line.
    std::string late = "x,g,y\n";
    for (int i = 0; i < 20000; ++i) late += "1,a,yes\n2,b,no\n";
    late += "3,a";
    late += '\0';
    late += ",no\n";
    REQUIRE_THROWS_WITH(readText(late, s), Contains("t.csv:40002") && Contains("NUL byte"));
}

TEST_CASE("csv errors: malformed records", "[csv][errors]") {
    const Schema s = basicSchema();
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,b\n", s),
                        Contains("t.csv:3: expected 3 fields, found 2"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes,extra\n", s),
                        Contains("t.csv:2: expected 3 fields, found 4"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n\"open,b,no\n3,a,no\n", s),
                        Contains("t.csv:3 (column 'x'): unterminated quoted field"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,\"a\"b,yes\n", s),
                        Contains("t.csv:2 (column 'g'): unexpected text after a closing quote"));
    REQUIRE_THROWS_WITH(readText("x y z\n1 2 3\n", s), Contains("cannot detect the delimiter"));
}

TEST_CASE("csv errors: values that do not fit the schema", "[csv][errors]") {
    Schema s = basicSchema();
    s.columns["x"].role = ColumnRole::Numeric;
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,b,no\nabc,a,no\n", s),
                        Contains("t.csv:4 (column 'x'): value 'abc' is not a number") &&
                            Contains("declared numeric"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\ninf,b,no\n", s),
                        Contains("t.csv:3 (column 'x'): value 'inf' is not a finite number"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1e999,a,yes\n", s), Contains("not a finite number"));

    Schema l = basicSchema();
    l.columns["c"].role = ColumnRole::Categorical;
    l.columns["c"].levels = {"lo", "hi"};
    REQUIRE_THROWS_WITH(
        readText("c,g,y\nlo,a,yes\nmedium,b,no\n", l),
        Contains("t.csv:3 (column 'c'): unknown value 'medium'") && Contains("'lo', 'hi'"));
}

TEST_CASE("csv errors: unknown columns named in the schema", "[csv][errors]") {
    Schema s = basicSchema();
    s.target = "income";
    REQUIRE_THROWS_WITH(
        readText("x,g,y\n1,a,yes\n", s),
        Contains("t.csv:1 (column 'income'): unknown column named in Schema.target") &&
            Contains("'x', 'g', 'y'"));
    s = basicSchema();
    s.sensitive = {"g", "sex"};
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n", s),
                        Contains("(column 'sex'): unknown column named in Schema.sensitive"));
    s = basicSchema();
    s.columns["zz"].role = ColumnRole::Numeric;
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n", s),
                        Contains("(column 'zz'): unknown column named in Schema.columns"));
    s = basicSchema();
    s.userId = "uid";
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n", s),
                        Contains("(column 'uid'): unknown column named in Schema.userId"));
    // Without a header the names are known up front: Schema::validate() reports them.
    s = basicSchema();
    s.hasHeader = false;
    s.columnNames = {"x", "g", "label"};
    REQUIRE_THROWS_WITH(readText("1,a,yes\n", s), Contains("Schema.target: unknown column 'y'"));
}

TEST_CASE("csv errors: degenerate target and sensitive columns", "[csv][errors]") {
    Schema s = basicSchema();
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,no\n2,b,no\n", s),
                        Contains("(column 'y'): the target has only one class") &&
                            Contains("no row has the positive value 'yes'"));
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,b,yes\n", s),
                        Contains("every row has the positive value"));
    // Only one class left after dropping rows with missing values.
    s.missingToken = "?";
    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n?,b,no\n", s),
                        Contains("the target has only one class after filtering"));
    Schema m = basicSchema();
    m.positiveValues.clear();
    REQUIRE_THROWS_WITH(
        readText("x,g,y\n1,a,k\n2,b,k\n", m),
        Contains("(column 'y'): the target has only one class after filtering ('k')"));

    REQUIRE_THROWS_WITH(readText("x,g,y\n1,a,yes\n2,a,no\n", basicSchema()),
                        Contains("(column 'g'): the sensitive column has only one group ('a')"));
    Schema two = basicSchema();
    two.sensitive = {"g", "h"};
    REQUIRE_THROWS_WITH(readText("x,g,h,y\n1,a,u,yes\n2,b,u,no\n", two),
                        Contains("(column 'h'): the sensitive column has only one group ('u')"));

    std::string many = "x,g,y\n";
    for (int i = 0; i < 64; ++i) many += std::to_string(i) + ",g" + std::to_string(i) + ",yes\n";
    many += "0,g0,no\n";
    CHECK(readText(many).groupNames.size() == 64);  // 64 groups are allowed
    many += "65,g64,no\n";                          // line 67 brings the 65th
    REQUIRE_THROWS_WITH(readText(many),
                        Contains("t.csv:67 (column 'g'): more than 64 sensitive groups"));

    Schema drop = basicSchema();
    drop.missingToken = "?";
    REQUIRE_THROWS_WITH(readText("x,g,y\n?,a,yes\n1,?,no\n", drop),
                        Contains("t.csv: no data rows left: all 2 records have a missing value"));
}

TEST_CASE("schema: validate names the offending field", "[csv][schema]") {
    auto expectInvalid = [](const Schema& s, const std::string& text) {
        REQUIRE_THROWS_AS(s.validate(), pfa::InputError);
        REQUIRE_THROWS_WITH(s.validate(), Contains(text));
        // The reader validates before touching the input.
        REQUIRE_THROWS_WITH(pfa::readDelimitedText("x,g,y\n1,a,yes\n", "t.csv", s), Contains(text));
    };
    REQUIRE_NOTHROW(basicSchema().validate());

    Schema s = basicSchema();
    s.target = "";
    expectInvalid(s, "Schema.target: the target column name is empty");
    s = basicSchema();
    s.sensitive.clear();
    expectInvalid(s, "Schema.sensitive: at least one sensitive column is required");
    s = basicSchema();
    s.sensitive = {"g", "y"};
    expectInvalid(s, "Schema.sensitive: 'y' is also the target");
    s = basicSchema();
    s.sensitive = {"g", "g"};
    expectInvalid(s, "Schema.sensitive: 'g' is listed twice");
    s = basicSchema();
    s.userId = "g";
    expectInvalid(s, "Schema.userId: 'g' is also a sensitive column");
    s = basicSchema();
    s.userId = "y";
    expectInvalid(s, "Schema.userId: 'y' is also the target");
    s = basicSchema();
    s.hasHeader = false;
    expectInvalid(s, "Schema.columnNames: required when the file has no header");
    s = basicSchema();
    s.columnNames = {"x", "x"};
    expectInvalid(s, "Schema.columnNames: column 'x' is listed twice");
    s = basicSchema();
    s.columns["y"].role = ColumnRole::Numeric;
    expectInvalid(s, "Schema.columns['y']: 'y' is the target");
    s = basicSchema();
    s.columns["g"].role = ColumnRole::Ignore;
    expectInvalid(s, "Schema.columns['g']: 'g' is a sensitive column");
    s = basicSchema();
    s.columns["x"].role = ColumnRole::Numeric;
    s.columns["x"].levels = {"a"};
    expectInvalid(s, "Schema.columns['x']: levels can only be declared for a categorical column");
    s = basicSchema();
    s.columns["x"].role = ColumnRole::Categorical;
    s.columns["x"].levels = {"a", "a"};
    expectInvalid(s, "Schema.columns['x']: the level 'a' is declared twice");
    s = basicSchema();
    s.positiveValues = {""};
    expectInvalid(s, "Schema.positiveValues: a positive value is empty");
    s = basicSchema();
    s.positiveValues.clear();
    s.positiveClassName = "pos";
    expectInvalid(s, "Schema.positiveClassName: class names can only be set for a binary target");
    s = basicSchema();
    s.delimiter = '"';
    expectInvalid(s, "Schema.delimiter");
    s = basicSchema();
    s.sensitiveValueLabels = {{"a", "x & y"}};
    expectInvalid(s, "Schema.sensitiveValueLabels");
}

}  // namespace core_csv_reader_test
