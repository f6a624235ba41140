#include "core/audit/one_run_audit.h"

#include <algorithm>
#include <boost/math/distributions/binomial.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>

#include "core/algorithms/registry.h"
#include "core/audit/audit_jobs.h"
#include "core/audit/gradient_canaries.h"
#include "core/model/model.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/random.h"
#include "core/util/utc_time.h"

namespace pfa::audit {

namespace {

/// Input canaries per run: at most one per this many training rows, so that the canaries stay
/// a small part of what the model is fitted to.
constexpr long kRowsPerInputCanary = 20;
// Stream labels of the audit's own randomness (kept apart from every run's streams).
constexpr std::uint64_t kInclusionStream = 0xA0D1'7001;
constexpr std::uint64_t kDirectionStream = 0xA0D1'7002;

void checkGuessCounts(long canaries, long guesses, long correct) {
    if (!(0 <= correct && correct <= guesses && guesses <= canaries)) {
        throw InputError("one-run audit: needs 0 ≤ right guesses (" + std::to_string(correct) +
                         ") ≤ guesses (" + std::to_string(guesses) + ") ≤ canaries (" +
                         std::to_string(canaries) + ")");
    }
}

/// `count` input canaries: records at distance kCanaryDistance from the rows' mean along
/// uniformly random directions, each labelled against the data there (CanaryLabeller).
std::vector<Canary> makeInputCanaries(const Dataset& train, const CanaryLabeller& labeller,
                                      long count, std::uint64_t seed) {
    const Eigen::Index d = train.features();
    const Eigen::VectorXd mean = train.X.colwise().mean().transpose();
    RandomStream random(seed, kDirectionStream);
    std::vector<Canary> canaries(static_cast<std::size_t>(count));
    Eigen::VectorXd direction(d);
    for (Canary& canary : canaries) {
        random.fillStandardNormal(direction);
        const double norm = direction.norm();
        canary.x = norm > 0.0 ? Eigen::VectorXd(mean + kCanaryDistance / norm * direction) : mean;
        canary.label = labeller.label(canary.x);
        canary.group = 0;
    }
    return canaries;
}

struct RunOutcome {
    double claimed = 0.0;
    double actual = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace

double oneRunPValue(long canaries, long guesses, long correct, double epsilon, double delta) {
    checkGuessCounts(canaries, guesses, correct);
    if (correct == 0) return 1.0;
    const double p = 1.0 / (1.0 + std::exp(-epsilon));  // accuracy of ε-randomised response
    const boost::math::binomial_distribution<double> binomial(static_cast<double>(guesses), p);
    // β = P[X ≥ v].
    const double beta = boost::math::cdf(boost::math::complement(binomial, correct - 1.0));
    double alpha = 0.0;
    if (delta > 0.0) {
        double between = 0.0;  // P[v > X ≥ v − i]
        for (long i = 1; i <= correct; ++i) {
            between += boost::math::pdf(binomial, static_cast<double>(correct - i));
            alpha = std::max(alpha, between / static_cast<double>(i));
        }
    }
    return std::min(1.0, beta + alpha * delta * 2.0 * static_cast<double>(canaries));
}

double oneRunEpsilonLower(long canaries, long guesses, long correct, double significance,
                          double delta) {
    checkGuessCounts(canaries, guesses, correct);
    if (!(significance > 0.0 && significance < 1.0))
        throw InputError("one-run audit: the error level must lie in (0, 1)");
    // The p-value grows with ε: find where it crosses the significance.
    if (oneRunPValue(canaries, guesses, correct, 0.0, delta) > significance) return 0.0;
    double low = 0.0, high = 1.0;
    while (oneRunPValue(canaries, guesses, correct, high, delta) <= significance) {
        low = high;
        high *= 2.0;
        if (high > 1e3) return low;  // every right guess at any ε: bounded by the search
    }
    while (high - low > 1e-6) {
        const double mid = 0.5 * (low + high);
        (oneRunPValue(canaries, guesses, correct, mid, delta) <= significance ? low : high) = mid;
    }
    return low;
}

std::vector<long> oneRunGuessCounts(long canaries) {
    std::vector<long> counts;
    for (long decade = 10; decade <= canaries; decade *= 10) {
        for (long step : {1L, 2L, 5L}) {
            if (decade * step <= canaries) counts.push_back(decade * step);
        }
    }
    if (counts.empty()) counts.push_back(std::max(1L, canaries));
    return counts;
}

void evaluateOneRunAttack(const std::vector<double>& scores, const std::vector<bool>& included,
                          double delta, double confidence, AuditPoint& point) {
    if (scores.size() != included.size() || scores.empty())
        throw InputError("one-run audit: needs a score and an inclusion flag per canary");
    const long m = static_cast<long>(scores.size());
    std::vector<long> order(static_cast<std::size_t>(m));
    std::iota(order.begin(), order.end(), 0L);
    // Highest score first; ties by canary index, so the guesses do not depend on the sort.
    std::sort(order.begin(), order.end(), [&](long a, long b) {
        const double sa = scores[static_cast<std::size_t>(a)];
        const double sb = scores[static_cast<std::size_t>(b)];
        return sa != sb ? sa > sb : a < b;
    });
    // Prefix counts of members from the top (for "in" guesses) and of non-members from the
    // bottom (for "out" guesses).
    std::vector<long> inFromTop(static_cast<std::size_t>(m) + 1, 0);
    std::vector<long> outFromBottom(static_cast<std::size_t>(m) + 1, 0);
    for (long k = 0; k < m; ++k) {
        const auto top = static_cast<std::size_t>(order[static_cast<std::size_t>(k)]);
        const auto bottom = static_cast<std::size_t>(order[static_cast<std::size_t>(m - 1 - k)]);
        inFromTop[static_cast<std::size_t>(k) + 1] =
            inFromTop[static_cast<std::size_t>(k)] + (included[top] ? 1 : 0);
        outFromBottom[static_cast<std::size_t>(k) + 1] =
            outFromBottom[static_cast<std::size_t>(k)] + (included[bottom] ? 0 : 1);
    }
    // Two guesses per count r, fixed in advance: the top r called members; the top r/2 called
    // members and the bottom r/2 non-members (the paper's k₊ and k₋). Each is tested at the
    // error split between all of them.
    const std::vector<long> counts = oneRunGuessCounts(m);
    const double significance = (1.0 - confidence) / static_cast<double>(2 * counts.size());
    point.canaries = m;
    point.canariesIncluded = static_cast<long>(std::count(included.begin(), included.end(), true));
    point.guessOptions = static_cast<long>(2 * counts.size());
    point.delta = delta;
    point.epsilonLower = -1.0;
    for (long r : counts) {
        for (const long out : {0L, r / 2}) {
            const long in = r - out;
            const long right = inFromTop[static_cast<std::size_t>(in)] +
                               outFromBottom[static_cast<std::size_t>(out)];
            const double bound = oneRunEpsilonLower(m, in + out, right, significance, delta);
            if (bound > point.epsilonLower) {
                point.epsilonLower = bound;
                point.guesses = in + out;
                point.guessedOut = out;
                point.correctGuesses = right;
            }
        }
    }
}

double gradientCanaryStepScore(double x, double bound, double noiseOnSum, double rate) {
    const double a = (bound * x - 0.5 * bound * bound) / (noiseOnSum * noiseOnSum);
    // ln(1 − q + q·eᵃ) = ln(1 + q·(eᵃ − 1)), stable on both sides.
    if (a < 30.0) return std::log1p(rate * std::expm1(a));
    return a + std::log(rate) + std::log1p((1.0 - rate) / rate * std::exp(-a));
}

AuditResult runOneRunAudit(const AuditOptions& options, const DataSplit& data,
                           const CancelToken& cancel, const AuditProgress& progress) {
    const std::string problem = auditApplicability(options, data);
    if (!problem.empty()) throw InputError("privacy audit: " + problem);
    if (!isOneRun(options.method))
        throw InputError("one-run audit: the many-model methods are runPrivacyAudit's");
    const bool gradient = options.method == AuditMethod::OneRunGradient;
    const Algorithm& algorithm = findAlgorithm(options.config.algorithm);
    const Dataset& train = data.train;
    const long m = options.canaries;

    AuditResult result = startAuditResult(options, algorithm, train);
    result.canaries = m;

    // The canaries of every run, and the coin flips that put each in (fixed per audit seed).
    const long coordinates = static_cast<long>(
        makeModelForClasses(train.numClasses())->scoreDimension() * (train.features() + 1));
    // Gradient canaries: one per coordinate, so that they never add to each other's score.
    // Input canaries: no more than the model has coordinates (a linear model cannot fit more
    // far-off points at once) nor one per kRowsPerInputCanary rows.
    const long perRun =
        gradient ? std::min(m, coordinates)
                 : std::min({m, coordinates,
                             std::max(1L, static_cast<long>(train.rows()) / kRowsPerInputCanary)});
    const long runs = (m + perRun - 1) / perRun;
    std::vector<bool> included(static_cast<std::size_t>(m));
    {
        RandomStream coins(options.seed, kInclusionStream);
        for (long i = 0; i < m; ++i)
            included[static_cast<std::size_t>(i)] = coins.uniformOpen() < 0.5;
    }
    std::vector<Canary> inputCanaries;
    if (gradient) {
        result.canary.description =
            std::to_string(m) +
            " gradient canaries: each adds the clip bound Δ to one coordinate of the clipped "
            "θ-gradient sum whenever the run's Poisson sampler would draw it (one canary per "
            "coordinate and run, over " +
            std::to_string(runs) + (runs == 1 ? " run" : " runs") +
            "), each in with probability ½; the rows' own gradients are removed from the sum, "
            "the data set on which the claim is hardest to keep";
        result.score =
            "the log-likelihood ratio of every released noisy θ-gradient along the canary's "
            "coordinate (canary sampled and added vs. absent), summed over the steps";
    } else {
        const CanaryLabeller labeller(train);
        inputCanaries = makeInputCanaries(train, labeller, m, options.seed);
        result.canary.description =
            std::to_string(m) + " records far outside the data (distance " +
            formatNumber(kCanaryDistance) +
            " in standardised units, along random directions), each in the training rows with "
            "probability ½ (at most " +
            std::to_string(perRun) + " per run, over " + std::to_string(runs) +
            (runs == 1 ? " run" : " runs") + "), labelled with " + labeller.why();
        result.score = "the canary's logit margin for its label under the released model";
    }

    // Automatic settings resolved once per ε, on the largest data a run can see, so that every
    // run trains with the same batch size, δ and settings whatever the coin flips.
    DataSplit largest = data;
    if (!gradient) {
        std::vector<const Canary*> all;
        for (long i = 0; i < perRun; ++i)
            all.push_back(&inputCanaries[static_cast<std::size_t>(i)]);
        largest = withCanaries(data, all);
    }
    const unsigned threads = auditThreads(options);
    std::mutex progressMutex;
    AuditProgressCounter counter(progress, runs * static_cast<long>(options.epsilons.size()),
                                 progressMutex);

    for (double epsilon : options.epsilons) {
        if (cancel.cancelled()) break;
        const TrainConfig resolved = auditRunConfig(algorithm, options, epsilon, largest);

        std::vector<double> scores(static_cast<std::size_t>(m), 0.0);
        std::vector<RunOutcome> outcomes(static_cast<std::size_t>(runs));
        const auto start = std::chrono::steady_clock::now();
        runAuditJobs(runs, threads, cancel, [&](long run) {
            const long first = run * perRun;
            const long count = std::min(perRun, m - first);
            TrainConfig config = resolved;
            config.seed = options.seed * 1000003ULL + static_cast<std::uint64_t>(run);
            std::vector<bool> in(included.begin() + first, included.begin() + first + count);
            std::optional<GradientCanaries> hook;
            DataSplit withIncluded;
            const DataSplit* split = &data;
            if (gradient) {
                hook.emplace(in, config.seed);
            } else {
                std::vector<const Canary*> inserted;
                for (long i = 0; i < count; ++i) {
                    if (in[static_cast<std::size_t>(i)])
                        inserted.push_back(&inputCanaries[static_cast<std::size_t>(first + i)]);
                }
                withIncluded = withCanaries(data, inserted);
                split = &withIncluded;
            }
            TrainingObserver quiet;
            TrainingObserver& observer = hook ? static_cast<TrainingObserver&>(*hook) : quiet;
            const bool withCanary = !gradient && std::find(in.begin(), in.end(), true) != in.end();
            AuditRun trained =
                trainAuditRun(options, config, *split, observer, withCanary, cancel, progressMutex);
            RunOutcome& outcome = outcomes[static_cast<std::size_t>(run)];
            outcome.claimed = trained.claimedEpsilon;
            outcome.actual = trained.actualEpsilon;
            if (trained.cancelled) return;
            if (hook && !hook->started()) throw InputError(whiteBoxUnreachable(algorithm.name()));
            const RunResult& model = trained.result;
            for (long i = 0; i < count; ++i) {
                scores[static_cast<std::size_t>(first + i)] =
                    hook ? hook->scores()[static_cast<std::size_t>(i)]
                         : canaryScore(model.theta,
                                       inputCanaries[static_cast<std::size_t>(first + i)]);
            }
            counter.finished();
        });
        if (cancel.cancelled()) break;

        AuditPoint point = startAuditPoint(epsilon, start, runs);
        point.runs = runs;
        for (const RunOutcome& outcome : outcomes)
            foldClaims(point, outcome.claimed, outcome.actual);
        evaluateOneRunAttack(scores, included, resolved.delta, options.confidence, point);
        point.canaryScores = scores;
        point.canaryIncluded = included;
        result.points.push_back(std::move(point));
    }
    result.cancelled = cancel.cancelled();
    result.finishedAt = utcNow();
    return result;
}

}  // namespace pfa::audit
