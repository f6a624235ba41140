#pragma once

#include <string>

#include "core/audit/privacy_audit.h"

namespace pfa::audit {

/// The audit as one JSON object: the mechanism, canary, score and confidence, and per target
/// ε the claimed ε, the lower bound, the attack's counts, rates and Clopper–Pearson bounds,
/// and every canary score (`dataset` describes the data set).
std::string auditJson(const AuditResult& result, const std::string& dataset);

/// The audit's numbers as CSV: a header line, then one line per target ε (actual_epsilon is
/// empty unless the mechanism is the deliberately broken one).
std::string auditCsv(const AuditResult& result);

}  // namespace pfa::audit
