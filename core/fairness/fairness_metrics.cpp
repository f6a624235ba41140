#include "core/fairness/fairness_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/fairness/ermi.h"

namespace pfa {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Largest minus smallest of the defined (non-NaN) values; 0 when fewer than two are defined.
double range(const std::vector<double>& values) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    int defined = 0;
    for (double v : values) {
        if (std::isnan(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        ++defined;
    }
    return defined >= 2 ? hi - lo : 0.0;
}

double ratio(double numerator, double denominator) {
    return denominator > 0.0 ? numerator / denominator : kNaN;
}

}  // namespace

double FairnessMetrics::violation(FairnessNotion notion) const {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return dpGap;
        case FairnessNotion::EqualizedOdds:
            return eoGap;
        case FairnessNotion::EqualOpportunity:
            return eoppGap;
    }
    return dpGap;
}

double FairnessMetrics::ermiHard(FairnessNotion notion) const {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return ermiDpHard;
        case FairnessNotion::EqualizedOdds:
            return ermiEoHard;
        case FairnessNotion::EqualOpportunity:
            return ermiEoppHard;
    }
    return ermiDpHard;
}

double FairnessMetrics::ermiSoft(FairnessNotion notion) const {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return ermiDpSoft;
        case FairnessNotion::EqualizedOdds:
            return ermiEoSoft;
        case FairnessNotion::EqualOpportunity:
            return ermiEoppSoft;
    }
    return ermiDpSoft;
}

namespace {

/// The masses of a set's predictions: predicted c per group, per (group, label is c) cell,
/// correct per group.
struct PredictionMasses {
    PredictionMasses(int groups, int classes)
        : predictedIn(Eigen::MatrixXd::Zero(groups, classes)),
          predictedInLabel(Eigen::MatrixXd::Zero(groups, classes)),
          labelIn(Eigen::MatrixXd::Zero(groups, classes)),
          groupN(Eigen::VectorXd::Zero(groups)),
          groupCorrect(Eigen::VectorXd::Zero(groups)),
          predictedTotal(Eigen::VectorXd::Zero(classes)) {}
    Eigen::MatrixXd predictedIn;       // ŷ=c & s=a
    Eigen::MatrixXd predictedInLabel;  // ŷ=c & s=a & y=c
    Eigen::MatrixXd labelIn;           // y=c & s=a
    Eigen::VectorXd groupN, groupCorrect, predictedTotal;
    double wrong = 0.0;

    /// Counts `rows` rows of group a with label `label` (their predictions go through add()).
    void addRows(int a, int label, double rows) {
        groupN(a) += rows;
        labelIn(a, label) += rows;
    }
    /// Adds mass w on class c for a row of group a with label `label`.
    void add(int a, int label, int c, double w) {
        predictedIn(a, c) += w;
        predictedTotal(c) += w;
        if (c == label) {
            predictedInLabel(a, c) += w;
            groupCorrect(a) += w;
        } else {
            wrong += w;
        }
    }
};

FairnessMetrics ratesFromMasses(const PredictionMasses& masses, Eigen::Index N,
                                const std::vector<std::string>& groupNames, int classes,
                                int advantagedClass);

/// Throws std::invalid_argument unless y and s have the same length and every row's group is
/// one of the k groups and its label one of the classes (and, when there are rows, y* is a
/// class): what the counts below index by. Encoded data sets always pass; anything else is a
/// caller's mistake, reported instead of written out of bounds.
void requireCountableRows(const Eigen::Ref<const Eigen::VectorXi>& y,
                          const Eigen::Ref<const Eigen::VectorXi>& s, int k, int classes,
                          int advantagedClass) {
    const auto fail = [](const std::string& what) {
        throw std::invalid_argument("fairness metrics: " + what);
    };
    if (y.size() != s.size()) {
        fail(std::to_string(y.size()) + " labels but " + std::to_string(s.size()) + " groups");
    }
    if (y.size() > 0 && (advantagedClass < 0 || advantagedClass >= classes)) {
        fail("the advantaged class " + std::to_string(advantagedClass) + " is not one of the " +
             std::to_string(classes) + " classes");
    }
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        if (s(i) < 0 || s(i) >= k) {
            fail("row " + std::to_string(i) + "'s group " + std::to_string(s(i)) +
                 " is not one of the " + std::to_string(k) + " groups");
        }
        if (y(i) < 0 || y(i) >= classes) {
            fail("row " + std::to_string(i) + "'s label " + std::to_string(y(i)) +
                 " is not one of the " + std::to_string(classes) + " classes");
        }
    }
}

