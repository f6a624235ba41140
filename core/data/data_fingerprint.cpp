#include "core/data/data_fingerprint.h"

#include <algorithm>
#include <filesystem>

#include "core/data/arff_parser.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/data/delimited_parser.h"
#include "core/data/line_reader.h"
#include "core/data/row_key.h"
#include "core/util/error.h"
#include "core/util/sha256.h"

namespace pfa {

namespace {

/// A 64-bit key of one record's text fields (FNV-1a over length-prefixed fields, then a
/// splitmix64 finaliser): the fields' order matters, the record's place in the file does not.
std::uint64_t recordKey(const detail::Record& record) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    auto add = [&h](unsigned char byte) {
        h ^= byte;
        h *= 0x100000001b3ULL;
    };
    for (std::size_t i = 0; i < record.count; ++i) {
        const std::string& field = record.fields[i];
        const std::uint64_t size = field.size();
        for (int b = 0; b < 8; ++b) add(static_cast<unsigned char>(size >> (8 * b)));
        for (char c : field) add(static_cast<unsigned char>(c));
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

void addFileRecords(const std::string& path, const Schema& schema,
                    std::vector<std::uint64_t>& keys) {
    detail::FileSource source(path);
    detail::LineReader lines(source, path);
    detail::Record record;
    if (detail::looksLikeArff(lines.head())) {
        const detail::ArffHeader header = detail::readArffHeader(lines);
        detail::ArffRecordReader records(lines, header, schema.missingToken);
        while (records.next(record)) keys.push_back(recordKey(record));
        return;
    }
    if (lines.headIsAll() && lines.head().empty()) return;  // an empty file has no rows
    const char delimiter =
        schema.delimiter != 0
            ? schema.delimiter
            : detail::detectDelimiter(lines.head(), lines.headIsAll(), schema, path);
    detail::RecordParser parser(lines, delimiter, schema);
    bool header = schema.hasHeader;
    while (parser.next(record)) {
        if (header) {
            header = false;  // column names are not a row (renaming a column changes no one)
            continue;
        }
        keys.push_back(recordKey(record));
    }
}

}  // namespace

std::string fingerprintOfRowKeys(std::vector<std::uint64_t> rowKeys) {
    std::sort(rowKeys.begin(), rowKeys.end());
    Sha256 sha;
    const std::string domain = "pfa-rows-v1";
    sha.update(domain.data(), domain.size());
    auto addWord = [&sha](std::uint64_t word) {
        unsigned char bytes[8];
        for (int b = 0; b < 8; ++b) bytes[b] = static_cast<unsigned char>(word >> (8 * b));
        sha.update(bytes, sizeof bytes);
    };
    addWord(rowKeys.size());
    for (std::uint64_t key : rowKeys) addWord(key);
    return sha.hexDigest().substr(0, 32);
}

std::string tableFingerprint(const TabularData& data) {
    std::vector<std::uint64_t> keys(data.rows());
    for (std::size_t row = 0; row < keys.size(); ++row) keys[row] = rowContentKey(data, row);
    return fingerprintOfRowKeys(std::move(keys));
}

std::string fileRowsFingerprint(const std::vector<std::string>& paths, const Schema& schema) {
    std::vector<std::uint64_t> keys;
    for (const std::string& path : paths) addFileRecords(path, schema, keys);
    return fingerprintOfRowKeys(std::move(keys));
}

std::string datasetFingerprint(const DatasetRequest& request, const TabularData& data) {
    std::vector<std::string> paths;
    Schema schema;
    if (request.name == "file") {
        paths = {request.filePath};
        schema = request.schema;
    } else if (std::find_if(datasetCatalog().begin(), datasetCatalog().end(),
                            [&](const CatalogEntry& e) { return e.name == request.name; }) !=
               datasetCatalog().end()) {
        const CatalogEntry& entry = findCatalogEntry(request.name);
        const std::string directory = request.dataDirectory.empty()
                                          ? catalogDatasetDirectory(entry.name)
                                          : request.dataDirectory;
        for (const DatasetFile& file : entry.files)
            paths.push_back((std::filesystem::path(directory) / file.name).string());
        schema = entry.schemaFor("");  // the layout of the files; no choice of columns matters
    }
    if (paths.empty()) return tableFingerprint(data);
    try {
        return fileRowsFingerprint(paths, schema);
    } catch (const InputError&) {
        // The file changed or vanished since it was loaded: the rows that were loaded.
        return tableFingerprint(data);
    }
}

}  // namespace pfa
