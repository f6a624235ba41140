#pragma once

#include <string>

namespace pfa {

/// Which independence the ERMI penalty and the headline violation measure.
enum class FairnessNotion {
    DemographicParity,  ///< ŷ independent of s
    EqualizedOdds,      ///< ŷ independent of s given y
    EqualOpportunity,   ///< ŷ independent of s given y = y* (the advantaged label)
};

/// Short code used on the command line and in result files: "dp", "eo", "eopp".
std::string fairnessCode(FairnessNotion notion);
/// Human name: "demographic parity", ...
std::string fairnessName(FairnessNotion notion);
/// Parses "dp" | "eo" | "eopp" (also the long names); throws InputError otherwise.
FairnessNotion parseFairnessNotion(const std::string& text);

}  // namespace pfa
