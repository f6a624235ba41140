#include "core/privacy/accounting_inputs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/recent_results.h"

namespace pfa::privacy {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct KindName {
    ReleaseKind kind;
    const char* name;
};
constexpr KindName kKindNames[] = {
    {ReleaseKind::NoRelease, "none"},
    {ReleaseKind::Gaussian, "gaussian"},
    {ReleaseKind::PoissonSubsampled, "poisson-subsampled-gaussian"},
    {ReleaseKind::PoissonReplace, "poisson-replace-group-of-two"},
    {ReleaseKind::LinearAmplification, "linear-amplification"},
    {ReleaseKind::Uncertifiable, "uncertifiable"},
};

/// §4.1 with ln δ given directly, so that group privacy can go to δ far below the smallest
/// double (δ_row ≈ δ_user·e^{−(k−1)ε} for k in the hundreds).
double epsilonAtLogDelta(const OrderGrid& grid, const RdpCurve& curve, double lnDelta) {
    double best = kInf;
    for (std::size_t k = 0; k < grid.size(); ++k) {
        const double alpha = grid[k];
        const double rho = curve[k];
        if (!std::isfinite(rho) || !(alpha > 1.01)) continue;
        // δ² + expm1(−ρ) > 0 ⇔ 2 ln δ > ln(1 − e^{−ρ}): the ε = 0 case of §4.1.
        if (rho == 0.0 || 2.0 * lnDelta > std::log(-std::expm1(-rho))) return 0.0;
        const double eps = std::isinf(alpha) ? rho
                                             : rho + std::log1p(-1.0 / alpha) -
                                                   (lnDelta + std::log(alpha)) / (alpha - 1.0);
        best = std::min(best, eps);
    }
    return std::isinf(best) ? kInf : std::max(0.0, best);
}

/// ln Σ_{j<k} e^{jε} = ln((e^{kε} − 1)/(e^{ε} − 1)), stable for large k·ε.
double logGroupSum(long k, double epsilon) {
    if (epsilon <= 0.0) return std::log(static_cast<double>(k));
    const double kd = static_cast<double>(k);
    return (kd - 1.0) * epsilon + std::log(-std::expm1(-kd * epsilon)) -
           std::log(-std::expm1(-epsilon));
}

}  // namespace

std::string releaseKindName(ReleaseKind kind) {
    for (const KindName& entry : kKindNames) {
        if (entry.kind == kind) return entry.name;
    }
    return "uncertifiable";
}

ReleaseKind parseReleaseKind(const std::string& name) {
    for (const KindName& entry : kKindNames) {
        if (name == entry.name) return entry.kind;
    }
    throw InputError("unknown release curve '" + name + "'");
}

std::string adjacencyCode(Adjacency adjacency) {
    return adjacency == Adjacency::Replace ? "replace" : "add-remove";
}

Adjacency parseAdjacencyCode(const std::string& text) {
    if (text == "replace" || text == "replace-one") return Adjacency::Replace;
    if (text == "add-remove" || text == "add/remove-one" || text == "add_remove") {
        return Adjacency::AddRemove;
    }
    throw InputError("unknown adjacency '" + text + "': use add-remove or replace");
}

long AccountingInputs::releasesAfter(long executedSteps) const {
    const long per = std::max(1L, stepsPerRelease);
    return executedSteps <= 0 ? 0 : (executedSteps + per - 1) / per;
}

long AccountingInputs::interimReleasesAfter(long executedSteps) const {
    return interimNoiseMultiplier > 0.0 ? std::max(0L, executedSteps - releasesAfter(executedSteps))
                                        : 0L;
}

long GaussianRelease::releasesAfter(long steps) const {
    return steps <= 0 ? 0 : steps / std::max(1L, everySteps);
}

double AccountingInputs::pureEpsilon() const {
    double sum = 0.0;
    for (const PureRelease& release : pureReleases) sum += release.epsilon;
    return sum;
}

AccountingInputs AccountingInputs::afterSteps(long executedSteps) const {
    AccountingInputs copy = *this;
    copy.steps = executedSteps;
    return copy;
}

OrderGrid orderGridNamed(const std::string& name) {
    if (name == "standard") return OrderGrid::standard();
    if (name == "opacus") return OrderGrid::opacus();
    throw InputError("unknown order grid '" + name + "': use standard or opacus");
}

RdpCurve releaseCurve(const OrderGrid& grid, const AccountingInputs& in) {
    switch (in.kind) {
        case ReleaseKind::NoRelease:
            return RdpCurve(grid.size(), 0.0);
        case ReleaseKind::Gaussian:
            return gaussianCurve(grid, in.noiseMultiplier);
        case ReleaseKind::PoissonSubsampled:
            return subsampledGaussianStepCurve(grid, in.samplingRate, in.noiseMultiplier,
                                               Adjacency::AddRemove);
        case ReleaseKind::PoissonReplace:
            return subsampledGaussianStepCurve(grid, in.samplingRate, in.noiseMultiplier,
                                               Adjacency::Replace);
        case ReleaseKind::LinearAmplification:
            return linearCurve(grid, in.samplingRate, in.noiseMultiplier);
        case ReleaseKind::Uncertifiable:
            return RdpCurve(grid.size(), kInf);
    }
    return RdpCurve(grid.size(), kInf);
}

