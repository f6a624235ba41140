#include "core/sweep/reference_points.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

/// Splits one CSV line (double quotes, doubled quotes inside them); fields are trimmed.
std::vector<std::string> splitLine(std::string_view line, const std::string& source, long number) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.push_back(field);
            field.clear();
        } else {
            field += c;
        }
    }
    if (quoted) throw DataFileError(source, number, "", "unterminated quote");
    fields.push_back(field);
    for (std::string& f : fields) {
        const auto first = f.find_first_not_of(" \t\r");
        const auto last = f.find_last_not_of(" \t\r");
        f = first == std::string::npos ? std::string() : f.substr(first, last - first + 1);
    }
    return fields;
}

double number(const std::string& text, const std::string& source, long line,
              const std::string& column, bool allowInfinity) {
    if (allowInfinity && (text == "inf" || text == "Inf" || text == "INF" || text == "∞"))
        return INFINITY;
    double value = 0.0;
    if (!parsePortable(text, value) || !std::isfinite(value)) {
        throw DataFileError(source, line, column, "'" + text + "' is not a number");
    }
    return value;
}

}  // namespace

std::vector<ReferencePoint> parseReferencePoints(std::string_view text, const std::string& source) {
    std::vector<ReferencePoint> points;
    std::map<std::string, std::size_t> columnOf;
    std::size_t width = 0;
    long lineNumber = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            if (end == text.size()) break;
            continue;
        }
        const std::vector<std::string> fields = splitLine(line, source, lineNumber);
        if (columnOf.empty()) {  // the header
            for (std::size_t i = 0; i < fields.size(); ++i) columnOf[fields[i]] = i;
            width = fields.size();
            for (const char* required :
                 {"dataset", "method", "fairness", "epsilon", "lambda", "error", "violation"}) {
                if (!columnOf.count(required)) {
                    throw DataFileError(source, lineNumber, "",
                                        std::string("the header has no column '") + required +
                                            "' (needed: dataset, method, fairness, epsilon, "
                                            "lambda, error, violation)");
                }
            }
            continue;
        }
        if (fields.size() != width) {
            throw DataFileError(source, lineNumber, "",
                                "expected " + std::to_string(width) + " fields, found " +
                                    std::to_string(fields.size()));
        }
        auto field = [&](const char* name) -> const std::string& {
            return fields[columnOf.at(name)];
        };
        ReferencePoint p;
        p.line = lineNumber;
        p.dataset = field("dataset");
        p.method = field("method");
        if (p.method.empty())
            throw DataFileError(source, lineNumber, "method", "the method is empty");
        p.fairness = field("fairness");
        if (p.fairness != "dp" && p.fairness != "eo" && p.fairness != "eopp") {
            throw DataFileError(source, lineNumber, "fairness",
                                "'" + p.fairness + "' is not dp, eo or eopp");
        }
        p.epsilon = number(field("epsilon"), source, lineNumber, "epsilon", true);
        if (!(p.epsilon > 0))
            throw DataFileError(source, lineNumber, "epsilon", "epsilon must be > 0");
        p.lambda = field("lambda").empty()
                       ? std::nan("")
                       : number(field("lambda"), source, lineNumber, "lambda", false);
        p.error = number(field("error"), source, lineNumber, "error", false);
        p.violation = number(field("violation"), source, lineNumber, "violation", false);
        for (const auto& [name, value] :
             {std::pair<const char*, double>{"error", p.error}, {"violation", p.violation}}) {
            if (value < 0 || value > 1) {
                throw DataFileError(source, lineNumber, name,
                                    "the " + std::string(name) + " must lie in [0, 1]");
            }
        }
        points.push_back(p);
    }
    if (columnOf.empty()) throw DataFileError(source, 0, "", "the file is empty");
    return points;
}

std::vector<ReferencePoint> readReferencePoints(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw DataFileError(path, 0, "", "cannot be opened for reading");
    std::ostringstream text;
    text << in.rdbuf();
    return parseReferencePoints(text.str(), path);
}

}  // namespace pfa
