// Tests of the import-wizard preview (core/data/file_preview.h) on generated files.

#include "core/data/file_preview.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/util/error.h"
#include "temp_file.h"

namespace core_file_preview_test {

using Catch::Contains;
using pfa::FeatureKind;
using pfa::FileFormat;
using pfa::FilePreview;
using pfa::test::TempFile;

namespace {

FilePreview preview(const std::string& text, std::size_t maxRows = 20) {
    return pfa::previewText(text, "p.csv", maxRows);
}

}  // namespace

TEST_CASE("preview: CSV with a header, kinds, distinct values, missing counts", "[preview]") {
    const auto p = preview(
        "age,sex,income,note\n"
        "39,Male,<=50K,\n"
        "50,Female,>50K,x\n"
        "38,Male,<=50K,?\n"
        "53,Male,>50K,y\n"
        "28,Female,<=50K,x\n");
    CHECK(p.format == FileFormat::Delimited);
    CHECK(p.delimiter == ',');
    CHECK(p.hasHeader);
    CHECK(p.complete);
    CHECK(p.scannedRows == 5);
    CHECK(p.missingToken == "?");
    REQUIRE(p.columns.size() == 4);
    CHECK(p.columns[0].name == "age");
    CHECK(p.columns[0].guessedKind == FeatureKind::Numeric);
    CHECK(p.columns[0].distinctCount == 5);
    CHECK(p.columns[1].guessedKind == FeatureKind::Categorical);
    CHECK(p.columns[1].distinctValues == std::vector<std::string>{"Male", "Female"});  // by count
    CHECK(p.columns[1].distinctValueCounts == std::vector<std::size_t>{3, 2});
    CHECK(p.columns[2].distinctValues == std::vector<std::string>{"<=50K", ">50K"});
    CHECK(p.columns[3].missingCount == 2);  // an empty cell and "?"
    CHECK(p.columns[3].distinctValues == std::vector<std::string>{"x", "y"});
    REQUIRE(p.rows.size() == 5);
    CHECK(p.rows[0] == std::vector<std::string>{"39", "Male", "<=50K", ""});
    CHECK(p.fileBytes > 0);

    const auto two = preview("a,b\n1,x\n2,y\n3,z\n", 2);
    CHECK(two.rows.size() == 2);
    CHECK(two.scannedRows == 3);  // statistics cover every scanned row, not just those shown
}

TEST_CASE("preview: header heuristic", "[preview]") {
    // A number in the first row: no header.
    auto p = preview("1,a,yes\n2,b,no\n");
    CHECK_FALSE(p.hasHeader);
    REQUIRE(p.columns.size() == 3);
    CHECK(p.columns[0].name == "column 1");
    CHECK(p.rows.size() == 2);  // the first row is data
    CHECK(p.scannedRows == 2);
    CHECK(p.columns[0].guessedKind == FeatureKind::Numeric);

    // All text, and a first-row value recurs below in its column: data, not names.
    p = preview("red,small,yes\nblue,big,no\nred,big,yes\n");
    CHECK_FALSE(p.hasHeader);
    CHECK(p.columns[0].distinctCount == 2);
    CHECK(p.columns[1].distinctValues == std::vector<std::string>{"big", "small"});
    // Equal counts: the value seen first comes first, the first row included.
    p = preview("q,1\np,2\n");
    CHECK(p.columns[0].distinctValues == std::vector<std::string>{"q", "p"});

    // All text, no numeric column, but no first-row value recurs: names.
    p = preview("colour,size,label\nred,small,yes\nblue,big,no\n");
    CHECK(p.hasHeader);
    CHECK(p.columns[2].name == "label");

    // Duplicate and empty names are made unique like the reader does.
    p = preview(",x,x\n1,2,3\n");
    CHECK(p.hasHeader);
    CHECK(p.columns[0].name == "column 1");
    CHECK(p.columns[2].name == "x.1");

    // A single record: a header when nothing in it is a number.
    CHECK(preview("a,b,c\n").hasHeader);
    CHECK_FALSE(preview("a,2,c\n").hasHeader);
}

TEST_CASE("preview: delimiters, quotes, TSV, space fallback", "[preview]") {
    auto p = preview("x;g;y\n1,5;a;yes\n2,5;b;no\n");
    CHECK(p.delimiter == ';');
    CHECK(p.columns[0].guessedKind == FeatureKind::Categorical);  // decimal commas are text
    p = preview("x\tg\n\"a\tb\"\t1\nc\t2\n");
    CHECK(p.delimiter == '\t');
    CHECK(p.rows[0][0] == "a\tb");
    p = preview("B21 7 C31 1\nB22 30 C32 2\nB24 15 C31 1\n");  // german.data style
    CHECK(p.delimiter == ' ');
    CHECK_FALSE(p.hasHeader);
    CHECK(p.columns.size() == 4);
    CHECK(p.columns[1].guessedKind == FeatureKind::Numeric);
    CHECK(p.columns[2].distinctValues == std::vector<std::string>{"C31", "C32"});
    REQUIRE_THROWS_WITH(preview("justoneword\nanother\n"), Contains("cannot detect the delimiter"));
}

TEST_CASE("preview: ARFF is recognised by content", "[preview]") {
    const std::string text =
        "% comment first\n"
        "\n"
        "@RELATION credit\n"
        "@attribute duration numeric\n"
        "@attribute purpose {car,tv,education}\n"
        "@attribute 'the class' {good,bad}\n"
        "@data\n"
        "6,tv,good\n"
        "?,car,bad\n"
        "12,tv,good\n";
    TempFile f(text, ".txt");  // the name does not matter
    const auto p = pfa::previewFile(f.path());
    CHECK(p.format == FileFormat::Arff);
    CHECK(p.relation == "credit");
    CHECK(p.hasHeader);
    CHECK(p.missingToken.empty());
    REQUIRE(p.columns.size() == 3);
    CHECK(p.columns[0].guessedKind == FeatureKind::Numeric);
    CHECK(p.columns[0].missingCount == 1);
    CHECK(p.columns[1].guessedKind == FeatureKind::Categorical);
    CHECK(p.columns[1].declaredLevels == std::vector<std::string>{"car", "tv", "education"});
    CHECK(p.columns[1].distinctValues == std::vector<std::string>{"tv", "car"});
    CHECK(p.columns[2].name == "the class");
    CHECK(p.rows.size() == 3);
    CHECK(p.rows[1][0].empty());
    CHECK(p.scannedRows == 3);
    REQUIRE_THROWS_WITH(preview("@relation r\n@attribute d date\n@data\n"),
                        Contains("date attributes are not supported"));
}

TEST_CASE("preview: only a bounded prefix of a huge file is read", "[preview]") {
    // ~8 MB; the preview must look at the first kPreviewBytes only.
    std::string text = "id,group,value\n";
    int i = 0;
    auto addRow = [&] {
        text += std::to_string(i) + (i % 3 ? ",a," : ",b,") + std::to_string(i % 97) + ".5\n";
        ++i;
    };
    while (text.size() < pfa::kPreviewBytes - 20) addRow();
    // A multi-line quoted field that straddles the cut: that record is left out, no error.
    text += std::to_string(i++) + ",\"multi\nline\nfield across the cut " + std::string(60, 'z') +
            "\nend\",1.5\n";
    while (text.size() < 8 * pfa::kPreviewBytes) addRow();
    TempFile f(text, ".csv");
    // What bounds the preview's time is what it reads: the rows it scanned, checked below
    // (a clock here would judge the machine, not the code).
    const auto p = pfa::previewFile(f.path(), 20);
    CHECK_FALSE(p.complete);
    CHECK(p.fileBytes == text.size());
    CHECK(p.hasHeader);
    CHECK(p.rows.size() == 20);
    CHECK(p.scannedRows > 50000);
    CHECK(p.scannedRows < 120000);  // far fewer than the ~600,000 rows of the file
    CHECK(p.scannedRows < static_cast<std::size_t>(i) / 4);
    CHECK(p.columns[1].distinctValues == std::vector<std::string>{"a", "b"});
    CHECK(p.columns[2].guessedKind == FeatureKind::Numeric);
    CHECK(p.columns[0].distinctCount == p.scannedRows);

    // Many distinct values: the list stops at 30, the count does not.
    std::string many = "v,w\n";
    for (int i = 0; i < 100; ++i)
        many += "v" + std::to_string(i) + "," + std::to_string(i % 2) + "\n";
    const auto m = preview(many);
    CHECK(m.columns[0].distinctCount == 100);
    CHECK(m.columns[0].distinctValues.size() == pfa::kPreviewDistinctValues);
    CHECK(m.columns[0].distinctValues.front() == "v0");  // ties: first seen first
}

TEST_CASE("preview errors: as the readers report them", "[preview][errors]") {
    REQUIRE_THROWS_WITH(pfa::previewFile("/nonexistent/x.csv"), Contains("file not found"));
    REQUIRE_THROWS_WITH(pfa::previewFile(std::filesystem::temp_directory_path().string()),
                        Contains("is a directory"));
    TempFile empty("", ".csv");
    REQUIRE_THROWS_WITH(pfa::previewFile(empty.path()), Contains("the file is empty"));
    REQUIRE_THROWS_WITH(preview(std::string("\x7F"
                                            "ELF\x02\x01\x01\0\0",
                                            9)),
                        Contains("does not look like a text file"));
    // Every data row ragged: nothing to preview (some ragged rows are listed instead).
    REQUIRE_THROWS_WITH(preview("a,b,c\n4,5\n6,7\n"),
                        Contains("p.csv:2: expected 3 fields (as in the first row), found 2"));
    REQUIRE_THROWS_WITH(preview("a,b\n\"open,1\n"),
                        Contains("p.csv:2 (column 'column 1'): unterminated"));
    REQUIRE_THROWS_WITH(preview("\n\n   \n"), Contains("no data"));
    REQUIRE_THROWS_WITH(pfa::previewText(std::string(pfa::kPreviewBytes + 10, 'a'), "long.csv"),
                        Contains("hold no line end"));
}

}  // namespace core_file_preview_test
