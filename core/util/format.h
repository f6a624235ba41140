#pragma once

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

namespace pfa {

/// `value` with `digits` significant digits in the "%g" style, independent of the C locale
/// (std::to_chars): files, run keys and noise-stream derivations must not change with the
/// user's decimal separator. Non-finite values give "inf", "-inf", "nan".
inline std::string formatPortable(double value, int digits = 17) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
    return std::string(buffer, result.ptr);
}

/// Parses the whole of `text` as a number, independent of the C locale; false when it is not
/// exactly one number (out-of-range values are refused too).
inline bool parsePortable(std::string_view text, double& out) {
    if (text.empty()) return false;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), out);
    return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

/// `value` with `digits` significant digits ("%g" style); "inf", "-inf", "nan" spelled out.
inline std::string formatNumber(double value, int digits = 4) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

/// `value` with a fixed number of decimals.
inline std::string formatFixed(double value, int decimals) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

}  // namespace pfa
