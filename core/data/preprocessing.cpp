#include "core/data/preprocessing.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <span>

#include "core/data/row_key.h"
#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

struct Encoder {
    EncodingInfo info;
    // For each categorical column: level code → one-hot column offset (−1: not encoded).
    std::vector<std::vector<int>> levelColumn;
    int width = 0;
    std::vector<std::string> names;
};

Encoder fitEncoder(const TabularData& data, const std::vector<std::size_t>& fitRows) {
    Encoder encoder;
    for (const FeatureColumn& column : data.features) {
        if (column.kind == FeatureKind::Numeric) {
            // Two-pass mean and population standard deviation (numerically stable enough
            // for features; sklearn's StandardScaler uses the same definition).
            double mean = 0.0;
            for (std::size_t row : fitRows) mean += column.numeric[row];
            mean /= static_cast<double>(fitRows.size());
            double variance = 0.0;
            for (std::size_t row : fitRows) {
                const double diff = column.numeric[row] - mean;
                variance += diff * diff;
            }
            variance /= static_cast<double>(fitRows.size());
            encoder.info.numericColumns.push_back(column.name);
            encoder.info.means.push_back(mean);
            encoder.info.standardDeviations.push_back(std::sqrt(variance));
            encoder.names.push_back(column.name);
            ++encoder.width;
        } else {
            std::vector<char> seen(column.levels.size(), column.levelsDeclared ? 1 : 0);
            if (!column.levelsDeclared) {
                for (std::size_t row : fitRows)
                    seen[static_cast<std::size_t>(column.codes[row])] = 1;
            }
            std::vector<int> offsets(column.levels.size(), -1);
            std::vector<std::string> kept;
            for (std::size_t level = 0; level < column.levels.size(); ++level) {
                if (!seen[level]) continue;
                offsets[level] = encoder.width++;
                kept.push_back(column.levels[level]);
                encoder.names.push_back(column.name + "=" + column.levels[level]);
            }
            encoder.info.categoricalColumns.push_back(column.name);
            encoder.info.keptLevels.push_back(std::move(kept));
            encoder.levelColumn.push_back(std::move(offsets));
        }
    }
    return encoder;
}

Dataset encodeRows(const TabularData& data, const Encoder& encoder,
                   const std::vector<std::size_t>& rows) {
    Dataset out;
    out.name = data.name;
    out.classNames = data.classNames;
    out.groupNames = data.groupNames;
    out.sensitiveDescription = data.sensitiveDescription;
    out.unitName = data.unitName;
    out.personColumn = data.personColumn;
    out.featureNames = encoder.names;
    const auto n = static_cast<Eigen::Index>(rows.size());
    out.X = RowMatrix::Zero(n, encoder.width);
    out.y.resize(n);
    out.s.resize(n);
    if (!data.userId.empty()) out.userId.resize(n);

    Eigen::Index offset = 0;
    std::size_t numericIndex = 0;
    std::size_t categoricalIndex = 0;
    for (const FeatureColumn& column : data.features) {
        if (column.kind == FeatureKind::Numeric) {
            const double mean = encoder.info.means[numericIndex];
            const double sd = encoder.info.standardDeviations[numericIndex];
            const double scale = sd > 0.0 ? 1.0 / sd : 1.0;
            for (Eigen::Index i = 0; i < n; ++i) {
                out.X(i, offset) =
                    (column.numeric[rows[static_cast<std::size_t>(i)]] - mean) * scale;
            }
            ++offset;
            ++numericIndex;
        } else {
            const std::vector<int>& columnOf = encoder.levelColumn[categoricalIndex];
            for (Eigen::Index i = 0; i < n; ++i) {
                const int code = column.codes[rows[static_cast<std::size_t>(i)]];
                const int target = columnOf[static_cast<std::size_t>(code)];
                if (target >= 0) out.X(i, target) = 1.0;
            }
            offset += static_cast<Eigen::Index>(encoder.info.keptLevels[categoricalIndex].size());
            ++categoricalIndex;
        }
    }
    out.rowKeys.resize(rows.size());
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::size_t row = rows[static_cast<std::size_t>(i)];
        out.rowKeys[static_cast<std::size_t>(i)] = rowContentKey(data, row);
        out.y(i) = data.label[row];
        out.s(i) = data.group[row];
        if (!data.userId.empty()) out.userId(i) = data.userId[row];
    }
    if (!data.target.empty()) {
        out.target.resize(n);
        for (Eigen::Index i = 0; i < n; ++i)
            out.target(i) = data.target[rows[static_cast<std::size_t>(i)]];
    }
    if (!data.trueWeights.empty() && data.trueWeights.size() == data.features.size() &&
        encoder.info.categoricalColumns.empty()) {
        // x_raw,j = sd_j·x_j + mean_j, so ⟨w*, x_raw⟩ = Σ_j (w*_j sd_j) x_j + Σ_j w*_j mean_j.
        const Eigen::Index d = static_cast<Eigen::Index>(data.features.size());
        out.trueWeights = Eigen::VectorXd::Zero(d + 1);
        for (Eigen::Index j = 0; j < d; ++j) {
            const double w = data.trueWeights[static_cast<std::size_t>(j)];
            const double sd = encoder.info.standardDeviations[static_cast<std::size_t>(j)];
            out.trueWeights(j) = w * (sd > 0.0 ? sd : 1.0);
            out.trueWeights(d) += w * encoder.info.means[static_cast<std::size_t>(j)];
        }
    }
    out.personalised = data.personalised;
    if (!data.userId.empty()) out.users = UnitIndex(out.userId, data.userNames);
    if (!data.siloId.empty()) {
        std::vector<int> siloOfRow(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) siloOfRow[i] = data.siloId[rows[i]];
        out.silos = UnitIndex(siloOfRow, data.siloNames);
        out.siloDescription = data.siloDescription;
    }
    return out;
}

