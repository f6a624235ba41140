// libFuzzer target: the delimited-text reader and the file preview on arbitrary bytes.
// Every input must either be read (and pass fuzz_checks.h) or be refused with pfa::InputError;
// any other exception, a crash, a hang, a leak or undefined behaviour is a bug.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/file_preview.h"
#include "core/data/line_reader.h"
#include "core/util/error.h"
#include "fuzz_checks.h"

namespace {

/// Hands out its text a few bytes per read, so that small inputs cross the line reader's
/// refill paths (a CR at the end of the data read so far, compaction, growth) that whole
/// files only reach at 256 KB boundaries.
class TrickleSource : public pfa::detail::ByteSource {
public:
    explicit TrickleSource(std::string_view text) : m_text(text) {}
    std::size_t read(char* dst, std::size_t n) override {
        const std::size_t step = 1 + (m_pos * 7 + m_reads++) % 5;
        const std::size_t k = std::min({n, m_text.size() - m_pos, step});
        if (k) std::memcpy(dst, m_text.data() + m_pos, k);
        m_pos += k;
        return k;
    }
    std::size_t remainingHint() const override { return m_text.size() - m_pos; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_reads = 0;
};

/// Every line of `source`, then the error message (empty when there was none).
std::vector<std::string> allLines(pfa::detail::ByteSource& source) {
    std::vector<std::string> lines;
    try {
        pfa::detail::LineReader reader(source, "fuzz.csv");
        std::string_view line;
        while (reader.next(line)) lines.emplace_back(line);
        lines.emplace_back();
    } catch (const pfa::InputError& e) {
        lines.emplace_back(std::string("error: ") + e.what());
    }
    return lines;
}

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
    pfa::fuzz::checkReadsAndPreview(text, "fuzz.csv", schemas, [](const auto&... args) {
        return pfa::readDelimitedText(args...);
    });
    // Differential check of the line reader: whole reads and trickled reads agree.
    pfa::detail::TextSource whole(text);
    TrickleSource trickle(text);
    pfa::fuzz::require(allLines(whole) == allLines(trickle), "trickled reads give the same lines");
    return 0;
}