RdpCurve interimReleaseCurve(const OrderGrid& grid, const AccountingInputs& in) {
    if (!(in.interimNoiseMultiplier > 0.0)) return RdpCurve(grid.size(), 0.0);
    return gaussianCurve(grid, in.interimNoiseMultiplier);
}

namespace {

/// Adds a run's unsampled Gaussian releases to `curve`: its interim releases and its scheduled
/// ones (they draw their own noise on all rows, whatever sample the steps used).
void addUnsampledReleases(const OrderGrid& grid, const AccountingInputs& in, RdpCurve& curve) {
    const long interim = in.interimReleases();
    if (interim > 0) {
        const RdpCurve extra = scaled(interimReleaseCurve(grid, in), static_cast<double>(interim));
        for (std::size_t k = 0; k < curve.size(); ++k) curve[k] += extra[k];
    }
    addGaussianReleases(grid, in, in.steps, curve);
}

}  // namespace

RdpCurve runCurve(const OrderGrid& grid, const AccountingInputs& in) {
    RdpCurve curve = scaled(releaseCurve(grid, in), static_cast<double>(in.releases()));
    addUnsampledReleases(grid, in, curve);
    return curve;
}

RdpCurve sharedBatchesCurve(const OrderGrid& grid, const std::vector<AccountingInputs>& runs) {
    RdpCurve curve(grid.size(), 0.0);
    // A run that releases nothing that depends on the protected data adds nothing, whatever
    // sample it drew.
    std::vector<const AccountingInputs*> releasing;
    for (const AccountingInputs& run : runs)
        if (run.kind != ReleaseKind::NoRelease) releasing.push_back(&run);
    if (releasing.empty()) return curve;
    const AccountingInputs& first = *releasing.front();
    // A nested sample (every run's) may serve runs at different rates: add/remove only.
    const bool nested = std::all_of(releasing.begin(), releasing.end(),
                                    [](const AccountingInputs* run) { return run->nestedSample; });
    for (const AccountingInputs* run : releasing) {
        const bool sampled = run->kind == ReleaseKind::PoissonSubsampled ||
                             run->kind == ReleaseKind::PoissonReplace ||
                             run->kind == ReleaseKind::LinearAmplification;
        const bool sameRate = nested ? run->kind == ReleaseKind::PoissonSubsampled
                                     : run->samplingRate == first.samplingRate;
        if (!sampled || run->kind != first.kind || !sameRate || run->stepsPerRelease != 1 ||
            run->adjacency != first.adjacency) {
            return RdpCurve(grid.size(), kInf);
        }
    }
    // Segments between the distinct run lengths: in (previous, steps], every run at least
    // that long releases.
    std::vector<long> lengths;
    for (const AccountingInputs* run : releasing) lengths.push_back(run->steps);
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
    long previous = 0;
    for (const long length : lengths) {
        if (length <= previous) continue;
        double precision = 0.0;  // Σ 1/z_r² over the runs still training
        double rate = 0.0;       // the highest rate among them
        for (const AccountingInputs* run : releasing) {
            if (run->steps < length) continue;
            precision += run->noiseMultiplier > 0.0
                             ? 1.0 / (run->noiseMultiplier * run->noiseMultiplier)
                             : kInf;
            rate = std::max(rate, run->samplingRate);
        }
        AccountingInputs joint = first;
        joint.noiseMultiplier = std::isinf(precision) ? 0.0 : 1.0 / std::sqrt(precision);
        // Nested: the differing row is in no batch with probability 1 − q_max, else in those of
        // a random subset of the runs; the Rényi moments are convex in the mixture, each
        // component a subsampled Gaussian at q_max whose shift is at most the whole
        // concatenated release's, so the subsampled Gaussian at q_max and z_g bounds them.
        joint.samplingRate = rate;
        const RdpCurve step = releaseCurve(grid, joint);
        for (std::size_t k = 0; k < curve.size(); ++k)
            curve[k] += static_cast<double>(length - previous) * step[k];
        previous = length;
    }
    for (const AccountingInputs* run : releasing) addUnsampledReleases(grid, *run, curve);
    return curve;
}

void addGaussianReleases(const OrderGrid& grid, const AccountingInputs& in, long steps,
                         RdpCurve& curve) {
    for (const GaussianRelease& release : in.gaussianReleases) {
        const long count = release.releasesAfter(steps);
        if (count <= 0) continue;
        const RdpCurve one = gaussianCurve(grid, release.noiseMultiplier);
        for (std::size_t k = 0; k < curve.size(); ++k)
            curve[k] += static_cast<double>(count) * one[k];
    }
}

