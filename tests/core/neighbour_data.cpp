#include "neighbour_data.h"

#include <algorithm>
#include <numeric>

#include "core/data/linear_gaussian.h"
#include "core/data/preprocessing.h"
#include "core/data/row_key.h"
#include "core/data/silo_splitters.h"
#include "core/data/synthetic.h"

namespace pfa::test {

namespace {

/// Makes the row adversarial: every feature far out (±1000), label and group flipped, a huge
/// target; or, with `sensitiveOnly`, only the group flipped.
void makeAdversarial(Dataset& part, Eigen::Index row, bool sensitiveOnly) {
    if (part.numGroups() > 1) part.s(row) = (part.s(row) + 1) % part.numGroups();
    if (sensitiveOnly) return;
    for (Eigen::Index j = 0; j < part.features(); ++j)
        part.X(row, j) = (j % 2 == 0 ? 1000.0 : -1000.0);
    if (part.isRegression()) {
        part.target(row) = 1e6;
    } else if (part.numClasses() > 1) {
        part.y(row) = (part.y(row) + 1) % part.numClasses();
    }
}

}  // namespace

const NeighbourData& neighbourData() {
    static const NeighbourData data = [] {
        NeighbourData d;
        SyntheticOptions rows;
        rows.rows = 800;
        rows.features = 6;
        d.rows = splitAndEncode(generateSynthetic(rows));
        SiloOptions silos;
        silos.silos = 4;
        assignSilos(d.rows, makeSilos(d.rows, silos));
        LinearGaussianOptions regression;
        regression.rows = 800;
        regression.features = 5;
        d.regression = splitAndEncode(generateLinearGaussian(regression));
        SyntheticOptions users;
        users.rows = 1200;
        users.features = 6;
        users.users = 60;
        d.users = splitAndEncode(generateSynthetic(users));
        return d;
    }();
    return data;
}

std::vector<Neighbour> neighboursOf(const DataSplit& data, bool users, privacy::Adjacency adjacency,
                                    bool sensitiveOnly) {
    const Dataset& train = data.train;
    const long n = static_cast<long>(train.rows());
    // D: the unit that differs last. Records: the last row. Users: the largest id, rows moved last.
    std::vector<long> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0L);
    long unitRows = 1;
    if (users) {
        const int last = train.userId.maxCoeff();
        std::stable_partition(order.begin(), order.end(),
                              [&](long r) { return train.userId(r) != last; });
        unitRows = static_cast<long>((train.userId.array() == last).count());
    }
    DataSplit d = data;
    d.train = selectRows(train, order);
    const long kept = n - unitRows;
    // Algorithms that protect only some rows (semi-DP: the private ones) are compared on a
    // unit they protect: the rows that differ get keys that make them private for any public
    // share below 0.999 (row_key.h).
    if (d.train.rowKeys.size() == static_cast<std::size_t>(n)) {
        std::uint64_t key = 1;
        for (long r = kept; r < n; ++r) {
            while (rowUniform(key, 0) < 0.999) ++key;
            d.train.rowKeys[static_cast<std::size_t>(r)] = key++;
        }
    }
    std::vector<long> first(static_cast<std::size_t>(kept));
    std::iota(first.begin(), first.end(), 0L);

    std::vector<Neighbour> out;
    const std::string unit = users ? "user" : "record";
    if (adjacency == privacy::Adjacency::AddRemove) {
        Neighbour removed{"remove the last " + unit, d, d};
        removed.dPrime.train = selectRows(d.train, first);
        out.push_back(std::move(removed));
        // The unit removed is an extreme one (its contribution clipped, pointing away from the
        // others'), which a normaliser read from the data turns into more than one unit's share.
        Neighbour extreme{"remove an extreme " + unit, d, d};
        for (long r = kept; r < n; ++r) makeAdversarial(extreme.d.train, r, sensitiveOnly);
        extreme.dPrime.train = selectRows(extreme.d.train, first);
        out.push_back(std::move(extreme));
        return out;
    }
    Neighbour extreme{(sensitiveOnly ? "flip the sensitive attribute of the last "
                                     : "replace the last " + unit + " by extreme values"),
                      d, d};
    for (long r = kept; r < n; ++r) makeAdversarial(extreme.dPrime.train, r, sensitiveOnly);
    out.push_back(std::move(extreme));
    if (users && !sensitiveOnly) {
        // The user's rows replaced by a single extreme row: a user's row count is private too.
        Neighbour one{"replace the last user by one extreme row", d, d};
        std::vector<long> rows = first;
        rows.push_back(kept);
        one.dPrime.train = selectRows(d.train, rows);
        makeAdversarial(one.dPrime.train, kept, false);
        out.push_back(std::move(one));
    }
    return out;
}

}  // namespace pfa::test
