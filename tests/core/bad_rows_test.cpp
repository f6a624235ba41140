// Rows with the wrong number of fields in your own file: the preview lists them, the reader
// stops at them unless Schema::skipMalformedRows skips (and counts) them; a numeric sensitive
// column with many values is binned at the preview's even split.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/data/catalog.h"
#include "core/data/csv_reader.h"
#include "core/data/file_preview.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/results_file.h"
#include "core/util/error.h"
#include "core/util/json_value.h"
#include "temp_file.h"

namespace core_bad_rows_test {

using Catch::Contains;
using pfa::BadRow;
using pfa::Schema;

namespace {

/// A header and 300 rows of 4 fields, except the short line 202 and the long line 252.
std::string fileWithBadRows() {
    std::string text = "income,age,region,approved\n";
    for (int i = 0; i < 300; ++i) {
        const std::string age = std::to_string(20 + i % 61);  // 61 distinct ages
        if (i == 200) {
            text += "5,31\n";  // line 202: two fields
        } else if (i == 250) {
            text += "5,31,r1,yes,extra,more\n";  // line 252: six fields
        } else {
            text += std::to_string(10 + i % 37) + "," + age + ",r" + std::to_string(i % 3) + "," +
                    (i % 4 == 0 ? "yes" : "no") + "\n";
        }
    }
    return text;
}

Schema loanSchema() {
    Schema s;
    s.target = "approved";
    s.positiveValues = {"yes"};
    s.sensitive = {"region"};
    return s;
}

}  // namespace

TEST_CASE("preview: ragged rows are listed with their line, the good rows are shown",
          "[preview][bad-rows]") {
    const pfa::FilePreview p = pfa::previewText(fileWithBadRows(), "loans.csv", 1000);
    CHECK(p.hasHeader);
    REQUIRE(p.columns.size() == 4);
    CHECK(p.rows.size() == 298);
    CHECK(p.scannedRows == 298);
    CHECK(p.badRowCount == 2);
    REQUIRE(p.badRows.size() == 2);
    CHECK(p.badRows[0].line == 202);
    CHECK(p.badRows[0].fields == 2);
    CHECK(p.badRows[0].expected == 4);
    CHECK(pfa::describeBadRow(p.badRows[0]) == "line 202 has 2 fields, expected 4");
    CHECK(pfa::describeBadRow(p.badRows[1]) == "line 252 has 6 fields, expected 4");
    // The statistics come from the good rows only.
    CHECK(p.columns[2].distinctCount == 3);
    CHECK(p.columns[3].distinctCount == 2);
}

TEST_CASE("preview: many bad rows are all counted, the first ones listed", "[preview][bad-rows]") {
    std::string text = "a,b,y\n";
    for (int i = 0; i < 200; ++i) text += i % 2 ? "1,2,yes\n" : "1,2\n";
    const pfa::FilePreview p = pfa::previewText(text, "p.csv");
    CHECK(p.badRowCount == 100);
    CHECK(p.badRows.size() == pfa::kListedBadRows);
    CHECK(p.badRows.front().line == 2);
    CHECK(p.badRows.back().line == 2 + 2 * static_cast<long>(pfa::kListedBadRows - 1));
}

TEST_CASE("reader: a ragged row stops the read unless skipping is asked for", "[csv][bad-rows]") {
    const std::string text = fileWithBadRows();
    REQUIRE_THROWS_WITH(pfa::readDelimitedText(text, "loans.csv", loanSchema()),
                        Contains("loans.csv:202: expected 4 fields, found 2"));

    Schema skip = loanSchema();
    skip.skipMalformedRows = true;
    pfa::ReadStats stats;
    pfa::ReadOptions options;
    options.stats = &stats;
    const pfa::TabularData data = pfa::readDelimitedText(text, "loans.csv", skip, options);
    CHECK(data.rows() == 298);
    CHECK(data.skippedBadRows == 2);
    REQUIRE(data.skippedBadRowList.size() == 2);
    CHECK(data.skippedBadRowList[0].line == 202);
    CHECK(data.skippedBadRowList[1].line == 252);
    REQUIRE(stats.files.size() == 1);
    CHECK(stats.files[0].skippedBadRows == 2);
    CHECK(stats.files[0].records == 300);
    CHECK(stats.files[0].kept == 298);
    CHECK(pfa::describeSkippedRows(data.skippedBadRows, data.skippedBadRowList) ==
          "2 malformed rows skipped (lines 202, 252)");

    // Nothing left when every row is ragged: said so, with an example.
    REQUIRE_THROWS_WITH(
        pfa::readDelimitedText("income,age,region,approved\n1,2\n3,4\n", "x.csv", skip),
        Contains("all 2 records have the wrong number of fields (line 2 has 2 fields"));
}

TEST_CASE("schema: skipping bad rows is part of the saved schema, absent when off",
          "[catalog][bad-rows]") {
    Schema s = loanSchema();
    const std::string off = pfa::schemaToJson(s);
    CHECK(off.find("skip_malformed_rows") == std::string::npos);  // old data-set keys unchanged
    s.skipMalformedRows = true;
    const std::string on = pfa::schemaToJson(s);
    CHECK(on.find("\"skip_malformed_rows\":true") != std::string::npos);
    CHECK(pfa::schemaFromJson(pfa::parseJson(on)).skipMalformedRows);
    CHECK_FALSE(pfa::schemaFromJson(pfa::parseJson(off)).skipMalformedRows);
}

TEST_CASE("prepared data: the skipped rows are recorded with every run", "[sweep][bad-rows]") {
    pfa::test::TempFile file(fileWithBadRows(), ".csv");
    pfa::DatasetRequest request;
    request.name = "file";
    request.filePath = file.path();
    request.schema = loanSchema();
    REQUIRE_THROWS_WITH(pfa::prepareDataset(request), Contains(":202: expected 4 fields, found 2"));
    request.schema.skipMalformedRows = true;
    const pfa::PreparedDatasetPtr prepared = pfa::prepareDataset(request);
    CHECK(prepared->skippedBadRows == 2);
    CHECK_THAT(prepared->context.datasetDescription,
               Contains("2 malformed rows skipped (lines 202, 252)"));
    CHECK(prepared->context.trainRows + prepared->context.testRows == 298);
}

TEST_CASE("binning: a numeric sensitive column splits at the preview's even split",
          "[preview][binning]") {
    const pfa::FilePreview p = pfa::previewText(fileWithBadRows(), "loans.csv");
    const pfa::ColumnPreview& age = p.columns[1];
    CHECK(age.guessedKind == pfa::FeatureKind::Numeric);
    CHECK(age.distinctCount == 61);
    CHECK(age.distinctCount > pfa::kManySensitiveValues);
    REQUIRE(age.median.has_value());
    // Ages 20..80 cycling over 298 good rows: half of them are below 50.
    CHECK(*age.median == Approx(50));
    CHECK_FALSE(p.columns[2].median.has_value());  // categorical: no split

    Schema s = loanSchema();
    s.sensitive = {"age"};
    s.sensitiveThreshold = *age.median;
    s.skipMalformedRows = true;
    const pfa::TabularData data = pfa::readDelimitedText(fileWithBadRows(), "loans.csv", s);
    REQUIRE(data.groupNames == std::vector<std::string>{"age < 50", "age ≥ 50"});
    std::size_t below = 0;
    for (int g : data.group) below += g == 0 ? 1 : 0;
    const double share = static_cast<double>(below) / static_cast<double>(data.rows());
    CHECK(share > 0.45);
    CHECK(share < 0.55);
}

TEST_CASE("binning: ties never put every value on one side", "[preview][binning]") {
    std::string text = "x,s,y\n";
    for (int i = 0; i < 100; ++i) text += "1," + std::to_string(i < 90 ? 7 : 8 + i) + ",yes\n";
    const pfa::FilePreview p = pfa::previewText(text, "t.csv");
    REQUIRE(p.columns[1].median.has_value());
    // 90 rows hold 7: the best split is "< 98" (90 below, 10 at or above), never "< 7" (none
    // below).
    CHECK(*p.columns[1].median == Approx(98));
}

TEST_CASE("results files: damaged lines are listed with their number and why",
          "[sweep][results][bad-rows]") {
    pfa::test::TempFile file(R"({"run_key":"k1"})"
                             "\n\nroot:x:0:0:root:/root:/bin/bash\n"
                             R"({"run_key":"k2"})"
                             "\n"
                             R"({"run_key":"k3)",
                             ".jsonl");
    const pfa::ResultsFileContent content = pfa::readResultsFile(file.path());
    CHECK(content.records.size() == 2);
    CHECK(content.recordLines == std::vector<long>{1, 4});
    CHECK(content.damagedLines == 2);
    REQUIRE(content.damaged.size() == 2);
    CHECK(content.damaged[0].line == 3);
    CHECK(content.damaged[0].reason == "not a JSON record");
    CHECK(content.damaged[1].line == 5);
    CHECK(content.damaged[1].reason == "cut off: the file ends in the middle of this line");

    // Lines, but no record at all: not a results file, said plainly when merging.
    pfa::test::TempFile passwd(
        "root:x:0:0:root:/root:/bin/bash\nbin:x:1:1:bin:/bin:/sbin/nologin\n", ".txt");
    pfa::test::TempFile out("", ".jsonl");
    REQUIRE_THROWS_WITH(pfa::mergeResultsFiles({passwd.path()}, out.path()),
                        Contains("is not a results file: none of its 2 lines is a record"));
}

}  // namespace core_bad_rows_test