EpsilonResult certifiedEpsilon(const AccountingInputs& in) {
    const OrderGrid grid = orderGridNamed(in.grid);
    EpsilonResult result = epsilonFromRdp(grid, runCurve(grid, in), in.delta);
    result.epsilon += in.pureEpsilon();
    return result;
}

double groupPrivacyEpsilon(const OrderGrid& grid, const RdpCurve& rowCurve, double pureEpsilon,
                           long groupSize, double deltaUser) {
    if (groupSize < 1) throw InputError("group size must be at least 1");
    if (!(deltaUser > 0.0 && deltaUser < 1.0)) {
        throw InputError("delta = " + formatNumber(deltaUser) + " must be in (0, 1)");
    }
    const double lnDeltaUser = std::log(deltaUser);
    auto epsilonRow = [&](double lnDelta) {
        return epsilonAtLogDelta(grid, rowCurve, lnDelta) + pureEpsilon;
    };
    if (groupSize == 1) return epsilonRow(lnDeltaUser);
    // f(L) = L + ln Σ_{j<k} e^{jε(L)} − ln δ_user; any L with f(L) ≤ 0 gives a valid bound,
    // and the largest such L the smallest k·ε.
    auto excess = [&](double lnDelta) {
        const double eps = epsilonRow(lnDelta);
        if (std::isinf(eps)) return kInf;
        return lnDelta + logGroupSum(groupSize, eps) - lnDeltaUser;
    };
    double hi = lnDeltaUser;  // f(hi) ≥ 0 for k ≥ 2
    double gap = 1.0;
    double lo = hi - gap;
    while (!(excess(lo) <= 0.0)) {
        if (std::isinf(epsilonRow(lo)) || gap > 1e7) return kInf;
        hi = lo;
        gap *= 2.0;
        lo = hi - gap;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-9 * std::max(1.0, std::fabs(lo)); ++i) {
        const double mid = 0.5 * (lo + hi);
        if (excess(mid) <= 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return static_cast<double>(groupSize) * epsilonRow(lo);
}

namespace {

/// Everything solveNoiseMultiplierFor's answer reads, exactly (numbers by their bits); not the
/// labels (unit, sensitivities, shared batches), so runs that differ only there share it.
std::string solveKey(const AccountingInputs& shape, double zScale, double targetEpsilon) {
    std::string key;
    auto add = [&key](const auto& value) {
        key.append(reinterpret_cast<const char*>(&value), sizeof value);
    };
    add(zScale);
    add(targetEpsilon);
    add(static_cast<int>(shape.kind));
    add(static_cast<int>(shape.adjacency));
    add(shape.samplingRate);
    add(shape.stepsPerRelease);
    add(shape.steps);
    add(shape.delta);
    add(shape.interimNoiseMultiplier);
    add(shape.gaussianReleases.size());
    for (const GaussianRelease& release : shape.gaussianReleases) {
        add(release.noiseMultiplier);
        add(release.everySteps);
    }
    key += shape.grid;  // last: its length is the rest of the key
    return key;
}

double solveNoiseMultiplierUncached(const AccountingInputs& shape, double zScale,
                                    double targetEpsilon) {
    const OrderGrid grid = orderGridNamed(shape.grid);
    const bool poisson =
        shape.kind == ReleaseKind::PoissonSubsampled || shape.kind == ReleaseKind::PoissonReplace;
    if (poisson && shape.stepsPerRelease == 1 && zScale == 1.0) {
        // The accountant's own Poisson solver (uncached curves: bisection visits each z once).
        return solveSgmMultiplier(grid, shape.samplingRate, shape.steps, targetEpsilon, shape.delta,
                                  shape.kind == ReleaseKind::PoissonReplace ? Adjacency::Replace
                                                                            : Adjacency::AddRemove)
            .noiseMultiplier;
    }
    AccountingInputs trial = shape;
    trial.pureReleases.clear();
    auto curveFn = [&](double z) {
        trial.noiseMultiplier = z * zScale;
        return runCurve(grid, trial);
    };
    return solveNoiseMultiplier(curveFn, grid, targetEpsilon, shape.delta).noiseMultiplier;
}

}  // namespace

double solveNoiseMultiplierFor(const AccountingInputs& shape, double zScale, double targetEpsilon) {
    // The runs of a sweep that differ only in what the accounting does not read (seed, λ, the
    // fairness notion, a weight rule) solve the same z: solved once, not per run.
    static RecentResults<std::string, double> solved(256);
    return solved.get(solveKey(shape, zScale, targetEpsilon),
                      [&] { return solveNoiseMultiplierUncached(shape, zScale, targetEpsilon); });
}

}  // namespace pfa::privacy