/// The rates and gaps of dp-fermi.md §8 from each row's prediction mass: `massOf(i, add)` calls
/// add(c, w) for every class c the row puts weight w on (a hard prediction: one class, weight
/// 1; a randomised classifier: its probabilities). ERMI is left to the caller.
template <typename MassOf>
FairnessMetrics ratesFromMass(MassOf massOf, const Eigen::Ref<const Eigen::VectorXi>& y,
                              const Eigen::Ref<const Eigen::VectorXi>& s,
                              const std::vector<std::string>& groupNames, int classes,
                              int advantagedClass) {
    const auto k = static_cast<int>(groupNames.size());
    const Eigen::Index N = y.size();
    requireCountableRows(y, s, k, classes, advantagedClass);
    PredictionMasses masses(k, classes);
    for (Eigen::Index i = 0; i < N; ++i) {
        const int a = s(i), label = y(i);
        masses.addRows(a, label, 1.0);
        massOf(i, [&](int c, double w) { masses.add(a, label, c, w); });
    }
    return ratesFromMasses(masses, N, groupNames, classes, advantagedClass);
}

/// The six ERMI fields of `m` from `ermi`.
void setErmi(FairnessMetrics& m, const Ermi::AllNotions& ermi) {
    m.ermiDpHard = ermi.dpHard;
    m.ermiEoHard = ermi.eoHard;
    m.ermiEoppHard = ermi.eoppHard;
    m.ermiDpSoft = ermi.dpSoft;
    m.ermiEoSoft = ermi.eoSoft;
    m.ermiEoppSoft = ermi.eoppSoft;
}

/// The rates of the rows counted in `cells`: each cell's rows added as one whole number, in
/// the order (group, label, prediction).
FairnessMetrics ratesFromCells(const Ermi::Cells& cells, const std::vector<std::string>& groupNames,
                               int advantagedClass) {
    const int k = cells.groups, classes = cells.classes;
    PredictionMasses masses(k, classes);
    for (int a = 0; a < k; ++a) {
        for (int label = 0; label < classes; ++label) {
            for (int c = 0; c < classes; ++c) {
                const auto n = static_cast<double>(
                    cells.counts[static_cast<std::size_t>((label * k + a) * classes + c)]);
                masses.addRows(a, label, n);
                masses.add(a, label, c, n);
            }
        }
    }
    return ratesFromMasses(masses, cells.rows, groupNames, classes, advantagedClass);
}

/// ratesFromMass of hard predictions: each row's one unit of mass counted per (group, label,
/// prediction) in one pass (Ermi::Cells), then added as whole numbers — sums of ones, exact in
/// any order, so the same masses as adding the rows one by one.
FairnessMetrics ratesFromHardPredictions(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                                         const Eigen::Ref<const Eigen::VectorXi>& y,
                                         const Eigen::Ref<const Eigen::VectorXi>& s,
                                         const std::vector<std::string>& groupNames, int classes,
                                         int advantagedClass) {
    const auto k = static_cast<int>(groupNames.size());
    const Eigen::Index N = y.size();
    requireCountableRows(y, s, k, classes, advantagedClass);
    if (predicted.size() != N) {
        throw std::invalid_argument("fairness metrics: " + std::to_string(predicted.size()) +
                                    " predictions for " + std::to_string(N) + " rows");
    }
    Ermi::Cells cells(k, classes, false);
    for (Eigen::Index i = 0; i < N; ++i) {
        const int c = predicted(i);
        if (c < 0 || c >= classes) {
            throw std::invalid_argument(
                "fairness metrics: row " + std::to_string(i) + "'s prediction " +
                std::to_string(c) + " is not one of the " + std::to_string(classes) + " classes");
        }
        cells.add(s(i), y(i), c, [](int) { return 0.0; });  // no masses: hard only
    }
    return ratesFromCells(cells, groupNames, advantagedClass);
}

