#include "core/util/number_list.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

std::string_view trimmed(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && blank(text.back())) text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(
            start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

/// The shortest text that reads back as `value` (0.1, not 0.10000000000000001).
std::string shortest(double value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

bool isInfinityWord(std::string_view text) {
    if (text == "∞" || text == "+∞") return true;
    double value = 0.0;
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    return parsePortable(text, value) && std::isinf(value) && value > 0;
}

double parseItemNumber(std::string_view text, bool allowInfinity) {
    if (allowInfinity && isInfinityWord(text)) return std::numeric_limits<double>::infinity();
    // from_chars takes no '+', but people write "+1" (and strtod takes it); not "+-1".
    std::string_view digits = text;
    bool secondSign = false;
    if (!digits.empty() && digits.front() == '+') {
        digits.remove_prefix(1);
        secondSign = !digits.empty() && (digits.front() == '-' || digits.front() == '+');
    }
    double value = 0.0;
    if (secondSign || !parsePortable(digits, value) || !std::isfinite(value)) {
        throw InputError(quoted(text) + " is not a " +
                         (allowInfinity ? "number or inf" : "finite number"));
    }
    return value;
}

void checkCount(int count) {
    if (count < 2 || static_cast<std::size_t>(count) > kMaxNumberListValues) {
        throw InputError("the count must be a whole number from 2 to " +
                         std::to_string(kMaxNumberListValues));
    }
}

void checkBounds(double from, double to) {
    if (!std::isfinite(from) || !std::isfinite(to))
        throw InputError("the bounds must be finite numbers");
    if (!(from < to)) {
        throw InputError("the first bound (" + shortest(from) + ") must be below the second (" +
                         shortest(to) + ")");
    }
}

void checkDistinct(const std::vector<double>& values) {
    for (std::size_t i = 1; i < values.size(); ++i) {
        if (values[i] == values[i - 1]) {
            throw InputError("values repeat after rounding to " +
                             std::to_string(kGeneratedValueDigits) + " significant digits (" +
                             shortest(values[i]) + "); use fewer values or a wider range");
        }
    }
}

/// One `log:FROM:TO:COUNT` or `lin:FROM:TO:COUNT` item; `kind` is already known to be one.
std::vector<double> expandGenerator(std::string_view kind, std::string_view item) {
    const std::vector<std::string_view> fields = split(item, ':');
    if (fields.size() != 4) throw InputError("expected " + std::string(kind) + ":FROM:TO:COUNT");
    const double from = parseItemNumber(trimmed(fields[1]), false);
    const double to = parseItemNumber(trimmed(fields[2]), false);
    const std::string_view countText = trimmed(fields[3]);
    double count = 0.0;
    if (!parsePortable(countText, count) || count != std::floor(count) || count < 2 ||
        count > static_cast<double>(kMaxNumberListValues)) {
        throw InputError("the count " + quoted(countText) + " must be a whole number from 2 to " +
                         std::to_string(kMaxNumberListValues));
    }
    return kind == "log" ? logSpacedValues(from, to, static_cast<int>(count))
                         : linearSpacedValues(from, to, static_cast<int>(count));
}

}  // namespace

double roundToSignificantDigits(double value, int digits) {
    if (value == 0.0 || !std::isfinite(value)) return value;
    double rounded = value;
    parsePortable(formatPortable(value, digits), rounded);
    return rounded;
}

std::vector<double> logSpacedValues(double from, double to, int count) {
    checkCount(count);
    checkBounds(from, to);
    if (!(from > 0.0)) {
        throw InputError("log-spaced values need bounds above 0 (got " + shortest(from) + ")");
    }
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(count));
    const double logFrom = std::log(from), logTo = std::log(to);
    for (int i = 0; i < count; ++i) {
        // The last value is `to` itself, not exp(log(to)) one ulp off.
        const double raw =
            i == count - 1 ? to : std::exp(logFrom + (logTo - logFrom) * i / (count - 1));
        values.push_back(roundToSignificantDigits(raw, kGeneratedValueDigits));
    }
    checkDistinct(values);
    return values;
}

std::vector<double> linearSpacedValues(double from, double to, int count) {
    checkCount(count);
    checkBounds(from, to);
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(count));
    // Below this a value is cancellation noise of a range that crosses 0 (lin:-1:1:5 must
    // give 0, not 1.1e-16, which rounding would keep).
    const double zeroNoise = 1e-12 * std::max(std::fabs(from), std::fabs(to));
    for (int i = 0; i < count; ++i) {
        const double t = static_cast<double>(i) / (count - 1);
        double raw = i == count - 1 ? to : from + (to - from) * t;
        if (std::fabs(raw) < zeroNoise) raw = 0.0;
        values.push_back(roundToSignificantDigits(raw, kGeneratedValueDigits));
    }
    checkDistinct(values);
    return values;
}

bool numberListHasGenerator(std::string_view text) {
    // As parseNumberList reads it: an item with a colon is a generator (or a mistake in one).
    for (std::string_view item : split(text, ',')) {
        if (item.find(':') != std::string_view::npos) return true;
    }
    return false;
}

std::vector<double> parseNumberList(std::string_view text, bool allowInfinity) {
    std::vector<double> values;
    const auto add = [&](double value) {
        if (std::find(values.begin(), values.end(), value) != values.end()) return;
        if (values.size() == kMaxNumberListValues) {
            throw InputError("the list holds more than " + std::to_string(kMaxNumberListValues) +
                             " values");
        }
        values.push_back(value);
    };
    for (std::string_view item : split(text, ',')) {
        item = trimmed(item);
        if (item.empty()) continue;
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos) {
            add(parseItemNumber(item, allowInfinity));
            continue;
        }
        const std::string_view kind = trimmed(item.substr(0, colon));
        if (kind != "log" && kind != "lin") {
            throw InputError(quoted(item) + ": unknown generator " + quoted(kind) +
                             " (use log:FROM:TO:COUNT or lin:FROM:TO:COUNT)");
        }
        try {
            for (double value : expandGenerator(kind, item)) add(value);
        } catch (const InputError& error) {
            throw InputError(quoted(item) + ": " + error.what());
        }
    }
    if (values.empty()) throw InputError("give at least one value");
    return values;
}

}  // namespace pfa
