#pragma once

// Shared by the fuzz targets: consistency checks of what a reader returned. A violated check
// aborts, which libFuzzer reports as a crash (a reader bug), like an escaped exception does.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/file_preview.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"
#include "core/util/error.h"

namespace pfa::fuzz {

inline void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz check failed: %s\n", what);
    std::abort();
}

/// A TabularData that the rest of the engine can rely on.
inline void checkTable(const TabularData& d) {
    const std::size_t n = d.rows();
    require(n > 0, "at least one row");
    require(d.group.size() == n, "one group per row");
    require(d.classNames.size() >= 2, "two classes or more");
    require(d.groupNames.size() >= 2 && d.groupNames.size() <= 64, "2..64 groups");
    require(d.userId.empty() || d.userId.size() == n, "user ids per row");
    for (std::size_t i = 0; i < n; ++i) {
        require(d.label[i] >= 0 && static_cast<std::size_t>(d.label[i]) < d.classNames.size(),
                "label in range");
        require(d.group[i] >= 0 && static_cast<std::size_t>(d.group[i]) < d.groupNames.size(),
                "group in range");
    }
    for (const FeatureColumn& f : d.features) {
        if (f.kind == FeatureKind::Numeric) {
            require(f.numeric.size() == n && f.codes.empty(), "numeric column size");
        } else {
            require(f.codes.size() == n && f.numeric.empty(), "categorical column size");
            for (const int c : f.codes)
                require(c >= 0 && static_cast<std::size_t>(c) < f.levels.size(), "code in range");
        }
    }
}

/// A preview that a wizard can display without further checks.
inline void checkPreview(const FilePreview& p, std::size_t maxRows) {
    require(!p.columns.empty(), "at least one column");
    require(p.rows.size() <= maxRows, "at most maxRows rows");
    require(p.rows.size() <= p.scannedRows, "rows were scanned");
    for (const auto& row : p.rows) require(row.size() == p.columns.size(), "row width");
    for (const ColumnPreview& c : p.columns) {
        require(c.distinctValues.size() == c.distinctValueCounts.size(), "parallel value lists");
        require(c.distinctValues.size() <= kPreviewDistinctValues, "at most 30 values");
        require(c.distinctValues.size() <= c.distinctCount, "values within distinct count");
        require(c.missingCount <= p.scannedRows, "missing within scanned rows");
    }
}

/// The body every reader target shares: `text` read as `name` with each schema through
/// `read(text, name, schema, options)`, then previewed; each must either pass the checks above
/// or be refused with InputError.
template <typename Read>
void checkReadsAndPreview(std::string_view text, const std::string& name,
                          const std::vector<Schema>& schemas, Read read) {
    ReadOptions options;
    options.memoryLimitBytes = std::uint64_t{1} << 30;  // do not read /proc on every input
    for (const Schema& schema : schemas) {
        try {
            checkTable(read(text, name, schema, options));
        } catch (const InputError&) {
        }
    }
    try {
        checkPreview(previewText(text, name, 5), 5);
    } catch (const InputError&) {
    }
}

}  // namespace pfa::fuzz
