#include "core/data/csv_reader.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <system_error>
#include <utility>

#include "core/data/data_checks.h"
#include "core/data/delimited_parser.h"
#include "core/data/line_reader.h"
#include "core/data/record_assembler.h"
#include "core/data/text_cells.h"

namespace pfa {

namespace {

using detail::ByteSource;
using detail::FileSource;
using detail::LineReader;
using detail::quoteCell;
using detail::Record;
using detail::RecordAssembler;
using detail::RecordParser;
using detail::TextSource;

// Records between progress callbacks.
constexpr std::size_t kProgressEvery = 4096;

// ---------------------------------------------------------------------------------------
// Driver.

struct Input {
    std::string name;
    std::string path;        // empty for in-memory text
    std::string_view text;   // in-memory text
    std::uint64_t size = 0;  // bytes, for progress
};

void readOne(const Input& in, ByteSource& source, const Schema& schema, RecordAssembler& builder,
             const ReadOptions& options, std::uint64_t bytesBefore, std::uint64_t bytesTotal,
             std::size_t& recordsSinceProgress) {
    builder.beginFile(in.name);
    LineReader lines(source, in.name);
    if (lines.headIsAll() && lines.head().empty())
        throw DataFileError(in.name, 0, "", "the file is empty");
    const char delim =
        schema.delimiter != 0
            ? schema.delimiter
            : detail::detectDelimiter(lines.head(), lines.headIsAll(), schema, in.name);
    builder.fileStats().delimiter = delim;
    RecordParser parser(lines, delim, schema);
    Record rec;

    if (schema.hasHeader) {
        if (!parser.next(rec))
            throw DataFileError(in.name, 0, "",
                                "the file has no header and no data (only blank or comment lines)");
        std::vector<std::string> raw(rec.fields.begin(),
                                     rec.fields.begin() + static_cast<std::ptrdiff_t>(rec.count));
        if (!schema.columnNames.empty() && raw != schema.columnNames) {
            for (std::size_t i = 0; i < std::max(raw.size(), schema.columnNames.size()); ++i) {
                if (i < raw.size() && i < schema.columnNames.size() &&
                    raw[i] == schema.columnNames[i])
                    continue;
                throw DataFileError(
                    in.name, rec.line, "column " + std::to_string(i + 1),
                    "the header does not match Schema.columnNames: " +
                        (i < raw.size() ? "found " + quoteCell(raw[i]) : "found no column") +
                        ", expected " +
                        (i < schema.columnNames.size() ? quoteCell(schema.columnNames[i])
                                                       : "no column") +
                        " (" + std::to_string(raw.size()) + " vs " +
                        std::to_string(schema.columnNames.size()) + " columns)");
            }
        }
        std::vector<std::string> names = detail::uniqueNames(raw);
        if (!builder.hasColumns()) {
            builder.setColumns(std::move(names), in.name, rec.line);
        } else if (names != builder.names()) {
            const auto& first = builder.names();
            std::size_t i = 0;
            while (i < names.size() && i < first.size() && names[i] == first[i]) ++i;
            throw DataFileError(in.name, rec.line, "column " + std::to_string(i + 1),
                                "the header differs from the first file's: found " +
                                    (i < names.size() ? quoteCell(names[i]) : "no column") +
                                    ", expected " +
                                    (i < first.size() ? quoteCell(first[i]) : "no column"));
        }
    } else if (!builder.hasColumns()) {
        builder.setColumns(schema.columnNames, in.name, 0);
    }
    parser.setNames(&builder.names());

    bool any = false;
    while (parser.next(rec)) {
        any = true;
        builder.addRecord(rec);
        if (options.progress && ++recordsSinceProgress >= kProgressEvery) {
            recordsSinceProgress = 0;
            const double f =
                bytesTotal ? double(bytesBefore + lines.consumed()) / double(bytesTotal) : 0.0;
            if (options.progress(std::min(1.0, f))) throw ReadCancelled();
        }
    }
    if (!any)
        throw DataFileError(in.name, 0, "",
                            schema.hasHeader
                                ? "the file has a header but no data rows"
                                : "the file has no data rows (only blank or comment lines)");
}

TabularData readInputs(const std::vector<Input>& inputs, const Schema& schema,
                       const ReadOptions& options) {
    schema.validate();
    if (inputs.empty()) throw InputError("no data file given");

    std::string sources;
    std::uint64_t total = 0;
    for (const Input& in : inputs) {
        sources += (sources.empty() ? "" : " + ") + in.name;
        total += in.size;
    }
    // Refuse inputs that cannot fit before spending time on them.
    checkInputFitsMemory(total, sources, options.memoryLimitBytes);

    RecordAssembler builder(schema, sources);
    builder.setLabelsOptional(options.labelsOptional);
    if (options.rowLines) options.rowLines->clear();
    builder.setRowLines(options.rowLines);
    std::uint64_t before = 0;
    std::size_t sinceProgress = 0;
    for (const Input& in : inputs) {
        std::unique_ptr<ByteSource> source;
        if (in.path.empty())
            source = std::make_unique<TextSource>(in.text);
        else
            source = std::make_unique<FileSource>(in.path);
        readOne(in, *source, schema, builder, options, before, total, sinceProgress);
        before += in.size;
    }

    std::string name = schema.name;
    if (name.empty()) name = std::filesystem::path(inputs.front().name).stem().string();
    TabularData out = builder.finish(std::move(name));
    if (options.stats) options.stats->files = builder.stats();
    if (options.progress && options.progress(1.0)) throw ReadCancelled();
    return out;
}

Input fileInput(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw DataFileError(path, 0, "", "file not found");
    if (fs::is_directory(st)) throw DataFileError(path, 0, "", "is a directory, not a data file");
    Input in;
    in.name = path;
    in.path = path;
    const auto size = fs::file_size(path, ec);
    in.size = ec ? 0 : static_cast<std::uint64_t>(size);
    return in;
}

}  // namespace

TabularData readDelimitedFile(const std::string& path, const Schema& schema,
                              const ReadOptions& options) {
    return readDelimitedFiles({path}, schema, options);
}

TabularData readDelimitedFiles(const std::vector<std::string>& paths, const Schema& schema,
                               const ReadOptions& options) {
    schema.validate();
    std::vector<Input> inputs;
    // Check every file up front: a missing second file should not cost a full parse first.
    inputs.reserve(paths.size());
    for (const auto& p : paths) inputs.push_back(fileInput(p));
    return readInputs(inputs, schema, options);
}

TabularData readDelimitedText(std::string_view text, std::string sourceName, const Schema& schema,
                              const ReadOptions& options) {
    Input in;
    in.name = std::move(sourceName);
    in.text = text;
    in.size = text.size();
    return readInputs({in}, schema, options);
}

}  // namespace pfa
