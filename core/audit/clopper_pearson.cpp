#include "core/audit/clopper_pearson.h"

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/util/error.h"

namespace pfa::audit {

namespace {

void checkCounts(long successes, long trials, double alpha) {
    if (trials < 1) throw InputError("Clopper–Pearson bound: needs at least one trial");
    if (successes < 0 || successes > trials) {
        throw InputError("Clopper–Pearson bound: " + std::to_string(successes) +
                         " successes are not within 0 … " + std::to_string(trials));
    }
    if (!(alpha > 0.0 && alpha < 1.0)) {
        throw InputError("Clopper–Pearson bound: the error level must lie in (0, 1)");
    }
}

}  // namespace

double clopperPearsonLower(long successes, long trials, double alpha) {
    checkCounts(successes, trials, alpha);
    if (successes == 0) return 0.0;
    const boost::math::beta_distribution<double> beta(static_cast<double>(successes),
                                                      static_cast<double>(trials - successes + 1));
    return boost::math::quantile(beta, alpha);
}

double clopperPearsonUpper(long successes, long trials, double alpha) {
    checkCounts(successes, trials, alpha);
    if (successes == trials) return 1.0;
    const boost::math::beta_distribution<double> beta(static_cast<double>(successes + 1),
                                                      static_cast<double>(trials - successes));
    return boost::math::quantile(boost::math::complement(beta, alpha));
}

double epsilonLowerBound(double tprLower, double fprUpper, double delta) {
    const double infinity = std::numeric_limits<double>::infinity();
    double best = 0.0;
    // A ratio with a positive numerator over a zero denominator is unbounded: no finite ε
    // satisfies the inequality.
    auto consider = [&](double numerator, double denominator) {
        if (!(numerator > 0.0)) return;
        best = std::max(best, denominator > 0.0 ? std::log(numerator / denominator) : infinity);
    };
    consider(tprLower - delta, fprUpper);
    consider(1.0 - fprUpper - delta, 1.0 - tprLower);
    return best;
}

}  // namespace pfa::audit
