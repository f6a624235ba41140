#pragma once

namespace pfa::audit {

/// One-sided Clopper–Pearson lower bound on a binomial proportion: the largest p with
/// P(X ≥ successes | n = trials, p) ≤ α, i.e. the α-quantile of Beta(x, n − x + 1) (0 for
/// x = 0). P(p_true < bound) ≤ α. Throws InputError for trials < 1, successes outside
/// [0, trials] or α outside (0, 1).
double clopperPearsonLower(long successes, long trials, double alpha);

/// One-sided Clopper–Pearson upper bound: the (1 − α)-quantile of Beta(x + 1, n − x) (1 for
/// x = n). P(p_true > bound) ≤ α.
double clopperPearsonUpper(long successes, long trials, double alpha);

/// The smallest ε an (ε, δ)-DP mechanism can have when a membership test has true-positive
/// rate ≥ tprLower and false-positive rate ≤ fprUpper: (ε, δ)-DP forces
///   TPR ≤ e^ε·FPR + δ   and   1 − FPR ≤ e^ε·(1 − TPR) + δ,
/// so ε ≥ max( ln((TPR − δ)/FPR), ln((1 − FPR − δ)/(1 − TPR)) ), clamped at 0 (a term whose
/// numerator is ≤ 0 proves nothing). Bounds of 0 or 1 in a denominator give +∞.
double epsilonLowerBound(double tprLower, double fprUpper, double delta);

}  // namespace pfa::audit
