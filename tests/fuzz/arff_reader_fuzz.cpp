// libFuzzer target: the ARFF reader and the file preview on arbitrary bytes.
// Every input must either be read (and pass fuzz_checks.h) or be refused with pfa::InputError;
// any other exception, a crash, a hang, a leak or undefined behaviour is a bug.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/data/arff_reader.h"
#include "core/data/file_preview.h"
#include "core/util/error.h"
#include "fuzz_checks.h"

namespace {

std::vector<pfa::Schema> makeSchemas() {
    std::vector<pfa::Schema> out;
    {  // the seed corpus' German-credit-like layout
        pfa::Schema s;
        s.target = "class";
        s.positiveValues = {"good"};
        s.sensitive = {"sex"};
        out.push_back(s);
    }
    {  // multi-class target, thresholded sensitive column, filters, overrides
        pfa::Schema s;
        s.target = "class";
        s.sensitive = {"age"};
        s.sensitiveThreshold = 25;
        s.rowFilters = {{"duration", pfa::FilterOp::LessEqual, "48"},
                        {"purpose", pfa::FilterOp::NotEqual, "other"}};
        s.columns["purpose"].role = pfa::ColumnRole::Categorical;
        s.columns["duration"].role = pfa::ColumnRole::Auto;
        s.missingToken = "NA";
        s.missingPolicy = pfa::MissingPolicy::Error;
        out.push_back(s);
    }
    {  // short names, as a fuzzer finds them easily
        pfa::Schema s;
        s.target = "y";
        s.targetThreshold = 0;
        s.sensitive = {"g", "h"};
        s.userId = "u";
        out.push_back(s);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<pfa::Schema> schemas = makeSchemas();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    pfa::fuzz::checkReadsAndPreview(text, "fuzz.arff", schemas,
                                    [](const auto&... args) { return pfa::readArffText(args...); });
    return 0;
}
