#pragma once

#include <string>

namespace pfa {

/// The current time in UTC as ISO 8601 ("2026-11-30T02:59:04Z"): when a record, a ledger entry
/// or an audit was written.
std::string utcNow();

}  // namespace pfa