/// The rates and every ERMI of the rows counted in `cells`.
FairnessMetrics metricsFromCells(const Ermi::Cells& cells,
                                 const std::vector<std::string>& groupNames, int advantagedClass) {
    FairnessMetrics m = ratesFromCells(cells, groupNames, advantagedClass);
    setErmi(m, Ermi::fromCells(cells, advantagedClass));
    return m;
}

FairnessMetrics ratesFromMasses(const PredictionMasses& masses, Eigen::Index N,
                                const std::vector<std::string>& groupNames, int classes,
                                int advantagedClass) {
    const auto k = static_cast<int>(groupNames.size());
    const Eigen::MatrixXd& predictedIn = masses.predictedIn;
    const Eigen::MatrixXd& predictedInLabel = masses.predictedInLabel;
    const Eigen::MatrixXd& labelIn = masses.labelIn;
    const Eigen::VectorXd& groupN = masses.groupN;
    const Eigen::VectorXd& groupCorrect = masses.groupCorrect;
    const Eigen::VectorXd& predictedTotal = masses.predictedTotal;
    FairnessMetrics m;
    m.rows = static_cast<long>(N);
    if (N == 0) return m;
    m.error = masses.wrong / static_cast<double>(N);

    for (int c = 0; c < classes; ++c) {
        std::vector<double> selection(k), positiveGivenLabel(k), positiveGivenOther(k);
        for (int a = 0; a < k; ++a) {
            selection[a] = ratio(predictedIn(a, c), groupN(a));
            positiveGivenLabel[a] = ratio(predictedInLabel(a, c), labelIn(a, c));
            // ŷ=c among rows of group a whose label is not c.
            positiveGivenOther[a] =
                ratio(predictedIn(a, c) - predictedInLabel(a, c), groupN(a) - labelIn(a, c));
            if (!std::isnan(selection[a])) {
                const double marginal = predictedTotal(c) / static_cast<double>(N);
                m.dpGapVsMarginal = std::max(m.dpGapVsMarginal, std::fabs(selection[a] - marginal));
            }
        }
        m.dpGap = std::max(m.dpGap, range(selection));
        m.eoGap = std::max({m.eoGap, range(positiveGivenLabel), range(positiveGivenOther)});
        if (c == advantagedClass) m.eoppGap = range(positiveGivenLabel);
    }

    const int positive = advantagedClass;
    for (int a = 0; a < k; ++a) {
        GroupRow row;
        row.group = groupNames[static_cast<std::size_t>(a)];
        row.n = static_cast<long>(groupN(a));
        row.baseRate = ratio(labelIn(a, positive), groupN(a));
        row.selectionRate = ratio(predictedIn(a, positive), groupN(a));
        row.truePositiveRate = ratio(predictedInLabel(a, positive), labelIn(a, positive));
        row.falsePositiveRate = ratio(predictedIn(a, positive) - predictedInLabel(a, positive),
                                      groupN(a) - labelIn(a, positive));
        row.accuracy = ratio(groupCorrect(a), groupN(a));
        m.groups.push_back(row);
    }
    return m;
}

}  // namespace

FairnessMetrics evaluateFairness(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                                 const Eigen::Ref<const RowMatrix>& F,
                                 const Eigen::Ref<const Eigen::VectorXi>& y,
                                 const Eigen::Ref<const Eigen::VectorXi>& s,
                                 const std::vector<std::string>& groupNames, int classes,
                                 int advantagedClass) {
    const auto k = static_cast<int>(groupNames.size());
    const Eigen::Index N = predicted.size();
    const bool soft = F.rows() == N;
    // The rates and every ERMI count the same (label, group, prediction) cells: one pass when
    // every row's group, label and prediction is in range (else counted below, which reports a
    // row out of range).
    if (N > 0 && y.size() == N && s.size() == N && k >= 1 && advantagedClass >= 0 &&
        advantagedClass < classes && (!soft || F.cols() == classes)) {
        Ermi::Cells cells(k, classes, soft);
        if (Ermi::countCells(predicted, F, s, y, cells))
            return metricsFromCells(cells, groupNames, advantagedClass);
    }
    FairnessMetrics m =
        ratesFromHardPredictions(predicted, y, s, groupNames, classes, advantagedClass);
    if (N == 0) return m;
    setErmi(m, Ermi::all(predicted, F, s, y, k, classes, advantagedClass));
    return m;
}

