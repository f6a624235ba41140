#include "core/config/config_validation.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/fairness/penalty_layout.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

namespace {

template <typename T>
void require(bool ok, const char* field, T value, const std::string& rule) {
    if (ok) return;
    std::ostringstream message;
    message << field << " = " << value << " is invalid: " << rule;
    throw InputError(message.str());
}

std::string numberText(double value) { return formatNumber(value, 6); }

}  // namespace

std::string offeredEpsilonProblem(double epsilon, const std::string& name) {
    if (std::isinf(epsilon) && epsilon > 0) return "";
    if (epsilon >= kSmallestOfferedEpsilon && epsilon <= kLargestOfferedEpsilon) return "";
    const std::string range = "use a value from " + numberText(kSmallestOfferedEpsilon) + " to " +
                              numberText(kLargestOfferedEpsilon) + ", or inf for no privacy";
    if (std::isnan(epsilon)) return name + " is not a number: " + range;
    const std::string value = name + " = " + numberText(epsilon) + " is invalid: ";
    if (epsilon <= 0) return value + "a privacy budget must be positive; " + range;
    if (epsilon < kSmallestOfferedEpsilon) {
        return value + "it is below the smallest budget offered, " +
               numberText(kSmallestOfferedEpsilon) + "; " + range;
    }
    return value + "it is above the largest budget offered, " + numberText(kLargestOfferedEpsilon) +
           " (such a run is hardly private); " + range;
}

std::string deltaProblem(const TrainConfig& c, const std::string& name) {
    // δ = 0 means automatic (1/n²); a run without privacy has no δ.
    if (!c.isPrivate() || c.delta == 0.0 || c.delta < kRefusedDelta) return "";
    return name + " = " + numberText(c.delta) +
           " is invalid: an (ε, δ) guarantee may fail outright with probability δ, so at δ ≥ " +
           numberText(kRefusedDelta) +
           " it promises nothing; use a δ below 1/n (n = training rows), "
           "or auto (1/n²)";
}

std::string deltaWarning(const TrainConfig& c, long trainRows, const std::string& name) {
    // δ = 0 means automatic (1/n²), always far below 1/n.
    if (!c.isPrivate() || c.delta == 0.0 || trainRows < 1) return "";
    const double n = static_cast<double>(trainRows);
    if (c.delta < 1.0 / n) return "";
    return name + " = " + numberText(c.delta) + " is not below 1/n = " + numberText(1.0 / n) +
           " (n = " + std::to_string(trainRows) +
           " training rows): publishing each training record "
           "in full with probability " +
           name + " (about " + numberText(c.delta * n) +
           " records) would meet this guarantee; auto (1/n²) or a " + name +
           " well below 1/n protects each person";
}

void validateCommonConfig(const TrainConfig& c, const DataSplit& data, bool classification) {
    // Single values were checked against their declarations (parameters.cpp); these rules
    // need the data or whether the run is private.
    if (const std::string problem = deltaProblem(c); !problem.empty()) throw InputError(problem);
    const long n = static_cast<long>(data.train.rows());
    require(n >= 2, "training rows", n, "at least 2 training rows are needed");
    require(c.batchSize == 0 || c.batchSize <= n, "batch-size", c.batchSize,
            "it must be between 1 and the number of training rows (" + std::to_string(n) +
                "), or auto");
    require(data.test.rows() > 0, "test rows", data.test.rows(), "the test split is empty");
    if (!classification) return;  // a regression target: no classes, no groups
    if (data.train.isRegression()) {
        throw InputError(c.algorithm + " learns classes, but " + data.train.name +
                         " has a real-valued target; choose a regression algorithm");
    }
    const int k = data.train.numGroups();
    const int l = data.train.numClasses();
    require(l >= 2, "classes", l, "the label needs at least 2 classes");
    require(k >= 2, "groups", k, "the sensitive attribute needs at least 2 groups");
    require(c.advantagedClass >= 0 && c.advantagedClass < l, "advantaged-class", c.advantagedClass,
            "it must be a class index in [0, " + std::to_string(l - 1) + "]");
    require(c.minGroupShare == 0.0 || (c.minGroupShare > 0 && c.minGroupShare <= 1.0 / k),
            "min-group-share", c.minGroupShare,
            "it must lie in (0, 1/k] = (0, " + formatNumber(1.0 / k) +
                "] for k = " + std::to_string(k) + " groups (or auto: 1/(10k))");
}

