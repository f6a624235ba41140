#include "core/data/data_checks.h"

#include <fstream>
#include <sstream>
#include <vector>

#include "core/data/text_cells.h"
#include "core/util/error.h"

namespace pfa {

std::optional<std::uint64_t> availableMemoryBytes() {
    std::ifstream in("/proc/meminfo");
    if (!in) return std::nullopt;
    std::string line;
    while (std::getline(in, line)) {
        // "MemAvailable:   12345678 kB"
        if (line.rfind("MemAvailable:", 0) != 0) continue;
        std::istringstream fields(line.substr(13));
        std::uint64_t kb = 0;
        std::string unit;
        if (!(fields >> kb)) return std::nullopt;
        fields >> unit;
        if (unit == "kB" || unit.empty()) return kb * 1024;
        return std::nullopt;
    }
    return std::nullopt;
}

void checkInputFitsMemory(std::uint64_t inputBytes, const std::string& sourceName,
                          std::optional<std::uint64_t> memoryLimitBytes) {
    const std::optional<std::uint64_t> available =
        memoryLimitBytes ? memoryLimitBytes : availableMemoryBytes();
    if (!available) return;
    // Compare without overflow: input * factor > available  <=>  input > available / factor.
    if (inputBytes <= *available / kParseBytesPerInputByte) return;
    const bool several = sourceName.find(" + ") != std::string::npos;
    throw InputError(
        sourceName + ": " + (several ? "the files are " : "the file is ") +
        detail::formatByteSize(inputBytes) + " but only " + detail::formatByteSize(*available) +
        " of memory is available; reading needs about " + std::to_string(kParseBytesPerInputByte) +
        " bytes of memory per byte of input (about " +
        detail::formatByteSize(inputBytes * kParseBytesPerInputByte) +
        "). Close other programs, or use a smaller extract of the data");
}

void checkGroupSizes(const TabularData& data, std::size_t minimumRows) {
    if (data.groupNames.empty()) {
        if (minimumRows > 0)
            throw InputError("the data set " + detail::quoteCell(data.name) +
                             " has no sensitive groups; every group needs at least " +
                             std::to_string(minimumRows) + " rows");
        return;
    }
    std::vector<std::size_t> counts(data.groupNames.size(), 0);
    for (const int g : data.group)
        if (g >= 0 && static_cast<std::size_t>(g) < counts.size())
            ++counts[static_cast<std::size_t>(g)];
    std::size_t smallest = 0;
    for (std::size_t k = 1; k < counts.size(); ++k)
        if (counts[k] < counts[smallest]) smallest = k;
    if (counts[smallest] >= minimumRows) return;
    const std::string of =
        data.sensitiveDescription.empty() ? "" : " (" + data.sensitiveDescription + ")";
    throw InputError("the sensitive group " + detail::quoteCell(data.groupNames[smallest]) + of +
                     " has only " + std::to_string(counts[smallest]) +
                     (counts[smallest] == 1 ? " row" : " rows") + "; every group needs at least " +
                     std::to_string(minimumRows) +
                     " rows. Merge small groups (Schema.sensitiveValueLabels) or choose another "
                     "sensitive attribute");
}

}  // namespace pfa