/// Fisher–Yates with our own bounded draws, so the split is identical on every platform.
std::vector<std::size_t> seededPermutation(std::size_t n, std::uint64_t seed) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    RandomStream random(seed, streams::kSplit);
    for (std::size_t i = n - 1; i > 0; --i) {
        std::swap(order[i], order[random.uniformIndex(i + 1)]);
    }
    return order;
}

/// Python's round() of a non-negative value: halves go to the even neighbour. Written out
/// rather than std::nearbyint, which would depend on the floating-point environment.
std::size_t roundHalfToEven(double value) {
    const double below = std::floor(value);
    const double rest = value - below;
    auto result = static_cast<std::size_t>(below);
    if (rest > 0.5 || (rest == 0.5 && result % 2 == 1)) ++result;
    return result;
}

}  // namespace

std::vector<std::size_t> numpyLegacyPermutation(std::size_t n, std::uint32_t seed) {
    if (n > std::size_t{0xffffffff}) {
        throw InputError("a pandas-style split of " + std::to_string(n) +
                         " rows is not supported: numpy draws 64-bit values from 2^32 rows on");
    }
    // std::mt19937's seeding is MT19937's init_genrand, as numpy's legacy integer seeding.
    std::mt19937 generator(seed);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t i = n > 0 ? n - 1 : 0; i > 0; --i) {
        // numpy's random_interval(i): the smallest all-ones mask covering i, then rejection.
        auto max = static_cast<std::uint32_t>(i);
        std::uint32_t mask = max;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        std::uint32_t j = 0;
        do {
            j = static_cast<std::uint32_t>(generator()) & mask;
        } while (j > max);
        std::swap(order[i], order[j]);
    }
    return order;
}