namespace {

/// The class probabilities (1 − p, p) of a binary classifier's rows, one row each.
RowMatrix classProbabilities(const Eigen::Ref<const Eigen::VectorXd>& probOne) {
    RowMatrix F(probOne.size(), 2);
    F.col(0).array() = 1.0 - probOne.array();
    F.col(1) = probOne;
    return F;
}

/// The cells of a binary classifier's rows in K groups: Cells::add with ŷ = [p ≥ ½] and masses
/// (1 − p, p), into sums on the stack that nothing else can alias (each sum still adds its rows'
/// masses in row order: the same bits). False (cells untouched) when a row's group or label is
/// out of range.
template <int K>
bool binaryCellsOf(const Eigen::Ref<const Eigen::VectorXd>& probOne,
                   const Eigen::Ref<const Eigen::VectorXi>& y,
                   const Eigen::Ref<const Eigen::VectorXi>& s, Ermi::Cells& cells) {
    double all[2 * K] = {};      // [class·K + group]
    double ofLabel[4 * K] = {};  // [(label·2 + class)·K + group]
    long rows[2 * K] = {};       // [label·K + group]
    long positives[2 * K] = {};  // [label·K + group]
    const Eigen::Index n = probOne.size();
    const double* p = probOne.data();
    const int* group = s.data();
    const int* labels = y.data();
    for (Eigen::Index i = 0; i < n; ++i) {
        const int a = group[i], label = labels[i];
        if (a < 0 || a >= K || (label != 0 && label != 1)) return false;
        const double one = p[i], zero = 1.0 - one;
        all[a] += zero;
        all[K + a] += one;
        ofLabel[2 * label * K + a] += zero;
        ofLabel[(2 * label + 1) * K + a] += one;
        ++rows[label * K + a];
        positives[label * K + a] += one >= 0.5 ? 1 : 0;
    }
    cells.rows = static_cast<long>(n);
    for (int g = 0; g < K; ++g) {
        for (int j = 0; j < 2; ++j) {
            cells.allSoft[static_cast<std::size_t>(j * K + g)] = all[j * K + g];
            for (int l = 0; l < 2; ++l)
                cells.labelSoft[static_cast<std::size_t>((l * 2 + j) * K + g)] =
                    ofLabel[(l * 2 + j) * K + g];
        }
        for (int l = 0; l < 2; ++l) {
            const long total = rows[l * K + g], predictedOne = positives[l * K + g];
            cells.counts[static_cast<std::size_t>((l * K + g) * 2)] = total - predictedOne;
            cells.counts[static_cast<std::size_t>((l * K + g) * 2 + 1)] = predictedOne;
        }
    }
    return true;
}

/// The cells of a binary classifier's rows, as Cells::add row by row (sums on the stack for up to
/// four groups). False when a row's group or label is out of range.
bool binaryCells(const Eigen::Ref<const Eigen::VectorXd>& probOne,
                 const Eigen::Ref<const Eigen::VectorXi>& y,
                 const Eigen::Ref<const Eigen::VectorXi>& s, Ermi::Cells& cells) {
    switch (cells.groups) {
        case 1:
            return binaryCellsOf<1>(probOne, y, s, cells);
        case 2:
            return binaryCellsOf<2>(probOne, y, s, cells);
        case 3:
            return binaryCellsOf<3>(probOne, y, s, cells);
        case 4:
            return binaryCellsOf<4>(probOne, y, s, cells);
        default:
            break;
    }
    const int k = cells.groups;
    for (Eigen::Index i = 0; i < probOne.size(); ++i) {
        const int a = s(i), label = y(i);
        if (a < 0 || a >= k || (label != 0 && label != 1)) return false;
        const double p = probOne(i);
        // F(i, 0) = 1 − p and F(i, 1) = p, as Evaluator forms them.
        cells.add(a, label, p >= 0.5 ? 1 : 0, [p](int j) { return j == 0 ? 1.0 - p : p; });
    }
    return true;
}

}  // namespace

