#include "core/engine/regression_factor.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/engine/evaluator.h"
#include "core/engine/run_streams.h"
#include "core/util/recent_results.h"

namespace pfa {

namespace {

/// Rows added to the factor per QR: the stacked [R; block] stays small.
constexpr Eigen::Index kBlockRows = 256;

}  // namespace

RegressionFactor::RegressionFactor(const Dataset& rows) : m_rows(rows.rows()) {
    const Eigen::Index d = rows.features(), p = d + 2;
    m_r = Eigen::MatrixXd::Zero(p, p);
    if (m_rows == 0) return;
    const Eigen::VectorXd y = regressionTargets(rows);
    // [R; the next block of A]: its QR's R is the factor of every row so far.
    Eigen::MatrixXd stack(p + kBlockRows, p);
    Eigen::HouseholderQR<Eigen::MatrixXd> qr(p + kBlockRows, p);
    for (Eigen::Index first = 0; first < m_rows; first += kBlockRows) {
        const Eigen::Index count = std::min(kBlockRows, m_rows - first);
        const Eigen::Index height = p + count;
        stack.topRows(p) = m_r;
        stack.block(p, 0, count, d) = rows.X.middleRows(first, count);
        stack.block(p, d, count, 1).setOnes();
        stack.block(p, d + 1, count, 1) = y.segment(first, count);
        qr.compute(stack.topRows(height));
        m_r = qr.matrixQR().topRows(p).triangularView<Eigen::Upper>();
    }
}

double RegressionFactor::meanSquaredError(const Eigen::VectorXd& w) const {
    const Eigen::Index p = m_r.rows();
    if (m_rows == 0 || w.size() != p - 1 || !w.allFinite())
        return std::numeric_limits<double>::quiet_NaN();
    // ‖R·(w, −1)‖², row by row (no buffer: runs on several threads share a factor).
    double sum = 0.0;
    for (Eigen::Index i = 0; i < p; ++i) {
        double entry = 0.0;
        for (Eigen::Index j = i; j + 1 < p; ++j) entry += m_r(i, j) * w(j);
        entry -= m_r(i, p - 1);
        sum += entry * entry;
    }
    return sum / static_cast<double>(m_rows);
}

std::shared_ptr<const RegressionFactor> regressionFactorFor(const Dataset& rows) {
    if (rows.rows() == 0 || rows.features() > kFactorMaxFeatures) return nullptr;
    static RecentResults<std::uint64_t, std::shared_ptr<const RegressionFactor>> recent(16);
    return recent.get(knownOrNewFingerprint(rows),
                      [&] { return std::make_shared<const RegressionFactor>(rows); });
}

double evaluationMse(const RegressionFactor* factor, const Dataset& rows,
                     const Eigen::VectorXd& w) {
    return factor ? factor->meanSquaredError(w) : evaluateRegression(rows, w).testMse;
}

}  // namespace pfa
