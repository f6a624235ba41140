#include "core/data/text_cells.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <system_error>

namespace pfa::detail {

NumberParse parseNumber(std::string_view s, double& out) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') {
        s.remove_prefix(1);
        if (s.empty() || s.front() == '-' || s.front() == '+') return NumberParse::NotANumber;
    }
    if (s.empty()) return NumberParse::NotANumber;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ptr != s.data() + s.size()) return NumberParse::NotANumber;
    if (ec == std::errc::result_out_of_range) return NumberParse::NotFinite;  // e.g. 1e999
    if (ec != std::errc()) return NumberParse::NotANumber;
    return std::isfinite(out) ? NumberParse::Ok : NumberParse::NotFinite;  // inf, nan
}

std::string quoteCell(std::string_view s) {
    constexpr std::size_t kMax = 60;
    std::string out = "'";
    if (s.size() > kMax) {
        // Do not cut a UTF-8 sequence in half: back up to the start of a character.
        std::size_t cut = kMax;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        out.append(s.substr(0, cut));
        out += "...";
    } else {
        out.append(s);
    }
    return out + "'";
}

std::string joinQuoted(const std::vector<std::string>& items, std::size_t maxItems) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < maxItems; ++i) {
        if (i) out += ", ";
        out += quoteCell(items[i]);
    }
    if (items.size() > maxItems) out += ", ... (" + std::to_string(items.size()) + " in all)";
    return out;
}

std::string delimiterName(char c) {
    if (c == '\t') return "tab";
    if (c == ' ') return "space";
    return std::string("'") + c + "'";
}

std::vector<std::string> uniqueNames(const std::vector<std::string>& raw) {
    std::vector<std::string> out;
    std::set<std::string> used(raw.begin(), raw.end());
    std::set<std::string> taken;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        std::string n = raw[i].empty() ? "column " + std::to_string(i + 1) : raw[i];
        if (taken.count(n)) {
            for (int k = 1;; ++k) {
                std::string candidate = n + "." + std::to_string(k);
                if (!taken.count(candidate) && !used.count(candidate)) {
                    n = std::move(candidate);
                    break;
                }
            }
        }
        taken.insert(n);
        out.push_back(std::move(n));
    }
    return out;
}

std::string formatByteSize(std::uint64_t bytes) {
    constexpr double kKiB = 1024.0;
    const double b = static_cast<double>(bytes);
    const char* unit = "bytes";
    double v = b;
    if (b >= kKiB * kKiB * kKiB) {
        unit = "GB";
        v = b / (kKiB * kKiB * kKiB);
    } else if (b >= kKiB * kKiB) {
        unit = "MB";
        v = b / (kKiB * kKiB);
    } else if (b >= kKiB) {
        unit = "KB";
        v = b / kKiB;
    } else {
        return std::to_string(bytes) + " bytes";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, v < 10 ? "%.1f %s" : "%.0f %s", v, unit);
    return buffer;
}

}  // namespace pfa::detail
