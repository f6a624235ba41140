#include "core/sweep/results_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/error.h"

namespace pfa {

namespace {

std::string readWhole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read results file '" + path + "': " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

std::string notAResultsFile(const std::string& path, const ResultsFileContent& content) {
    std::string text("'");
    return text.append(path)
        .append("' is not a results file: none of its ")
        .append(std::to_string(content.damagedLines))
        .append(content.damagedLines == 1 ? " line is a record" : " lines is a record")
        .append(
            " (results files hold one JSON record per line, as pfa-cli train --out writes them)");
}

ResultsFileContent readResultsFile(const std::string& path) {
    ResultsFileContent content;
    if (path.empty() || !std::filesystem::exists(path)) return content;
    const std::string text = readWhole(path);
    auto damaged = [&content](long line, std::string reason) {
        ++content.damagedLines;
        if (content.damaged.size() < kListedDamagedLines)
            content.damaged.push_back({line, std::move(reason)});
    };
    std::size_t start = 0;
    long number = 0;
    while (start < text.size()) {
        ++number;
        const std::size_t end = text.find('\n', start);
        if (end == std::string::npos) {  // cut off mid-write
            damaged(number, "cut off: the file ends in the middle of this line");
            break;
        }
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        try {
            content.records.push_back(parseJson(line));
            content.lines.push_back(line);
            content.recordLines.push_back(number);
        } catch (const InputError&) {
            damaged(number, "not a JSON record");
        }
    }
    return content;
}

std::set<std::string> completedRunKeys(const std::string& path) {
    std::set<std::string> keys;
    for (const JsonValue& record : readResultsFile(path).records) {
        if (record.has("run_key")) keys.insert(record.at("run_key").asString());
    }
    return keys;
}

std::uint64_t repairResultsFile(const std::string& path) {
    if (path.empty() || !std::filesystem::exists(path)) return 0;
    const std::string text = readWhole(path);
    if (text.empty() || text.back() == '\n') return 0;
    const std::size_t lastNewline = text.rfind('\n');
    const std::uint64_t keep = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    std::filesystem::resize_file(path, keep);
    return text.size() - keep;
}

ResultsAppender::ResultsAppender(const std::string& path) {
    if (path.empty()) return;
    repairResultsFile(path);
    m_file = std::fopen(path.c_str(), "a");
    if (!m_file) {
        throw InputError("cannot open results file '" + path +
                         "' for appending: " + std::strerror(errno));
    }
}

ResultsAppender::~ResultsAppender() {
    if (m_file) std::fclose(m_file);
}

void ResultsAppender::append(const std::string& line) {
    if (!m_file) return;
    std::fputs(line.c_str(), m_file);
    std::fputc('\n', m_file);
    std::fflush(m_file);
    ::fsync(::fileno(m_file));  // survive a power cut, not just a crash
}

MergeReport mergeResultsFiles(const std::vector<std::string>& inputs, const std::string& output) {
    MergeReport report;
    std::set<std::string> seen;
    std::string merged;
    for (const std::string& input : inputs) {
        if (!std::filesystem::exists(input))
            throw InputError("results file '" + input + "' does not exist");
        const ResultsFileContent content = readResultsFile(input);
        if (content.records.empty() && content.damagedLines > 0)
            throw InputError(notAResultsFile(input, content));
        report.damaged += content.damagedLines;
        for (std::size_t i = 0; i < content.records.size(); ++i) {
            ++report.inputRecords;
            const JsonValue& record = content.records[i];
            if (record.has("run_key")) {
                if (!seen.insert(record.at("run_key").asString()).second) {
                    ++report.duplicates;
                    continue;
                }
            } else {
                ++report.withoutKey;
            }
            merged += content.lines[i];
            merged += '\n';
            ++report.written;
        }
    }
    const std::string temporary = output + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw InputError("cannot write '" + output + "': " + std::strerror(errno));
        out << merged;
        if (!out.flush())
            throw InputError("cannot write '" + output + "': " + std::strerror(errno));
    }
    std::filesystem::rename(temporary, output);  // atomic: no half-written merge
    return report;
}

}  // namespace pfa
