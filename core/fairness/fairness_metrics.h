#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/fairness/fairness_notion.h"

namespace pfa {

/// One row of the per-group table. Rates are about the advantaged ("positive") class y*.
/// A rate whose conditioning set is empty is NaN (shown as "–" / JSON null).
struct GroupRow {
    std::string group;
    long n = 0;
    double baseRate = 0.0;           ///< P[y = y* | s]
    double selectionRate = 0.0;      ///< P[ŷ = y* | s]
    double truePositiveRate = 0.0;   ///< P[ŷ = y* | s, y = y*]
    double falsePositiveRate = 0.0;  ///< P[ŷ = y* | s, y ≠ y*]
    double accuracy = 0.0;           ///< P[ŷ = y | s]
};

/// Accuracy and fairness of hard predictions on one set of rows (dp-fermi.md §8). Cells
/// with no rows are skipped; a maximum over an empty set is 0.
///
/// Formulas (P = empirical frequency on the evaluated rows, ŷ = hard prediction):
///  * error             = P[ŷ ≠ y]
///  * dpGap             = max_c max_{a,b} |P[ŷ=c | s=a] − P[ŷ=c | s=b]|
///  * dpGapVsMarginal   = max_{c,a} |P[ŷ=c | s=a] − P[ŷ=c]|
///  * eoGap             = max_c max_{a,b} max(|P[ŷ=c | s=a,y=c] − P[ŷ=c | s=b,y=c]|,
///                                            |P[ŷ=c | s=a,y≠c] − P[ŷ=c | s=b,y≠c]|)
///                        (binary: max(|ΔTPR|, |ΔFPR|))
///  * eoppGap           = max_{a,b} |P[ŷ=y* | s=a,y=y*] − P[ŷ=y* | s=b,y=y*]|
///  * ERMI (hard on one-hot ŷ; soft on probabilities) for every notion, §4.
struct FairnessMetrics {
    long rows = 0;
    double error = 0.0;
    double dpGap = 0.0;
    double dpGapVsMarginal = 0.0;
    double eoGap = 0.0;
    double eoppGap = 0.0;
    double ermiDpHard = 0.0, ermiDpSoft = 0.0;
    double ermiEoHard = 0.0, ermiEoSoft = 0.0;
    double ermiEoppHard = 0.0, ermiEoppSoft = 0.0;
    std::vector<GroupRow> groups;

    /// The gap of the chosen notion (the headline "fairness violation").
    double violation(FairnessNotion notion) const;
    /// Hard / soft ERMI of the chosen notion.
    double ermiHard(FairnessNotion notion) const;
    double ermiSoft(FairnessNotion notion) const;
};

/// Evaluates hard predictions `predicted` (and, for soft ERMI, probabilities F, which may have
/// zero rows to skip the soft values) against labels y and groups s. Throws
/// std::invalid_argument for a group, label or prediction out of range (groups 0 … k − 1 of
/// the k group names, labels and predictions 0 … classes − 1), an advantaged class out of
/// range, or vectors of different lengths: as do the two functions below.
FairnessMetrics evaluateFairness(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                                 const Eigen::Ref<const RowMatrix>& F,
                                 const Eigen::Ref<const Eigen::VectorXi>& y,
                                 const Eigen::Ref<const Eigen::VectorXi>& s,
                                 const std::vector<std::string>& groupNames, int classes,
                                 int advantagedClass);

/// evaluateFairness of a binary classifier given each row's probability of class 1, `probOne`:
/// predictions ŷ = [probOne ≥ ½] and probabilities F = (1 − probOne, probOne), counted in one
/// pass over the rows without forming ŷ or F. The same numbers, bit for bit.
FairnessMetrics evaluateBinaryFairness(const Eigen::Ref<const Eigen::VectorXd>& probOne,
                                       const Eigen::Ref<const Eigen::VectorXi>& y,
                                       const Eigen::Ref<const Eigen::VectorXi>& s,
                                       const std::vector<std::string>& groupNames,
                                       int advantagedClass);

/// The same metrics for a randomised binary classifier evaluated in expectation
/// (baselines.md §0): row i predicts 1 with probability probOne(i), so every rate and the error
/// are group means of probOne rather than of hard predictions (ŷ ∈ {0, 1}, two classes). Both
/// ERMI fields hold the soft ERMI of the exact output distribution [1 − probOne, probOne].
FairnessMetrics evaluateFairnessInExpectation(const Eigen::Ref<const Eigen::VectorXd>& probOne,
                                              const Eigen::Ref<const Eigen::VectorXi>& y,
                                              const Eigen::Ref<const Eigen::VectorXi>& s,
                                              const std::vector<std::string>& groupNames,
                                              int advantagedClass);

/// The formulas above as display text (shown by the CLI and the GUI).
std::string fairnessFormulaText();

}  // namespace pfa
