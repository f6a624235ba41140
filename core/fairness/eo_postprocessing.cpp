#include "core/fairness/eo_postprocessing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/privacy/noisy_release.h"
#include "core/util/error.h"
#include "core/util/linear_program.h"

namespace pfa::eo {

const char* const kEmptyCellMessage =
    "a group/label cell is empty after noise; raise ε or merge groups";

CellTable countCells(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                     const Eigen::Ref<const Eigen::VectorXi>& group,
                     const Eigen::Ref<const Eigen::VectorXi>& label) {
    if (predicted.size() != group.size() || predicted.size() != label.size()) {
        throw InputError("the predictions, groups and labels have different numbers of rows");
    }
    CellTable table;
    for (Eigen::Index i = 0; i < predicted.size(); ++i) {
        const int yhat = predicted(i), a = group(i), y = label(i);
        if (a != 0 && a != 1) {
            throw InputError(
                "post-processing for equalized odds supports exactly two groups; "
                "row " +
                std::to_string(i + 1) + " is in group " + std::to_string(a));
        }
        if ((y != 0 && y != 1) || (yhat != 0 && yhat != 1)) {
            throw InputError("post-processing for equalized odds needs a binary label (0/1)");
        }
        table.at(yhat, a, y) += 1.0;
    }
    return table;
}

CellTable addLaplaceNoise(const CellTable& counts, double epsilon, RandomStream& random) {
    CellTable noisy = counts;
    if (std::isinf(epsilon)) return noisy;
    const double scale =
        2.0 / epsilon;  // ℓ1 sensitivity 2: one record leaves a cell, enters another
    const privacy::ReleaseSpec spec =
        privacy::ReleaseSpec::laplace("laplace-confusion-cells", 2.0, scale);
    Eigen::Map<Eigen::Matrix<double, 8, 1>> cells(noisy.count.data());
    privacy::releaseLaplace(spec, cells, random);
    return noisy;
}

NoisyRates noisyRates(const CellTable& noisy, long rows, double epsilonForSlack, double beta) {
    if (rows <= 0) throw InputError("post-processing needs at least one training row");
    NoisyRates rates;
    for (std::size_t c = 0; c < 8; ++c) {
        rates.share.count[c] = std::max(noisy.count[c], 0.0) / static_cast<double>(rows);
    }
    const CellTable& q = rates.share;
    std::array<double, 2> negatives{}, positives{};
    for (int a = 0; a < 2; ++a) {
        negatives[static_cast<std::size_t>(a)] = q.at(1, a, 0) + q.at(0, a, 0);
        positives[static_cast<std::size_t>(a)] = q.at(1, a, 1) + q.at(0, a, 1);
        if (!(negatives[static_cast<std::size_t>(a)] > 0.0) ||
            !(positives[static_cast<std::size_t>(a)] > 0.0)) {
            throw InputError(kEmptyCellMessage);
        }
        rates.fpr[static_cast<std::size_t>(a)] =
            q.at(1, a, 0) / negatives[static_cast<std::size_t>(a)];
        rates.tpr[static_cast<std::size_t>(a)] =
            q.at(1, a, 1) / positives[static_cast<std::size_t>(a)];
    }
    if (!std::isinf(epsilonForSlack)) {
        const double numerator = 4.0 * std::log(8.0 / beta);
        const double scale = static_cast<double>(rows) * epsilonForSlack;
        rates.slackFpr = numerator / (scale * std::min(negatives[0], negatives[1]));
        rates.slackTpr = numerator / (scale * std::min(positives[0], positives[1]));
    }
    return rates;
}

FlipProgram buildFlipProgram(const NoisyRates& rates, double gamma, bool fprOnly) {
    FlipProgram program;
    const CellTable& q = rates.share;
    for (int yhat = 0; yhat < 2; ++yhat) {
        for (int a = 0; a < 2; ++a) {
            program.cost[static_cast<std::size_t>(2 * yhat + a)] =
                q.at(yhat, a, 0) - q.at(yhat, a, 1);
            program.constant += q.at(yhat, a, 1);
        }
    }
    // Row of rate₁ − rate₀ for a group rate R̃_a = p_{1a}R_a + p_{0a}(1 − R_a), in x order.
    const auto difference = [](const std::array<double, 2>& r) {
        return std::array<double, 4>{-(1.0 - r[0]), 1.0 - r[1], -r[0], r[1]};
    };
    const auto negated = [](std::array<double, 4> row) {
        for (double& v : row) v = -v;
        return row;
    };
    program.rows[0] = difference(rates.fpr);
    program.rows[1] = negated(program.rows[0]);
    program.rows[2] = difference(rates.tpr);
    program.rows[3] = negated(program.rows[2]);
    program.bound = {gamma + rates.slackFpr, gamma + rates.slackFpr, gamma + rates.slackTpr,
                     gamma + rates.slackTpr};
    program.rowCount = fprOnly ? 2 : 4;
    return program;
}

double rowValue(const FlipProgram& program, int r, const FlipProbabilities& x) {
    double value = 0.0;
    for (std::size_t j = 0; j < 4; ++j)
        value += program.rows[static_cast<std::size_t>(r)][j] * x[j];
    return value;
}

FlipSolution solveFlipProgram(const FlipProgram& program) {
    if (program.rowCount != 2 && program.rowCount != 4) {
        throw InputError("the flip-probability program has 2 or 4 constraint rows");
    }
    for (double c : program.cost) {
        if (!std::isfinite(c))
            throw InputError("the flip-probability program has a non-finite cost");
    }
    for (int r = 0; r < program.rowCount; ++r) {
        for (double v : program.rows[static_cast<std::size_t>(r)]) {
            if (!std::isfinite(v))
                throw InputError("the flip-probability program has a non-finite rate");
        }
        const double bound = program.bound[static_cast<std::size_t>(r)];
        if (std::isnan(bound) || bound < 0.0) {
            throw InputError("the fairness tolerance γ must be ≥ 0");
        }
    }
    LinearProgram lp;
    lp.cost = Eigen::Map<const Eigen::Vector4d>(program.cost.data());
    lp.upperRows.resize(program.rowCount, 4);
    lp.upperBounds.resize(program.rowCount);
    for (int r = 0; r < program.rowCount; ++r) {
        for (int j = 0; j < 4; ++j)
            lp.upperRows(r, j) =
                program.rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(j)];
        lp.upperBounds(r) = program.bound[static_cast<std::size_t>(r)];  // +∞: a free row
    }
    lp.lower = Eigen::Vector4d::Zero();
    lp.upper = Eigen::Vector4d::Ones();
    FlipSolution solution;
    Eigen::VectorXd x;
    switch (solveLinearProgram(lp, x)) {
        case LinearProgramStatus::Optimal:
            for (std::size_t j = 0; j < 4; ++j) solution.p[j] = x(static_cast<Eigen::Index>(j));
            break;
        case LinearProgramStatus::NotOptimal:
            throw InputError(
                "the linear program of the post-processing has no optimal solution "
                "(GLPK); check the settings");
        case LinearProgramStatus::Failed:
            throw InputError(
                "the linear-programming library (GLPK) failed on the post-processing "
                "program");
    }
    for (double& v : solution.p) v = std::clamp(v, 0.0, 1.0);
    solution.objective = program.constant;
    for (std::size_t j = 0; j < 4; ++j) solution.objective += program.cost[j] * solution.p[j];
    return solution;
}

