#pragma once

#include <Eigen/Core>
#include <vector>

#include "core/data/dataset.h"
#include "core/fairness/fairness_notion.h"

namespace pfa {

/// Exponential Rényi mutual information (dp-fermi.md §4) between predictions and groups.
///
/// "Soft" variants take class probabilities F (N × l); "hard" variants take predicted class
/// indices ŷ. Terms with q_j = 0 or π_r = 0 are skipped. For the conditional notions, rows are
/// restricted to one label (`EqualOpportunity`, label `advantagedClass`) or weighted over all
/// labels (`EqualizedOdds`, Σ_c (n_c/N)·ERMI_c).
struct Ermi {
    /// ERMI for demographic parity over all rows (§4.1).
    static double soft(const Eigen::Ref<const RowMatrix>& F,
                       const Eigen::Ref<const Eigen::VectorXi>& s, int groups);
    static double hard(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                       const Eigen::Ref<const Eigen::VectorXi>& s, int groups, int classes);

    /// ERMI for `notion` (§4.1–4.3); y are the true labels.
    static double soft(FairnessNotion notion, const Eigen::Ref<const RowMatrix>& F,
                       const Eigen::Ref<const Eigen::VectorXi>& s,
                       const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int advantagedClass);
    static double hard(FairnessNotion notion, const Eigen::Ref<const Eigen::VectorXi>& predicted,
                       const Eigen::Ref<const Eigen::VectorXi>& s,
                       const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int classes,
                       int advantagedClass);

    /// ERMI of every notion, hard (from ŷ) and soft (from F, when it has a row per prediction;
    /// NaN otherwise), in one pass over the rows: the same numbers, bit for bit, as the six
    /// calls above (each sum adds the same terms in the same row order).
    struct AllNotions {
        double dpHard = 0.0, eoHard = 0.0, eoppHard = 0.0;
        double dpSoft = 0.0, eoSoft = 0.0, eoppSoft = 0.0;
    };
    static AllNotions all(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                          const Eigen::Ref<const RowMatrix>& F,
                          const Eigen::Ref<const Eigen::VectorXi>& s,
                          const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int classes,
                          int advantagedClass);

    /// What all() reads of the rows, counted in one pass: rows per (label, group, prediction)
    /// and, when `soft`, the probability mass per (class, group) over all rows and over each
    /// label's rows, each sum adding its rows' masses in row order.
    struct Cells {
        Cells(int groups, int classes, bool soft);
        int groups, classes;
        bool soft;
        long rows = 0;
        std::vector<long> counts;       ///< [(label·groups + group)·classes + prediction]
        std::vector<double> allSoft;    ///< [class·groups + group]
        std::vector<double> labelSoft;  ///< [(label·classes + class)·groups + group]

        /// Counts one row (group, label and prediction in range: the caller checks) whose
        /// masses are added by `mass(class)` for class 0 … classes − 1, in that order.
        template <typename Mass>
        void add(int group, int label, int prediction, Mass&& mass) {
            ++rows;
            ++counts[static_cast<std::size_t>((label * groups + group) * classes + prediction)];
            if (!soft) return;
            double* ofLabel = labelSoft.data() + label * classes * groups;
            for (int j = 0; j < classes; ++j) {
                const double m = mass(j);
                allSoft[static_cast<std::size_t>(j * groups + group)] += m;
                ofLabel[j * groups + group] += m;
            }
        }
    };
    /// Adds every row of `predicted` (hard predictions ŷ), with its masses F(i, ·) when `soft`,
    /// groups s and labels y. False, having stopped, at the first row whose group, label or
    /// prediction is out of range (then the caller reads the rows another way).
    static bool countCells(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                           const Eigen::Ref<const RowMatrix>& F,
                           const Eigen::Ref<const Eigen::VectorXi>& s,
                           const Eigen::Ref<const Eigen::VectorXi>& y, Cells& cells);
    /// all() of the rows counted in `cells` (advantagedClass in range).
    static AllNotions fromCells(const Cells& cells, int advantagedClass);

    /// Closed-form maximiser W*_rj = J_jr / (√π_r · q_j) of §4.4 (k × l), for the rows whose
    /// label equals `onlyLabel` (or all rows when onlyLabel < 0). Entries for empty cells are 0.
    static Eigen::MatrixXd maximiser(const Eigen::Ref<const RowMatrix>& F,
                                     const Eigen::Ref<const Eigen::VectorXi>& s,
                                     const Eigen::Ref<const Eigen::VectorXi>& y, int groups,
                                     int onlyLabel = -1);
};

}  // namespace pfa
