#pragma once

#include <string>
#include <vector>

#include "core/config/run_result.h"
#include "core/util/json_value.h"

namespace pfa {

/// What a run's guarantee protects, as its record states it: the unit of privacy, the
/// adjacency and the scope. Two private runs whose protections differ make claims about
/// different things, so their ε are not comparable; every view that compares runs shows it.
struct RunProtection {
    bool isPrivate = false;
    /// The unit of privacy: "record", "recording", "user", … ("" when the record lacks it).
    std::string unit;
    /// "add/remove-one" or "replace-one" ("" when the record lacks it).
    std::string adjacency;
    /// Only the sensitive attribute is protected (scope sensitive-only); features and labels
    /// are treated as public.
    bool sensitiveOnly = false;

    /// In words, for tooltips, legends and tables: "record, add/remove-one", "a record's
    /// sensitive attribute, replace-one", "user, replace-one", "not private".
    std::string label() const;
    /// Whether two runs protect the same thing (non-private runs all compare equal).
    bool operator==(const RunProtection& other) const;
    bool operator!=(const RunProtection& other) const { return !(*this == other); }
};

/// The protection of a run (its privacy report and the scope it ran with).
RunProtection runProtection(const RunResult& run);

/// The protection a result record states: privacy.unit, privacy.adjacency and the scope
/// (settings.scope, else the wording of privacy.protected). Records written before some of
/// these fields existed read with the missing part empty.
RunProtection runProtectionOfRecord(const JsonValue& record);

/// Empty when the private runs among `runs` all share one protection (non-private runs, the
/// ε = ∞ references, are left out); otherwise a one-paragraph warning naming each protection
/// with its number of runs, in order of first appearance.
std::string mixedProtectionWarning(const std::vector<RunProtection>& runs);

/// The one protection the private runs among `runs` share, as label() says it; "" when they
/// differ or none is private.
std::string sharedProtectionLabel(const std::vector<RunProtection>& runs);

}  // namespace pfa
