#include "core/data/preprocessing.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>

#include "core/data/row_key.h"
#include "core/util/error.h"
#include "core/util/random.h"
#include "core/util/release_memory.h"

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

/// A part of `rows` rows: everything but its rows' values, its features unwritten.
Dataset emptyPart(const TabularData& data, const Encoder& encoder, std::size_t rows) {
    Dataset out;
    out.name = data.name;
    out.classNames = data.classNames;
    out.groupNames = data.groupNames;
    out.sensitiveDescription = data.sensitiveDescription;
    out.unitName = data.unitName;
    out.personColumn = data.personColumn;
    out.featureNames = encoder.names;
    const auto n = static_cast<Eigen::Index>(rows);
    out.X.resizeUnwritten(n, encoder.width);
    out.y.resize(n);
    out.s.resize(n);
    if (!data.userId.empty()) out.userId.resize(n);
    out.rowKeys.resize(rows);
    if (!data.target.empty()) out.target.resize(n);
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
    return out;
}

/// Encodes raw rows rows[first … last) of `data` as rows first … last of `out`.
void encodeRowRange(const TabularData& data, const Encoder& encoder,
                    const std::vector<std::size_t>& rows, std::size_t first, std::size_t last,
                    Dataset& out) {
    for (std::size_t i = first; i < last; ++i)
        out.X.startRow(static_cast<Eigen::Index>(i)).setZero();
    Eigen::Index offset = 0;
    std::size_t numericIndex = 0;
    std::size_t categoricalIndex = 0;
    // Column by column over the block, as the columns are stored.
    for (const FeatureColumn& column : data.features) {
        if (column.kind == FeatureKind::Numeric) {
            const double mean = encoder.info.means[numericIndex];
            const double sd = encoder.info.standardDeviations[numericIndex];
            const double scale = sd > 0.0 ? 1.0 / sd : 1.0;
            for (std::size_t i = first; i < last; ++i)
                out.X(static_cast<Eigen::Index>(i), offset) =
                    (column.numeric[rows[i]] - mean) * scale;
            ++offset;
            ++numericIndex;
        } else {
            const std::vector<int>& columnOf = encoder.levelColumn[categoricalIndex];
            for (std::size_t i = first; i < last; ++i) {
                const int target = columnOf[static_cast<std::size_t>(column.codes[rows[i]])];
                if (target >= 0) out.X(static_cast<Eigen::Index>(i), target) = 1.0;
            }
            offset += static_cast<Eigen::Index>(encoder.info.keptLevels[categoricalIndex].size());
            ++categoricalIndex;
        }
    }
    for (std::size_t i = first; i < last; ++i) {
        const std::size_t row = rows[i];
        const auto k = static_cast<Eigen::Index>(i);
        out.rowKeys[i] = rowContentKey(data, row);
        out.y(k) = data.label[row];
        out.s(k) = data.group[row];
        if (!data.userId.empty()) out.userId(k) = data.userId[row];
        if (!data.target.empty()) out.target(k) = data.target[row];
    }
}

/// Indexes a part's users and silos (after its rows are encoded).
void indexUnits(const TabularData& data, const std::vector<std::size_t>& rows, Dataset& out) {
    if (!data.userId.empty()) out.users = UnitIndex(out.userId, data.userNames);
    if (!data.siloId.empty()) {
        std::vector<int> siloOfRow(rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) siloOfRow[i] = data.siloId[rows[i]];
        out.silos = UnitIndex(siloOfRow, data.siloNames);
        out.siloDescription = data.siloDescription;
    }
}

/// How many raw rows are encoded between two releases of raw memory.
constexpr std::size_t kEncodedBlockRows = 4096;

/// Encodes the rows `parts[p]` of `data` (each in ascending order) as part p. The raw rows
/// are read block by block in ascending order, every part's rows of a block together; with
/// `release`, each block's raw feature values are handed back to the system once encoded
/// (releaseMemory), so that a large data set's raw and encoded features are not held at once.
std::vector<Dataset> encodeParts(const TabularData& data, const Encoder& encoder,
                                 const std::vector<const std::vector<std::size_t>*>& parts,
                                 bool release) {
    std::vector<Dataset> out;
    std::vector<std::size_t> next(parts.size(), 0);
    for (const std::vector<std::size_t>* rows : parts) {
        if (!std::is_sorted(rows->begin(), rows->end()))
            throw std::logic_error("encodeParts: rows must be in ascending order");
        out.push_back(emptyPart(data, encoder, rows->size()));
    }
    const std::size_t n = data.rows();
    for (std::size_t begin = 0; begin < n; begin += kEncodedBlockRows) {
        const std::size_t end = std::min(n, begin + kEncodedBlockRows);
        for (std::size_t p = 0; p < parts.size(); ++p) {
            const std::vector<std::size_t>& rows = *parts[p];
            const std::size_t first = next[p];
            while (next[p] < rows.size() && rows[next[p]] < end) ++next[p];
            encodeRowRange(data, encoder, rows, first, next[p], out[p]);
        }
        if (!release) continue;
        for (const FeatureColumn& column : data.features) {
            if (!column.numeric.empty())
                releaseMemory(column.numeric.data(), column.numeric.data() + begin,
                              column.numeric.data() + end);
            if (!column.codes.empty())
                releaseMemory(column.codes.data(), column.codes.data() + begin,
                              column.codes.data() + end);
        }
    }
    for (std::size_t p = 0; p < parts.size(); ++p) {
        if (next[p] != parts[p]->size())
            throw std::logic_error("encodeParts: a row number lies beyond the data");
        indexUnits(data, *parts[p], out[p]);
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

namespace {

DataSplit splitAndEncodeParts(const TabularData& data, const SplitOptions& options, bool release) {
    const SplitRows rows = splitRows(data.rows(), options, data.name);
    const Encoder encoder = fitEncoder(data, rows.train);
    std::vector<Dataset> parts = encodeParts(data, encoder, {&rows.train, &rows.test}, release);
    DataSplit split;
    split.train = std::move(parts[0]);
    split.test = std::move(parts[1]);
    split.encoding = encoder.info;
    split.splitSeed = options.seed;
    split.testFraction = options.testFraction;
    split.splitMethod = options.method;
    return split;
}

}  // namespace

DataSplit splitAndEncode(const TabularData& data, const SplitOptions& options) {
    return splitAndEncodeParts(data, options, false);
}

DataSplit splitAndEncodeReleasing(TabularData& data, const SplitOptions& options) {
    DataSplit split = splitAndEncodeParts(data, options, true);
    for (FeatureColumn& column : data.features) {
        std::vector<double>().swap(column.numeric);
        std::vector<int>().swap(column.codes);
    }
    return split;
}

Dataset encodeAll(const TabularData& data) {
    std::vector<std::size_t> all(data.rows());
    std::iota(all.begin(), all.end(), std::size_t{0});
    return std::move(encodeParts(data, fitEncoder(data, all), {&all}, false).front());
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