FairnessMetrics evaluateBinaryFairness(const Eigen::Ref<const Eigen::VectorXd>& probOne,
                                       const Eigen::Ref<const Eigen::VectorXi>& y,
                                       const Eigen::Ref<const Eigen::VectorXi>& s,
                                       const std::vector<std::string>& groupNames,
                                       int advantagedClass) {
    const auto k = static_cast<int>(groupNames.size());
    const Eigen::Index N = probOne.size();
    if (N > 0 && y.size() == N && s.size() == N && k >= 1 &&
        (advantagedClass == 0 || advantagedClass == 1)) {
        Ermi::Cells cells(k, 2, true);
        if (binaryCells(probOne, y, s, cells))
            return metricsFromCells(cells, groupNames, advantagedClass);
    }
    const Eigen::VectorXi predicted = (probOne.array() >= 0.5).cast<int>().matrix();
    return evaluateFairness(predicted, classProbabilities(probOne), y, s, groupNames, 2,
                            advantagedClass);
}

FairnessMetrics evaluateFairnessInExpectation(const Eigen::Ref<const Eigen::VectorXd>& probOne,
                                              const Eigen::Ref<const Eigen::VectorXi>& y,
                                              const Eigen::Ref<const Eigen::VectorXi>& s,
                                              const std::vector<std::string>& groupNames,
                                              int advantagedClass) {
    const auto k = static_cast<int>(groupNames.size());
    const Eigen::Index N = probOne.size();
    if (y.size() != N) {
        throw std::invalid_argument("fairness metrics: " + std::to_string(N) +
                                    " probabilities for " + std::to_string(y.size()) + " rows");
    }
    FairnessMetrics m = ratesFromMass(
        [&](Eigen::Index i, auto add) {
            add(1, probOne(i));
            add(0, 1.0 - probOne(i));
        },
        y, s, groupNames, 2, advantagedClass);
    if (N == 0) return m;
    // ERMI of the output distribution P(ŷ | x): the "soft" formula on the exact probabilities
    // of the randomised classifier, reported as both values (there is no single hard ŷ).
    const RowMatrix F = classProbabilities(probOne);
    m.ermiDpSoft = m.ermiDpHard =
        Ermi::soft(FairnessNotion::DemographicParity, F, s, y, k, advantagedClass);
    m.ermiEoSoft = m.ermiEoHard =
        Ermi::soft(FairnessNotion::EqualizedOdds, F, s, y, k, advantagedClass);
    m.ermiEoppSoft = m.ermiEoppHard =
        Ermi::soft(FairnessNotion::EqualOpportunity, F, s, y, k, advantagedClass);
    return m;
}

std::string fairnessFormulaText() {
    return "Fairness violations (test set, hard predictions ŷ, P = empirical frequency):\n"
           "  demographic parity  dp_violation   = max_c max_{a,b} |P[ŷ=c|s=a] − P[ŷ=c|s=b]|\n"
           "  equalized odds      eo_violation   = max_c max_{a,b} max(|P[ŷ=c|s=a,y=c] − "
           "P[ŷ=c|s=b,y=c]|, |P[ŷ=c|s=a,y≠c] − P[ŷ=c|s=b,y≠c]|)\n"
           "                                       (binary: max(|ΔTPR|, |ΔFPR|))\n"
           "  equal opportunity   eopp_violation = max_{a,b} |P[ŷ=y*|s=a,y=y*] − "
           "P[ŷ=y*|s=b,y=y*]|\n"
           "  ERMI = Σ_j Σ_r P[ŷ=j,s=r]² / (P[ŷ=j]·P[s=r]) − 1 (hard: one-hot ŷ; soft: "
           "probabilities)\n";
}

}  // namespace pfa