SplitRows splitRows(std::size_t n, const SplitOptions& options, const std::string& name) {
    if (!(options.testFraction > 0.0 && options.testFraction < 1.0)) {
        throw InputError("test fraction " + std::to_string(options.testFraction) +
                         " is invalid: it must lie strictly between 0 and 1");
    }
    // The training rows are the first `trainRows` entries of the permutation.
    std::size_t trainRows = 0;
    if (options.method == SplitMethod::PandasSample) {
        // pandas: size = round(frac · n) with frac = 1 − test fraction.
        trainRows = roundHalfToEven((1.0 - options.testFraction) * static_cast<double>(n));
    } else {
        const auto testRows =
            static_cast<std::size_t>(std::llround(options.testFraction * static_cast<double>(n)));
        trainRows = n - std::min(testRows, n);
    }
    if (trainRows == 0 || trainRows >= n) {
        throw InputError("data set '" + name + "' has " + std::to_string(n) +
                         " rows: too few for a train/test split with test fraction " +
                         std::to_string(options.testFraction));
    }
    std::vector<std::size_t> order;
    if (options.method == SplitMethod::PandasSample) {
        if (options.seed > 0xffffffffULL) {
            throw InputError("split seed " + std::to_string(options.seed) +
                             " is invalid for a pandas split: numpy's random_state must be "
                             "below 2^32 (4294967296)");
        }
        order = numpyLegacyPermutation(n, static_cast<std::uint32_t>(options.seed));
    } else {
        order = seededPermutation(n, options.seed);
    }
    SplitRows rows;
    rows.train.assign(order.begin(), order.begin() + static_cast<long>(trainRows));
    rows.test.assign(order.begin() + static_cast<long>(trainRows), order.end());
    // Sorted row order keeps memory access sequential and the data readable.
    std::sort(rows.train.begin(), rows.train.end());
    std::sort(rows.test.begin(), rows.test.end());
    return rows;
}

DataSplit splitAndEncode(const TabularData& data, const SplitOptions& options) {
    const SplitRows rows = splitRows(data.rows(), options, data.name);
    const std::vector<std::size_t>& train = rows.train;
    const std::vector<std::size_t>& test = rows.test;

    const Encoder encoder = fitEncoder(data, train);
    DataSplit split;
    split.train = encodeRows(data, encoder, train);
    split.test = encodeRows(data, encoder, test);
    split.encoding = encoder.info;
    split.splitSeed = options.seed;
    split.testFraction = options.testFraction;
    split.splitMethod = options.method;
    return split;
}

Dataset encodeAll(const TabularData& data) {
    std::vector<std::size_t> all(data.rows());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return encodeRows(data, fitEncoder(data, all), all);
}

Dataset selectRows(const Dataset& part, const std::vector<long>& rows) {
    Dataset out;
    out.name = part.name;
    out.featureNames = part.featureNames;
    out.classNames = part.classNames;
    out.groupNames = part.groupNames;
    out.sensitiveDescription = part.sensitiveDescription;
    out.unitName = part.unitName;
    out.personColumn = part.personColumn;
    out.siloDescription = part.siloDescription;
    out.siloAssumption = part.siloAssumption;
    out.trueWeights = part.trueWeights;
    out.personalised = part.personalised;
    const auto n = static_cast<Eigen::Index>(rows.size());
    out.X.resize(n, part.features());
    out.y.resize(n);
    out.s.resize(n);
    if (part.isRegression()) out.target.resize(n);
    const bool users = part.userId.size() == part.rows();
    if (users) out.userId.resize(n);
    const bool keys = part.rowKeys.size() == static_cast<std::size_t>(part.rows());
    if (keys) out.rowKeys.resize(rows.size());
    std::vector<int> siloIds;
    for (Eigen::Index k = 0; k < n; ++k) {
        const long r = rows[static_cast<std::size_t>(k)];
        out.X.row(k) = part.X.row(r);
        out.y(k) = part.y(r);
        out.s(k) = part.s(r);
        if (part.isRegression()) out.target(k) = part.target(r);
        if (users) out.userId(k) = part.userId(r);
        if (keys)
            out.rowKeys[static_cast<std::size_t>(k)] = part.rowKeys[static_cast<std::size_t>(r)];
        if (part.silos) siloIds.push_back(part.silos->id(part.silos->unitOf(r)));
    }
    if (users) out.users = UnitIndex(out.userId);
    if (part.silos) {
        std::vector<std::string> names;
        for (long u = 0; u < part.silos->units(); ++u) {
            const auto id = static_cast<std::size_t>(part.silos->id(u));
            if (names.size() <= id) names.resize(id + 1);
            names[id] = part.silos->name(u);
        }
        out.silos = UnitIndex(std::span<const int>(siloIds), names);
    }
    return out;
}

}  // namespace pfa
