#pragma once

// What other layers may know of DP-SGD by name.

namespace pfa {

/// DP-SGD's registry name: the privacy audit offers it first and breaks its noise on purpose
/// (core/audit/broken_dp_sgd.h) to show that the audit detects a false ε.
inline constexpr const char* kDpSgdName = "dp-sgd";

}  // namespace pfa
