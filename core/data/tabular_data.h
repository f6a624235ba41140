#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pfa {

/// How a raw feature column becomes model inputs.
enum class FeatureKind {
    Numeric,      ///< standardised (z-score with training-set statistics)
    Categorical,  ///< one-hot encoded, one column per level
};

/// One parsed (not yet encoded) feature column.
struct FeatureColumn {
    std::string name;
    FeatureKind kind = FeatureKind::Numeric;
    /// Numeric columns: one value per row.
    std::vector<double> numeric;
    /// Categorical columns: one code per row, an index into `levels`.
    std::vector<int> codes;
    /// Categorical columns: the level names, indexed by code.
    std::vector<std::string> levels;
    /// True when `levels` is a fixed, public list (from the schema): every level gets a
    /// one-hot column. False: levels were collected from the file, and only those seen in
    /// training rows get a column (test rows with an unseen level encode as all zeros).
    bool levelsDeclared = false;
};

/// A data set after parsing and before encoding: typed feature columns, the label, the
/// sensitive group and (optionally) a user id and a silo id per row. Splitting and encoding
/// happen later (see preprocessing.h), so that encoding statistics come from training rows
/// only.
struct TabularData {
    std::string name;                     ///< data set name ("adult", a file name, ...)
    std::vector<FeatureColumn> features;  ///< every column except target/sensitive/ignored
    std::vector<int> label;               ///< class index per row, in [0, classNames.size())
    std::vector<std::string> classNames;  ///< class 1 is "positive" for binary tasks
    std::vector<int> group;               ///< sensitive group per row, in [0, groupNames.size())
    std::vector<std::string> groupNames;  ///< intersectional groups are named "a & b"
    std::string sensitiveDescription;     ///< e.g. "sex" or "race & sex"
    std::vector<int> userId;              ///< empty, or one id per row (user-level units)
    std::string unitName = "record";      ///< what one row is ("record", "recording", ...)
    std::string personColumn;             ///< column of the user ids ("" when none)
    std::vector<std::string> userNames;   ///< the user column's value per user id (may be empty)
    std::vector<int> siloId;              ///< empty, or one silo id (0 … N − 1) per row
    std::vector<std::string> siloNames;   ///< name per silo id (may be empty)
    std::string siloDescription;          ///< how the silos were formed ("" without silos)
    /// Regression data: the real-valued target per row (empty for classification data, whose
    /// target is `label`). Such data has no classes and one group; `label` and `group` hold 0.
    std::vector<double> target;
    /// Regression data made by a generator that knows the true coefficients: w*_j per feature
    /// column, in the raw units of the columns (empty when unknown). Numeric columns only.
    std::vector<double> trueWeights;

    std::size_t rows() const { return label.size(); }
};

}  // namespace pfa
