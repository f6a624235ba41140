#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace pfa {

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
