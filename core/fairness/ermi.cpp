#include "core/fairness/ermi.h"

#include <cmath>
#include <limits>
#include <vector>

namespace pfa {

namespace {

// Joint J (l × k, unnormalised: sums of prediction mass per class and group) over the rows
// selected by `include`; `mass(i, j)` is F_ij (soft) or 1[ŷ_i = j] (hard).
struct Joint {
    Eigen::MatrixXd J;       // l × k sums
    Eigen::VectorXd groupN;  // k counts
    double total = 0.0;
};

template <typename Mass, typename Include>
Joint accumulate(Eigen::Index rows, int classes, int groups,
                 const Eigen::Ref<const Eigen::VectorXi>& s, Mass mass, Include include) {
    Joint joint;
    joint.J = Eigen::MatrixXd::Zero(classes, groups);
    joint.groupN = Eigen::VectorXd::Zero(groups);
    for (Eigen::Index i = 0; i < rows; ++i) {
        if (!include(i)) continue;
        const int r = s(i);
        joint.groupN(r) += 1.0;
        joint.total += 1.0;
        for (int j = 0; j < classes; ++j) joint.J(j, r) += mass(i, j);
    }
    return joint;
}

// Σ_j Σ_r J_jr² / (q_j π_r) − 1 with everything normalised by N; 0 for an empty selection.
double ermiFromJoint(const Joint& joint) {
    if (joint.total <= 0.0) return 0.0;
    const double N = joint.total;
    const Eigen::VectorXd q = joint.J.rowwise().sum() / N;
    const Eigen::VectorXd pi = joint.groupN / N;
    double sum = 0.0;
    for (Eigen::Index j = 0; j < joint.J.rows(); ++j) {
        if (q(j) <= 0.0) continue;
        for (Eigen::Index r = 0; r < joint.J.cols(); ++r) {
            if (pi(r) <= 0.0) continue;
            const double Jjr = joint.J(j, r) / N;
            sum += Jjr * Jjr / (q(j) * pi(r));
        }
    }
    // Rounding can push an exactly-fair value a hair below zero; ERMI ≥ 0 by definition.
    return std::max(0.0, sum - 1.0);
}

template <typename Mass>
double ermiForNotion(FairnessNotion notion, Eigen::Index rows, int classes, int groups,
                     const Eigen::Ref<const Eigen::VectorXi>& s,
                     const Eigen::Ref<const Eigen::VectorXi>& y, int labelCount,
                     int advantagedClass, Mass mass) {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return ermiFromJoint(
                accumulate(rows, classes, groups, s, mass, [](Eigen::Index) { return true; }));
        case FairnessNotion::EqualOpportunity:
            return ermiFromJoint(accumulate(rows, classes, groups, s, mass, [&](Eigen::Index i) {
                return y(i) == advantagedClass;
            }));
        case FairnessNotion::EqualizedOdds: {
            double weighted = 0.0;
            for (int c = 0; c < labelCount; ++c) {
                const Joint joint = accumulate(rows, classes, groups, s, mass,
                                               [&](Eigen::Index i) { return y(i) == c; });
                if (joint.total > 0.0) {
                    weighted += joint.total / static_cast<double>(rows) * ermiFromJoint(joint);
                }
            }
            return weighted;
        }
    }
    return 0.0;
}

/// Adds a row of group `r` with mass `mass(j)` for each class to `joint`.
template <typename Mass>
void addRow(Joint& joint, int r, int classes, Mass mass) {
    joint.groupN(r) += 1.0;
    joint.total += 1.0;
    for (int j = 0; j < classes; ++j) joint.J(j, r) += mass(j);
}

Joint emptyJoint(int classes, int groups) {
    Joint joint;
    joint.J = Eigen::MatrixXd::Zero(classes, groups);
    joint.groupN = Eigen::VectorXd::Zero(groups);
    return joint;
}

/// Σ_c (n_c/N)·ERMI_c over the label joints, in label order (as ermiForNotion).
double weightedByLabel(const std::vector<Joint>& joints, Eigen::Index rows) {
    double sum = 0.0;
    for (const Joint& joint : joints) {
        if (joint.total > 0.0)
            sum += joint.total / static_cast<double>(rows) * ermiFromJoint(joint);
    }
    return sum;
}

/// Ermi::all joint by joint, for any rows (labels or predictions outside the classes too).
Ermi::AllNotions allByJoints(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                             const Eigen::Ref<const RowMatrix>& F,
                             const Eigen::Ref<const Eigen::VectorXi>& s,
                             const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int classes,
                             int advantagedClass) {
    const Eigen::Index rows = predicted.size();
    const bool soft = F.rows() == rows;
    const auto softClasses = static_cast<int>(F.cols());  // the soft calls' l
    // The joints of the six calls: all rows, rows of each label, rows of the advantaged label.
    Joint dpHard = emptyJoint(classes, groups), dpSoft = emptyJoint(softClasses, groups);
    Joint eoppHard = emptyJoint(classes, groups), eoppSoft = emptyJoint(softClasses, groups);
    std::vector<Joint> eoHard(static_cast<std::size_t>(classes), emptyJoint(classes, groups));
    std::vector<Joint> eoSoft(static_cast<std::size_t>(softClasses),
                              emptyJoint(softClasses, groups));
    for (Eigen::Index i = 0; i < rows; ++i) {
        const int r = s(i), label = y(i), hat = predicted(i);
        const auto hardMass = [hat](int j) { return hat == j ? 1.0 : 0.0; };
        const auto softMass = [&F, i](int j) { return F(i, j); };
        addRow(dpHard, r, classes, hardMass);
        if (label >= 0 && label < classes) {
            addRow(eoHard[static_cast<std::size_t>(label)], r, classes, hardMass);
        }
        if (label == advantagedClass) addRow(eoppHard, r, classes, hardMass);
        if (!soft) continue;
        addRow(dpSoft, r, softClasses, softMass);
        if (label >= 0 && label < softClasses) {
            addRow(eoSoft[static_cast<std::size_t>(label)], r, softClasses, softMass);
        }
        if (label == advantagedClass) addRow(eoppSoft, r, softClasses, softMass);
    }
    Ermi::AllNotions out;
    out.dpHard = ermiFromJoint(dpHard);
    out.eoHard = weightedByLabel(eoHard, rows);
    out.eoppHard = ermiFromJoint(eoppHard);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.dpSoft = soft ? ermiFromJoint(dpSoft) : nan;
    out.eoSoft = soft ? weightedByLabel(eoSoft, rows) : nan;
    out.eoppSoft = soft ? ermiFromJoint(eoppSoft) : nan;
    return out;
}

}  // namespace

