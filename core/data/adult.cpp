#include "core/data/adult.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/util/error.h"

namespace pfa {

namespace {

template <std::size_t N>
std::vector<std::string> toStrings(const std::array<std::string_view, N>& items) {
    return {items.begin(), items.end()};
}

template <std::size_t N>
ColumnSpec categorical(const std::array<std::string_view, N>& levels) {
    ColumnSpec spec;
    spec.role = ColumnRole::Categorical;
    spec.levels = toStrings(levels);
    return spec;
}

// Keep the constant consistent with the lists (a compile-time check, not a runtime one).
static_assert(kAdultWorkclassLevels.size() + kAdultEducationLevels.size() +
                  kAdultMaritalStatusLevels.size() + kAdultOccupationLevels.size() +
                  kAdultRelationshipLevels.size() + kAdultRaceLevels.size() +
                  kAdultNativeCountryLevels.size() ==
              kAdultOneHotColumns);
static_assert(kAdultNumericColumns.size() + kAdultOneHotColumns == kAdultEncodedFeatures);

}  // namespace

Schema adultSchema() {
    Schema s;
    s.name = "adult";
    s.delimiter = ',';  // fields are ", "-separated; trimming removes the space
    s.hasHeader = false;
    s.columnNames = toStrings(kAdultColumns);
    s.commentPrefix = "|";  // adult.test starts with "|1x3 Cross validator"
    s.trimWhitespace = true;

    s.target = "income";
    s.positiveValues = {">50K"};
    s.negativeClassName = "<=50K";
    s.positiveClassName = ">50K";
    s.targetStripSuffixes = {"."};  // adult.test writes ">50K." and "<=50K."

    s.sensitive = {"sex"};  // groups sort as "Female" (0), "Male" (1)

    for (const auto& col : kAdultNumericColumns)
        s.columns[std::string(col)].role = ColumnRole::Numeric;
    s.columns["workclass"] = categorical(kAdultWorkclassLevels);
    s.columns["education"] = categorical(kAdultEducationLevels);
    s.columns["marital-status"] = categorical(kAdultMaritalStatusLevels);
    s.columns["occupation"] = categorical(kAdultOccupationLevels);
    s.columns["relationship"] = categorical(kAdultRelationshipLevels);
    s.columns["race"] = categorical(kAdultRaceLevels);
    s.columns["native-country"] = categorical(kAdultNativeCountryLevels);

    // DP-FERMI drops every row containing '?' (in any column), before the split.
    s.missingToken = "?";
    s.missingPolicy = MissingPolicy::DropRow;
    return s;
}

TabularData loadAdult(const std::string& directory) {
    const std::filesystem::path dir(directory);
    const std::vector<std::string> files = {(dir / "adult.data").string(),
                                            (dir / "adult.test").string()};
    // Say what is expected rather than only "file not found" (the reader would, too).
    for (const auto& f : files) {
        std::error_code ec;
        if (!std::filesystem::is_regular_file(f, ec))
            throw DataFileError(f, 0, "",
                                "file not found; the Adult data set needs adult.data and "
                                "adult.test (UCI Census Income) in " +
                                    directory);
    }
    return readDelimitedFiles(files, adultSchema());
}

}  // namespace pfa
