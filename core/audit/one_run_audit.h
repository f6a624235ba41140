#pragma once

#include <vector>

#include "core/audit/privacy_audit.h"

namespace pfa::audit {

// The one-run audit of Steinke, Nasr and Jagielski, "Privacy Auditing with One (1) Training Run"
// (NeurIPS 2023): m canaries, each put into the training data with probability ½ independently
// of the others; the attack sees what the run released, scores every canary and calls the
// r canaries with the highest scores members; v of those guesses are right. An (ε, δ)-DP
// mechanism (with respect to adding or removing one canary) cannot make v large: the count of
// right guesses is nearly Binomial(r, e^ε/(1 + e^ε)). One run (or a few, each canary in one of
// them) replaces the hundreds of models the classic audit trains.

/// The p-value of seeing ≥ `correct` right guesses out of `guesses` with `canaries` canaries if
/// the mechanism is (ε, δ)-DP: β + α·2mδ (their Theorem 5.2, computed as in their Algorithm 2),
/// β = P[Binomial(r, p) ≥ v] with p = e^ε/(1 + e^ε), α = max over 1 ≤ i ≤ v of
/// P[v > Binomial(r, p) ≥ v − i]/i; at most 1. Throws InputError unless 0 ≤ v ≤ r ≤ m.
double oneRunPValue(long canaries, long guesses, long correct, double epsilon, double delta);

/// The largest ε whose p-value stays ≤ `significance`: the mechanism is not (ε′, δ)-DP for any
/// ε′ below it, with confidence 1 − significance. 0 when the observation refutes no ε.
double oneRunEpsilonLower(long canaries, long guesses, long correct, double significance,
                          double delta);

/// The guess counts r the attack tries, fixed before any score is seen (so that the Bonferroni
/// correction over them is valid): 10, 20, 50, 100, 200, 500, … up to m.
std::vector<long> oneRunGuessCounts(long canaries);

/// The attack on the canaries' scores (higher: more likely a member): for each r of
/// oneRunGuessCounts, two guesses — the top r called members, and the top r − ⌊r/2⌋ called
/// members with the bottom ⌊r/2⌋ called non-members — each tested at error
/// (1 − confidence)/(2 × number of r); the largest bound is kept. Fills the point's canaries,
/// canariesIncluded, guesses, guessedOut, correctGuesses, guessOptions, epsilonLower and delta.
void evaluateOneRunAttack(const std::vector<double>& scores, const std::vector<bool>& included,
                          double delta, double confidence, AuditPoint& point);

/// The white-box score one released step adds to a gradient canary: the log-likelihood ratio
/// of the released coordinate x of the noisy θ-sum between "the canary is in the data"
/// (Poisson-sampled with rate q, then it adds Δ) and "it is not": ln(1 − q + q·e^{(Δx − Δ²/2)/S²}),
/// S the noise std on the sum. Summed over the steps this is the Neyman–Pearson test of one
/// canary against the mechanism's noise.
double gradientCanaryStepScore(double x, double bound, double noiseOnSum, double rate);

/// Runs a one-run audit (options.method is OneRunInput or OneRunGradient); see AuditMethod.
/// The canaries are spread over as few runs as hold them (input canaries: at most one per 20
/// training rows per run; gradient canaries: one per coordinate of θ per run), every run with
/// its own seed. Throws InputError when it does not apply or a run fails.
AuditResult runOneRunAudit(const AuditOptions& options, const DataSplit& data,
                           const CancelToken& cancel, const AuditProgress& progress = {});

}  // namespace pfa::audit
