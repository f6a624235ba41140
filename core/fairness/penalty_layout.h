#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "core/fairness/fairness_notion.h"

namespace pfa {

/// Arrangement of the adversary matrix W for a fairness notion (dp-fermi.md §5.4).
///
/// W has `blocks() · groups` rows and `classes` columns. A *cell* is one row of W: for
/// demographic parity the cell of a training row is its group s (one block); for equalized
/// odds it is (label y, group s), i.e. row y·k + s (one block per label); for equal
/// opportunity only rows with y = y* take part (cell s) and every other row is inactive.
/// Each cell has a share π: the group share (DP), or the within-label share π_{s|y}.
class PenaltyLayout {
public:
    PenaltyLayout(FairnessNotion notion, int groups, int classes, int advantagedClass);

    FairnessNotion notion() const { return m_notion; }
    int groups() const { return m_groups; }
    int classes() const { return m_classes; }
    int blocks() const { return m_notion == FairnessNotion::EqualizedOdds ? m_classes : 1; }
    int cells() const { return blocks() * m_groups; }

    /// Cell (row of W) of a training row with label y and group s; −1 if inactive.
    int cellOf(int y, int s) const {
        switch (m_notion) {
            case FairnessNotion::DemographicParity:
                return s;
            case FairnessNotion::EqualizedOdds:
                return y * m_groups + s;
            case FairnessNotion::EqualOpportunity:
                return y == m_advantagedClass ? s : -1;
        }
        return -1;
    }
    int blockOfCell(int cell) const { return cell / m_groups; }
    /// Same notion, groups, classes and advantaged class: the same cells for every row.
    bool operator==(const PenaltyLayout&) const = default;

    /// Rows per cell, counted over (y, s).
    Eigen::VectorXd cellCounts(const Eigen::Ref<const Eigen::VectorXi>& y,
                               const Eigen::Ref<const Eigen::VectorXi>& s) const;

    /// Shares per cell: count / (total count of the cell's block).
    Eigen::VectorXd sharesFromCounts(const Eigen::VectorXd& counts) const;

    /// Human name of a cell ("group Female", "label 1, group Female").
    std::string cellName(int cell, const std::vector<std::string>& classNames,
                         const std::vector<std::string>& groupNames) const;

private:
    FairnessNotion m_notion;
    int m_groups;
    int m_classes;
    int m_advantagedClass;
};

}  // namespace pfa
