#include "core/fairness/penalty_layout.h"

namespace pfa {

PenaltyLayout::PenaltyLayout(FairnessNotion notion, int groups, int classes, int advantagedClass)
    : m_notion(notion), m_groups(groups), m_classes(classes), m_advantagedClass(advantagedClass) {}

Eigen::VectorXd PenaltyLayout::cellCounts(const Eigen::Ref<const Eigen::VectorXi>& y,
                                          const Eigen::Ref<const Eigen::VectorXi>& s) const {
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(cells());
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const int cell = cellOf(y(i), s(i));
        if (cell >= 0) counts(cell) += 1.0;
    }
    return counts;
}

Eigen::VectorXd PenaltyLayout::sharesFromCounts(const Eigen::VectorXd& counts) const {
    Eigen::VectorXd shares = Eigen::VectorXd::Zero(cells());
    for (int block = 0; block < blocks(); ++block) {
        const double total = counts.segment(block * m_groups, m_groups).sum();
        if (total <= 0.0) continue;
        shares.segment(block * m_groups, m_groups) =
            counts.segment(block * m_groups, m_groups) / total;
    }
    return shares;
}

std::string PenaltyLayout::cellName(int cell, const std::vector<std::string>& classNames,
                                    const std::vector<std::string>& groupNames) const {
    const std::string group =
        "group '" + groupNames[static_cast<std::size_t>(cell % m_groups)] + "'";
    switch (m_notion) {
        case FairnessNotion::DemographicParity:
            return group;
        case FairnessNotion::EqualizedOdds:
            return group + " among label '" +
                   classNames[static_cast<std::size_t>(blockOfCell(cell))] + "'";
        case FairnessNotion::EqualOpportunity:
            return group + " among label '" +
                   classNames[static_cast<std::size_t>(m_advantagedClass)] + "'";
    }
    return group;
}

}  // namespace pfa
