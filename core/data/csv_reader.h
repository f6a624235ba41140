#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/schema.h"
#include "core/data/tabular_data.h"
#include "core/util/error.h"

namespace pfa {

/// Raised when a ReadOptions::progress callback asks to stop. It is an InputError so generic
/// handlers still catch it, but callers that started the cancel can catch it specifically.
class ReadCancelled : public InputError {
public:
    ReadCancelled() : InputError("reading the data was cancelled") {}
};

/// What happened to one input file (filled when ReadOptions::stats is set).
struct FileReadStats {
    std::string file;         ///< path or source name
    char delimiter = 0;       ///< the delimiter used (detected or from the schema)
    std::size_t records = 0;  ///< data records read (header, blank and comment lines excluded)
    std::size_t kept = 0;     ///< records that became rows
    /// Records dropped for a missing value (MissingPolicy::DropRow).
    std::size_t droppedMissing = 0;
    /// Records dropped because they failed one of Schema::rowFilters (counted first: a record
    /// that fails a filter is not also counted as missing).
    std::size_t droppedFiltered = 0;
    /// Records skipped for a wrong number of fields (Schema::skipMalformedRows).
    std::size_t skippedBadRows = 0;
};

/// Per-file statistics of one read, in input order.
struct ReadStats {
    std::vector<FileReadStats> files;
};

/// Optional settings of a read.
struct ReadOptions {
    /// Called every few thousand records (and at the end) with the fraction of bytes read
    /// so far, in [0, 1]. Returning true cancels the read: ReadCancelled is thrown.
    std::function<bool(double fraction)> progress;
    /// When set, receives per-file statistics (overwritten on success).
    ReadStats* stats = nullptr;
    /// The memory the guard may assume is available, in bytes; unset: MemAvailable from
    /// /proc/meminfo (no check when that cannot be read). Before parsing, a read whose inputs
    /// total more than limit / kParseBytesPerInputByte bytes is refused with an InputError
    /// (see checkInputFitsMemory in data_checks.h). Mostly for tests.
    std::optional<std::uint64_t> memoryLimitBytes;
    /// Reading rows to apply a trained model to (saved_model.h) rather than to train on: the
    /// target and sensitive columns may be absent (a sensitive column absent means no groups),
    /// a missing value in them keeps the row with label or group −1, row filters and the user
    /// id on absent columns are not applied, and the checks that only training needs (two
    /// classes, two groups) are skipped.
    bool labelsOptional = false;
    /// When set, receives the physical line (within its file) of every row read, in order.
    std::vector<long>* rowLines = nullptr;
};

/// Reads one delimited text file (CSV, TSV, ...) as described by `schema`.
/// The parser follows RFC 4180 (quoted fields with embedded delimiters, doubled quotes and
/// newlines), accepts LF, CRLF and CR line ends and a UTF-8 byte-order mark, and skips
/// blank lines and comment lines. Every problem (missing or binary file, ragged row,
/// unterminated quote, bad number, unknown level, single-class target, ...) raises
/// DataFileError naming file, physical line and column; an invalid schema raises InputError,
/// and so do inputs too large for the available memory (checked before parsing).
TabularData readDelimitedFile(const std::string& path, const Schema& schema,
                              const ReadOptions& options = {});

/// Reads several files with the same schema and concatenates their rows in order (e.g.
/// adult.data then adult.test). The header rule applies to each file; with headers, every
/// file's header must equal the first one's. Class, level and group codes are shared.
TabularData readDelimitedFiles(const std::vector<std::string>& paths, const Schema& schema,
                               const ReadOptions& options = {});

/// Parses in-memory text as if it were a file called `sourceName` (used in error messages
/// and as the default data set name). Meant for tests and pasted data.
TabularData readDelimitedText(std::string_view text, std::string sourceName, const Schema& schema,
                              const ReadOptions& options = {});

}  // namespace pfa