TableMetrics evaluateOnTable(const CellTable& counts, const FlipProbabilities& p) {
    TableMetrics metrics;
    double total = 0.0, wrong = 0.0;
    for (int a = 0; a < 2; ++a) {
        const auto ai = static_cast<std::size_t>(a);
        double negatives = 0.0, positives = 0.0, falsePos = 0.0, truePos = 0.0;
        for (int yhat = 0; yhat < 2; ++yhat) {
            const double flip = p[static_cast<std::size_t>(2 * yhat + a)];
            negatives += counts.at(yhat, a, 0);
            positives += counts.at(yhat, a, 1);
            falsePos += counts.at(yhat, a, 0) * flip;
            truePos += counts.at(yhat, a, 1) * flip;
            wrong += counts.at(yhat, a, 0) * flip + counts.at(yhat, a, 1) * (1.0 - flip);
        }
        total += negatives + positives;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        metrics.fpr[ai] = negatives > 0 ? falsePos / negatives : nan;
        metrics.tpr[ai] = positives > 0 ? truePos / positives : nan;
        metrics.selection[ai] =
            negatives + positives > 0 ? (falsePos + truePos) / (negatives + positives) : nan;
    }
    metrics.error = total > 0 ? wrong / total : 0.0;
    // A gap over a group with no rows in the conditioning set is skipped (as in evaluateFairness).
    const auto gap = [](const std::array<double, 2>& r) {
        return std::isnan(r[0]) || std::isnan(r[1]) ? 0.0 : std::abs(r[1] - r[0]);
    };
    metrics.eoGap = std::max(gap(metrics.fpr), gap(metrics.tpr));
    metrics.dpGap = gap(metrics.selection);
    return metrics;
}

Eigen::VectorXd flipProbabilityPerRow(const Eigen::Ref<const Eigen::VectorXi>& predicted,
                                      const Eigen::Ref<const Eigen::VectorXi>& group,
                                      const FlipProbabilities& p) {
    Eigen::VectorXd probOne(predicted.size());
    for (Eigen::Index i = 0; i < predicted.size(); ++i) {
        probOne(i) = p[static_cast<std::size_t>(2 * predicted(i) + group(i))];
    }
    return probOne;
}

}  // namespace pfa::eo
