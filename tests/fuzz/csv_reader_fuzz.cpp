// libFuzzer target: the delimited-text reader and the file preview on arbitrary bytes.
// Every input must either be read (and pass fuzz_checks.h) or be refused with pfa::InputError;
// any other exception, a crash, a hang, a leak or undefined behaviour is a bug.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/file_preview.h"
#include "core/util/error.h"
#include "fuzz_checks.h"

namespace {

std::vector<pfa::Schema> makeSchemas() {
    std::vector<pfa::Schema> out;
    {  // header, auto delimiter, binary target, the seed corpus' column names
        pfa::Schema s;
        s.target = "y";
        s.positiveValues = {"yes"};
        s.sensitive = {"g"};
        s.missingToken = "?";
        out.push_back(s);
    }
    {  // no header, fixed ';', multi-class target, intersectional groups, user id, comments
        pfa::Schema s;
        s.delimiter = ';';
        s.hasHeader = false;
        s.columnNames = {"a", "b", "c", "d"};
        s.commentPrefix = "#";
        s.target = "d";
        s.sensitive = {"b", "c"};
        s.userId = "a";
        s.targetStripSuffixes = {"."};
        out.push_back(s);
    }
    {  // thresholds, filters, declared roles and levels, missing values are errors
        pfa::Schema s;
        s.target = "y";
        s.targetThreshold = 0.5;
        s.sensitive = {"g"};
        s.sensitiveThreshold = 25;
        s.columns["x"].role = pfa::ColumnRole::Numeric;
        s.columns["c"].role = pfa::ColumnRole::Categorical;
        s.columns["c"].levels = {"lo", "hi"};
        s.rowFilters = {{"f", pfa::FilterOp::AbsLessEqual, "30"},
                        {"h", pfa::FilterOp::NotEqual, "O"}};
        s.missingPolicy = pfa::MissingPolicy::Error;
        s.trimWhitespace = false;
        out.push_back(s);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<pfa::Schema> schemas = makeSchemas();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    pfa::ReadOptions options;
    options.memoryLimitBytes = std::uint64_t{1} << 30;  // do not read /proc on every input
    for (const pfa::Schema& schema : schemas) {
        try {
            pfa::fuzz::checkTable(pfa::readDelimitedText(text, "fuzz.csv", schema, options));
        } catch (const pfa::InputError&) {
        }
    }
    try {
        pfa::fuzz::checkPreview(pfa::previewText(text, "fuzz.csv", 5), 5);
    } catch (const pfa::InputError&) {
    }
    return 0;
}
