#include "core/fairness/fairness_notion.h"

#include "core/util/error.h"

namespace pfa {

std::string fairnessCode(FairnessNotion notion) {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return "dp";
        case FairnessNotion::EqualizedOdds:
            return "eo";
        case FairnessNotion::EqualOpportunity:
            return "eopp";
    }
    return "dp";
}

std::string fairnessName(FairnessNotion notion) {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return "demographic parity";
        case FairnessNotion::EqualizedOdds:
            return "equalized odds";
        case FairnessNotion::EqualOpportunity:
            return "equal opportunity";
    }
    return "demographic parity";
}

FairnessNotion parseFairnessNotion(const std::string& text) {
    if (text == "dp" || text == "demographic-parity") return FairnessNotion::DemographicParity;
    if (text == "eo" || text == "equalized-odds") return FairnessNotion::EqualizedOdds;
    if (text == "eopp" || text == "equal-opportunity") return FairnessNotion::EqualOpportunity;
    throw InputError("unknown fairness notion '" + text +
                     "': use dp (demographic parity), eo (equalized odds) or eopp (equal "
                     "opportunity)");
}

}  // namespace pfa
