#pragma once

// Neighbouring data sets for the privacy tests: small data of each kind the algorithms take,
// and pairs (D, D') that differ in one unit of privacy, built by hand.
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/privacy/accounting_inputs.h"

namespace pfa::test {

/// The data the neighbour tests run on.
struct NeighbourData {
    DataSplit rows;        ///< classification, two groups, 4 silos (random, equal)
    DataSplit regression;  ///< a linear-Gaussian regression target
    DataSplit users;       ///< classification with user ids (several rows per user)
};
/// Built once per test process.
const NeighbourData& neighbourData();

/// One neighbouring pair.
struct Neighbour {
    std::string name;  ///< e.g. "remove the last record", "replace a user by extreme rows"
    DataSplit d;       ///< the unit that differs is the last one (its rows last)
    DataSplit dPrime;
};

/// The pairs of `data` under `adjacency`: the last unit (a record, or the user with the largest
/// id, whose rows are moved to the end of D) removed, as it is or made adversarial first
/// (add/remove), or replaced (replace-one) by an adversarial unit — extreme features, flipped label
/// and group, a huge target — and, for users, by a single such row; with `sensitiveOnly` only the
/// sensitive attribute changes.
std::vector<Neighbour> neighboursOf(const DataSplit& data, bool users, privacy::Adjacency adjacency,
                                    bool sensitiveOnly);

}  // namespace pfa::test
