#pragma once

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/util/json_value.h"

namespace pfa {

/// A line of a results file that could not be read, and why (in words for users).
struct DamagedLine {
    long line = 0;       ///< 1-based line number
    std::string reason;  ///< e.g. "not a JSON record", "cut off: the file ends in mid-line"
};

/// A JSON-lines results file as read back: one record per complete line.
struct ResultsFileContent {
    std::vector<std::string> lines;  ///< the complete, parseable lines, in file order
    std::vector<JsonValue> records;  ///< the same lines parsed
    std::vector<long> recordLines;   ///< the 1-based line number of each record
    std::size_t damagedLines = 0;    ///< lines that did not parse (e.g. cut by a crash)
    /// The first kListedDamagedLines damaged lines, with the reason.
    std::vector<DamagedLine> damaged;
};

/// At most this many damaged lines are listed one by one (all are counted).
inline constexpr std::size_t kListedDamagedLines = 50;

/// Reads `path` (a missing file reads as empty). A last line without its newline (a write
/// interrupted by a crash or power cut) counts as damaged.
ResultsFileContent readResultsFile(const std::string& path);

/// "'passwd' is not a results file: none of its 24 lines is a record (...)": the message for
/// a file `content` was read from that holds lines but no record at all.
std::string notAResultsFile(const std::string& path, const ResultsFileContent& content);

/// The run keys of the records in `path` (records without a key are ignored).
std::set<std::string> completedRunKeys(const std::string& path);

/// Cuts an incomplete last line (no trailing newline) off `path`, so the next append starts
/// on a clean line. Returns the number of bytes removed.
std::uint64_t repairResultsFile(const std::string& path);

/// Appends lines to a results file and forces each to stable storage before returning, so a
/// crash or power cut loses no finished run.
class ResultsAppender {
public:
    /// Opens `path` for appending (after repairResultsFile); "" appends nowhere.
    explicit ResultsAppender(const std::string& path);
    ~ResultsAppender();
    ResultsAppender(const ResultsAppender&) = delete;
    ResultsAppender& operator=(const ResultsAppender&) = delete;

    /// Writes `line` plus a newline, flushes and fsyncs. Not thread-safe: serialise calls.
    void append(const std::string& line);

private:
    std::FILE* m_file = nullptr;
};

/// Summary of a merge.
struct MergeReport {
    std::size_t inputRecords = 0;
    std::size_t written = 0;
    std::size_t duplicates = 0;  ///< records whose run key was already written
    std::size_t damaged = 0;     ///< unparseable lines skipped
    std::size_t withoutKey = 0;  ///< records without a run key (kept)
};

/// Merges results files into `output` (overwritten): every record once per run key, in the
/// order first seen. Throws InputError when an input cannot be read, is not a results file
/// (lines, but not one record) or the output cannot be written.
MergeReport mergeResultsFiles(const std::vector<std::string>& inputs, const std::string& output);

}  // namespace pfa