Ermi::AllNotions Ermi::all(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                           const Eigen::Ref<const RowMatrix>& F,
                           const Eigen::Ref<const Eigen::VectorXi>& s,
                           const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int classes,
                           int advantagedClass) {
    const Eigen::Index rows = predicted.size();
    const bool soft = F.rows() == rows;
    if ((soft && F.cols() != classes) || advantagedClass < 0 || advantagedClass >= classes ||
        groups < 1)
        return allByJoints(predicted, F, s, y, groups, classes, advantagedClass);
    // One pass: the hard joints from counts per (label, group, prediction) — sums of ones, exact
    // in any order — and the soft sums per (class, group) over all rows and over each label's
    // rows, each adding the same terms in the same row order as the joints one by one.
    Cells cells(groups, classes, soft);
    if (!countCells(predicted, F, s, y, cells))
        return allByJoints(predicted, F, s, y, groups, classes, advantagedClass);
    return fromCells(cells, advantagedClass);
}

bool Ermi::countCells(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                      const Eigen::Ref<const RowMatrix>& F,
                      const Eigen::Ref<const Eigen::VectorXi>& s,
                      const Eigen::Ref<const Eigen::VectorXi>& y, Cells& cells) {
    const int groups = cells.groups, classes = cells.classes;
    for (Eigen::Index i = 0; i < predicted.size(); ++i) {
        const int r = s(i), label = y(i), hat = predicted(i);
        if (r < 0 || r >= groups || label < 0 || label >= classes || hat < 0 || hat >= classes)
            return false;
        cells.add(r, label, hat, [&](int j) { return F(i, j); });
    }
    return true;
}

Ermi::Cells::Cells(int groups, int classes, bool soft)
    : groups(groups),
      classes(classes),
      soft(soft),
      counts(static_cast<std::size_t>(classes * classes * groups), 0),
      allSoft(soft ? static_cast<std::size_t>(classes * groups) : 0, 0.0),
      labelSoft(soft ? static_cast<std::size_t>(classes * classes * groups) : 0, 0.0) {}

