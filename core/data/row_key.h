#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>

#include "core/data/dataset.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// A 64-bit key of one row computed from that row's own raw values (numbers, category names,
/// label and group names, target, user name), never from other rows: what a per-row choice
/// that must not depend on the rest of the data is made from (e.g. which rows are public).
std::uint64_t rowContentKey(const TabularData& data, std::size_t row);

/// The key of row `row` of `part`: its rowKeys entry, or — for data built in memory without
/// keys — a hash of the row's encoded values (features, label, group, target).
std::uint64_t rowKey(const Dataset& part, Eigen::Index row);

/// A uniform number in [0, 1) from a row key and a salt (e.g. a seed): equal inputs, equal
/// outputs; independent-looking across keys and salts.
double rowUniform(std::uint64_t key, std::uint64_t salt);

}  // namespace pfa
