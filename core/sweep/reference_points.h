#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pfa {

/// A published result to draw next to ours: one row of a reference CSV with the columns
/// dataset, method, fairness, epsilon, lambda, error, violation (any order; extra columns are
/// ignored; epsilon may be "inf", lambda may be empty).
struct ReferencePoint {
    std::string dataset;
    std::string method;
    std::string fairness;  ///< "dp", "eo" or "eopp"
    double epsilon = 0.0;
    double lambda = 0.0;  ///< NaN when not given
    double error = 0.0;
    double violation = 0.0;
    long line = 0;  ///< 1-based line in the file
};

/// Parses reference points; throws InputError naming the file, line and column of the first
/// problem (missing column in the header, wrong field count, a value that is not a number, an
/// error or violation outside [0, 1], an unknown fairness notion).
std::vector<ReferencePoint> parseReferencePoints(std::string_view text, const std::string& source);

/// Reads and parses a reference CSV file.
std::vector<ReferencePoint> readReferencePoints(const std::string& path);

}  // namespace pfa