Ermi::AllNotions Ermi::fromCells(const Cells& c, int advantagedClass) {
    const int groups = c.groups, classes = c.classes;
    const bool soft = c.soft;
    const long rows = c.rows;
    const long cells = static_cast<long>(classes) * groups;
    const std::vector<long>& counts = c.counts;
    const std::vector<double>& allSoft = c.allSoft;
    const std::vector<double>& labelSoft = c.labelSoft;
    const auto count = [&](int label, int r, int hat) {
        return static_cast<double>(
            counts[static_cast<std::size_t>((label * groups + r) * classes + hat)]);
    };
    // Each label's joints, then all rows'.
    std::vector<Joint> eoHard(static_cast<std::size_t>(classes), emptyJoint(classes, groups));
    std::vector<Joint> eoSoft(static_cast<std::size_t>(classes), emptyJoint(classes, groups));
    Joint dpHard = emptyJoint(classes, groups), dpSoft = emptyJoint(classes, groups);
    std::vector<long> groupRows(static_cast<std::size_t>(groups), 0);
    for (int label = 0; label < classes; ++label) {
        Joint& hard = eoHard[static_cast<std::size_t>(label)];
        Joint& softJoint = eoSoft[static_cast<std::size_t>(label)];
        long labelRows = 0;
        for (int r = 0; r < groups; ++r) {
            long inGroup = 0;
            for (int hat = 0; hat < classes; ++hat) {
                hard.J(hat, r) = count(label, r, hat);
                inGroup += counts[static_cast<std::size_t>((label * groups + r) * classes + hat)];
            }
            hard.groupN(r) = static_cast<double>(inGroup);
            labelRows += inGroup;
            groupRows[static_cast<std::size_t>(r)] += inGroup;
            for (int j = 0; soft && j < classes; ++j)
                softJoint.J(j, r) =
                    labelSoft[static_cast<std::size_t>(label * cells + j * groups + r)];
        }
        hard.total = static_cast<double>(labelRows);
        softJoint.groupN = hard.groupN;
        softJoint.total = hard.total;
    }
    for (int r = 0; r < groups; ++r) {
        for (int hat = 0; hat < classes; ++hat) {
            long sum = 0;
            for (int label = 0; label < classes; ++label)
                sum += counts[static_cast<std::size_t>((label * groups + r) * classes + hat)];
            dpHard.J(hat, r) = static_cast<double>(sum);
            if (soft) dpSoft.J(hat, r) = allSoft[static_cast<std::size_t>(hat * groups + r)];
        }
        dpHard.groupN(r) = static_cast<double>(groupRows[static_cast<std::size_t>(r)]);
    }
    dpHard.total = static_cast<double>(rows);
    dpSoft.groupN = dpHard.groupN;
    dpSoft.total = dpHard.total;

    AllNotions out;
    out.dpHard = ermiFromJoint(dpHard);
    out.eoHard = weightedByLabel(eoHard, rows);
    out.eoppHard = ermiFromJoint(eoHard[static_cast<std::size_t>(advantagedClass)]);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    out.dpSoft = soft ? ermiFromJoint(dpSoft) : nan;
    out.eoSoft = soft ? weightedByLabel(eoSoft, rows) : nan;
    out.eoppSoft = soft ? ermiFromJoint(eoSoft[static_cast<std::size_t>(advantagedClass)]) : nan;
    return out;
}

double Ermi::soft(const Eigen::Ref<const RowMatrix>& F, const Eigen::Ref<const Eigen::VectorXi>& s,
                  int groups) {
    return ermiFromJoint(accumulate(
        F.rows(), static_cast<int>(F.cols()), groups, s,
        [&](Eigen::Index i, int j) { return F(i, j); }, [](Eigen::Index) { return true; }));
}

double Ermi::hard(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                  const Eigen::Ref<const Eigen::VectorXi>& s, int groups, int classes) {
    return ermiFromJoint(accumulate(
        predicted.size(), classes, groups, s,
        [&](Eigen::Index i, int j) { return predicted(i) == j ? 1.0 : 0.0; },
        [](Eigen::Index) { return true; }));
}

double Ermi::soft(FairnessNotion notion, const Eigen::Ref<const RowMatrix>& F,
                  const Eigen::Ref<const Eigen::VectorXi>& s,
                  const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int advantagedClass) {
    const int classes = static_cast<int>(F.cols());
    return ermiForNotion(notion, F.rows(), classes, groups, s, y, classes, advantagedClass,
                         [&](Eigen::Index i, int j) { return F(i, j); });
}

double Ermi::hard(FairnessNotion notion, const Eigen::Ref<const Eigen::VectorXi>& predicted,
                  const Eigen::Ref<const Eigen::VectorXi>& s,
                  const Eigen::Ref<const Eigen::VectorXi>& y, int groups, int classes,
                  int advantagedClass) {
    return ermiForNotion(notion, predicted.size(), classes, groups, s, y, classes, advantagedClass,
                         [&](Eigen::Index i, int j) { return predicted(i) == j ? 1.0 : 0.0; });
}

Eigen::MatrixXd Ermi::maximiser(const Eigen::Ref<const RowMatrix>& F,
                                const Eigen::Ref<const Eigen::VectorXi>& s,
                                const Eigen::Ref<const Eigen::VectorXi>& y, int groups,
                                int onlyLabel) {
    const int classes = static_cast<int>(F.cols());
    const Joint joint = accumulate(
        F.rows(), classes, groups, s, [&](Eigen::Index i, int j) { return F(i, j); },
        [&](Eigen::Index i) { return onlyLabel < 0 || y(i) == onlyLabel; });
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(groups, classes);
    if (joint.total <= 0.0) return W;
    const Eigen::VectorXd q = joint.J.rowwise().sum() / joint.total;
    for (int r = 0; r < groups; ++r) {
        const double pi = joint.groupN(r) / joint.total;
        if (pi <= 0.0) continue;
        for (int j = 0; j < classes; ++j) {
            if (q(j) <= 0.0) continue;
            W(r, j) = joint.J(j, r) / joint.total / (std::sqrt(pi) * q(j));
        }
    }
    return W;
}

}  // namespace pfa
