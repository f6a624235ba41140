#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/data/feature_matrix.h"
#include "core/data/split_method.h"
#include "core/data/units.h"

namespace pfa {

struct PersonalisedTruth;  // core/data/personalised.h

/// An encoded data set ready for training: numeric features X (n×d, no bias column), the
/// label y ∈ {0..l−1}, the sensitive group s ∈ {0..k−1}, an optional user id, and the rows
/// grouped by user and by silo when the data has them (for algorithms whose unit of privacy
/// is a person or an institution rather than a row). The sensitive attribute is never a column
/// of X.
struct Dataset {
    std::string name;
    FeatureMatrix X;  ///< n × d, stored with the design's bias column (feature_matrix.h)
    Eigen::VectorXi y;
    Eigen::VectorXi s;
    Eigen::VectorXi userId;  ///< empty, or one id per row
    std::vector<std::string> featureNames;
    std::vector<std::string> classNames;  ///< l names; for binary tasks class 1 is "positive"
    std::vector<std::string> groupNames;  ///< k names
    std::string sensitiveDescription;     ///< which column(s) define the groups
    std::string unitName = "record";      ///< what one row is ("record", "recording", ...)
    std::string personColumn;             ///< column the user ids come from ("" when none)
    /// This part's rows grouped by userId (unit ids are the user ids). Set by splitAndEncode
    /// and encodeAll whenever userId is; code that fills userId by hand sets it with
    /// `users = UnitIndex(userId)`.
    std::optional<UnitIndex> users;
    /// This part's rows grouped by silo (unit ids 0 … N − 1 mean the same silo in the training
    /// and the test part). Set by splitAndEncode when the data comes with silos (the synthetic
    /// generator's), or by assignSilos (silo_splitters.h); absent otherwise.
    std::optional<UnitIndex> silos;
    std::string siloDescription;  ///< how the silos were formed ("" without silos)
    /// What a per-record guarantee assumes about these silos (how a record's silo is decided);
    /// "" without silos or when they come with the data.
    std::string siloAssumption;
    /// Regression data: the real-valued target per row (empty for classification data).
    Eigen::VectorXd target;
    /// One key per row computed from that row's raw values alone (row_key.h); empty for data
    /// built in memory (rowKey then hashes the encoded row).
    std::vector<std::uint64_t> rowKeys;
    /// The generator's true coefficients in the encoded coordinates (d weights, then the bias
    /// b* = Σ_j w*_j·mean_j that standardisation moves into the intercept), so that
    /// ⟨w*, x_raw⟩ = ⟨trueWeights, (x, 1)⟩; empty when unknown.
    Eigen::VectorXd trueWeights;
    /// The generator of "synthetic-personalised" data (core/data/personalised.h), shared by the
    /// training and the test part: user ids of the rows are the truth's user indices, and its
    /// coordinates are the RAW feature units (X is standardised). Null for all other data.
    std::shared_ptr<const PersonalisedTruth> personalised;

    /// Whether the target is real-valued (regression) rather than a class.
    bool isRegression() const { return target.size() > 0; }
    Eigen::Index rows() const { return X.rows(); }
    Eigen::Index features() const { return X.cols(); }
    int numClasses() const { return static_cast<int>(classNames.size()); }
    int numGroups() const { return static_cast<int>(groupNames.size()); }
};

/// The targets a regression algorithm fits: `target` for regression data, otherwise the class
/// index as a number (a linear probability model on classification data).
inline Eigen::VectorXd regressionTargets(const Dataset& data) {
    return data.isRegression() ? data.target : Eigen::VectorXd(data.y.cast<double>());
}

/// Statistics that turned raw columns into X; all computed from training rows only.
struct EncodingInfo {
    std::vector<std::string> numericColumns;
    std::vector<double> means;
    std::vector<double> standardDeviations;
    std::vector<std::string> categoricalColumns;
    std::vector<std::vector<std::string>> keptLevels;  ///< one-hot levels per categorical column
};

/// A seeded train/test split of one data set, encoded with training-set statistics.
struct DataSplit {
    Dataset train;
    Dataset test;
    EncodingInfo encoding;
    std::uint64_t splitSeed = 0;
    double testFraction = 0.25;
    SplitMethod splitMethod = SplitMethod::Seeded;
};

}  // namespace pfa
