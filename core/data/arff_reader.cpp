#include "core/data/arff_reader.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "core/data/arff_parser.h"
#include "core/data/data_checks.h"
#include "core/data/line_reader.h"
#include "core/data/record_assembler.h"
#include "core/util/error.h"

namespace pfa {

namespace {

// Records between progress callbacks (as for CSV).
constexpr std::size_t kProgressEvery = 4096;

/// The schema with the fields that ARFF ignores reset, so that validate() does not ask for
/// column names and the assembler does not look for a delimiter.
Schema arffSchema(const Schema& schema) {
    Schema s = schema;
    s.delimiter = 0;
    s.hasHeader = true;
    s.columnNames.clear();
    s.commentPrefix.clear();
    s.trimWhitespace = true;
    return s;
}

TabularData readArff(detail::ByteSource& source, const std::string& name, std::uint64_t size,
                     const Schema& schema, const ReadOptions& options) {
    detail::LineReader lines(source, name);
    if (lines.headIsAll() && lines.head().empty())
        throw DataFileError(name, 0, "", "the file is empty");
    const detail::ArffHeader header = detail::readArffHeader(lines);

    std::vector<std::string> names;
    std::vector<ColumnSpec> specs;
    for (const auto& a : header.attributes) {
        names.push_back(a.name);
        ColumnSpec spec;
        spec.role =
            a.type == detail::ArffType::Numeric ? ColumnRole::Numeric : ColumnRole::Categorical;
        spec.levels = a.levels;  // empty for string attributes: levels come from the data
        specs.push_back(std::move(spec));
    }
    detail::RecordAssembler assembler(schema, name);
    assembler.setLabelsOptional(options.labelsOptional);
    if (options.rowLines) options.rowLines->clear();
    assembler.setRowLines(options.rowLines);
    assembler.setColumns(std::move(names), name, 0, std::move(specs));
    assembler.beginFile(name);
    assembler.fileStats().delimiter = ',';

    detail::ArffRecordReader records(lines, header, schema.missingToken);
    detail::Record rec;
    bool any = false;
    std::size_t sinceProgress = 0;
    while (records.next(rec)) {
        any = true;
        assembler.addRecord(rec);
        if (options.progress && ++sinceProgress >= kProgressEvery) {
            sinceProgress = 0;
            const double f = size ? double(lines.consumed()) / double(size) : 0.0;
            if (options.progress(std::min(1.0, f))) throw ReadCancelled();
        }
    }
    if (!any) throw DataFileError(name, 0, "", "the file has no data rows after @data");

    std::string dataName = schema.name;
    if (dataName.empty()) dataName = std::filesystem::path(name).stem().string();
    TabularData out = assembler.finish(std::move(dataName));
    if (options.stats) options.stats->files = assembler.stats();
    if (options.progress && options.progress(1.0)) throw ReadCancelled();
    return out;
}

}  // namespace

TabularData readArffFile(const std::string& path, const Schema& schema,
                         const ReadOptions& options) {
    const Schema s = arffSchema(schema);
    s.validate();
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(st)) throw DataFileError(path, 0, "", "is a directory, not a data file");
    const auto bytes = fs::file_size(path, ec);
    const std::uint64_t size = ec ? 0 : static_cast<std::uint64_t>(bytes);
    checkInputFitsMemory(size, path, options.memoryLimitBytes);
    detail::FileSource source(path);
    return readArff(source, path, size, s, options);
}

TabularData readArffText(std::string_view text, std::string sourceName, const Schema& schema,
                         const ReadOptions& options) {
    const Schema s = arffSchema(schema);
    s.validate();
    checkInputFitsMemory(text.size(), sourceName, options.memoryLimitBytes);
    detail::TextSource source(text);
    return readArff(source, sourceName, text.size(), s, options);
}

}  // namespace pfa