void requireNoFairness(const TrainConfig& c) {
    require(c.lambda == 0.0, "lambda", c.lambda,
            c.algorithm + " has no fairness term; set lambda to 0 or use fermi/dp-fermi");
}

void requireNonPrivate(const TrainConfig& c) {
    require(!c.isPrivate(), "epsilon", c.epsilon,
            c.algorithm + " is not differentially private; use epsilon = inf (or dp-sgd/dp-fermi)");
}

void requireShareableBatches(const TrainConfig& c) {
    if (!c.isPrivate() || c.batchSharing != BatchSharing::BySeed) return;
    if (c.sampling && *c.sampling != Sampling::Poisson) {
        throw InputError(
            "batch-sharing by-seed needs Poisson sampling (the runs that share a "
            "sample are charged as one Poisson-subsampled mechanism); use "
            "--sampling poisson or batch-sharing own");
    }
    if (c.secureNoise) {
        throw InputError(
            "batch-sharing by-seed draws the shared batches from the seed; with "
            "secure noise (OS entropy) every run draws its own: use batch-sharing "
            "own");
    }
}

void requirePenaltyCellsPresent(const TrainConfig& c, const Dataset& train) {
    const PenaltyLayout layout(c.fairness, train.numGroups(), train.numClasses(),
                               c.advantagedClass);
    const Eigen::VectorXd counts = layout.cellCounts(train.y, train.s);
    for (int cell = 0; cell < layout.cells(); ++cell) {
        if (counts(cell) > 0) continue;
        throw InputError("the " + fairnessName(c.fairness) +
                         " penalty needs every group in its "
                         "training cells, but " +
                         layout.cellName(cell, train.classNames, train.groupNames) +
                         " has no training rows; merge or drop that group");
    }
}

TrainConfig resolveDefaults(TrainConfig c, const DataSplit& data) {
    const double n = static_cast<double>(data.train.rows());
    if (c.delta == 0.0) c.delta = 1.0 / (n * n);
    // 1024 as in the published experiments, but at most a quarter of the rows, so small
    // data sets still get several steps per epoch (and subsampling amplification).
    if (c.batchSize == 0) c.batchSize = static_cast<int>(std::clamp(n / 4.0, 1.0, 1024.0));
    if (!c.sampling) c.sampling = c.isPrivate() ? Sampling::Poisson : Sampling::Shuffle;
    // Neighbours that differ in one record's sensitive attribute are a replacement; fixed-size
    // batches (n public) are analysed under replace-one too (privacy-accounting.md §1, §6).
    if (c.scope == ProtectionScope::SensitiveOnly) c.adjacency = privacy::Adjacency::Replace;
    if (c.isPrivate() && *c.sampling != Sampling::Poisson)
        c.adjacency = privacy::Adjacency::Replace;
    const double l = data.train.numClasses();
    if (c.minGroupShare == 0.0) {
        // A fifth of an equal share: minorities of 5–15 % are common (Law School, COMPAS race,
        // German age), and a share floored far above its true value mutes the penalty for that
        // group. Within-label shares (equalized odds, equal opportunity) are usually more
        // skewed than overall shares, so their default bound is half as large.
        const double groupsFactor = c.fairness == FairnessNotion::DemographicParity ? 10.0 : 20.0;
        c.minGroupShare = 1.0 / (groupsFactor * data.train.numGroups());
    }
    // Averaging is post-processing of the released iterates; the published calibration keeps
    // the paper's last iterate so that its runs reproduce the paper.
    if (!c.averaging) {
        c.averaging = c.isPrivate() && c.calibration == Calibration::Conservative
                          ? IterateAveraging::PolynomialDecay
                          : IterateAveraging::None;
    }
    if (c.wRadius == 0.0) c.wRadius = std::sqrt(l / c.minGroupShare);
    if (c.clipW == 0.0) c.clipW = 2.0 * c.lambda * (1.0 / std::sqrt(c.minGroupShare) + c.wRadius);
    return c;
}

TrainConfig resolveUserLevelDefaults(const TrainConfig& requested, const DataSplit& data,
                                     long users) {
    TrainConfig c = requested;
    if (c.delta == 0.0 && users > 0) {
        c.delta = 1.0 / (static_cast<double>(users) * static_cast<double>(users));
    }
    c = resolveDefaults(c, data);
    c.batchSize = requested.batchSize;
    return c;
}

}  // namespace pfa
