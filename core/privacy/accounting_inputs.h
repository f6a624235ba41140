#pragma once

#include <string>
#include <vector>

#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_mechanisms.h"

/// The exact inputs of a run's privacy accounting, stored with every run record so that anyone
/// can recompute its ε with the accountant (privacy-accounting.md §2–§4), and the curves and
/// conversions built from them.
namespace pfa::privacy {

/// Which per-release RDP curve the run's releases are charged with (privacy-accounting.md §2).
enum class ReleaseKind {
    NoRelease,            ///< nothing released depends on the protected data: ρ = 0
    Gaussian,             ///< unsampled Gaussian α/(2z²) (§2.1)
    PoissonSubsampled,    ///< Poisson-subsampled Gaussian, add/remove, signed series (§2.2)
    PoissonReplace,       ///< Poisson-subsampled Gaussian, replace-one, group-of-two (§2.5)
    LinearAmplification,  ///< linear amplification bound (§2.5)
    Uncertifiable,        ///< something is released without noise: no finite ε
};

/// "none", "gaussian", "poisson-subsampled-gaussian", "poisson-replace-group-of-two",
/// "linear-amplification", "uncertifiable".
std::string releaseKindName(ReleaseKind kind);
/// Inverse of releaseKindName; throws InputError for an unknown name.
ReleaseKind parseReleaseKind(const std::string& name);
/// "add-remove" or "replace" (the record spelling).
std::string adjacencyCode(Adjacency adjacency);
/// Inverse of adjacencyCode; also accepts "add/remove-one" and "replace-one".
Adjacency parseAdjacencyCode(const std::string& text);

/// A pure-DP side release (e.g. Laplace-noised group shares), charged by basic composition:
/// its ε₀ is added to the ε converted from the RDP curve (privacy-accounting.md §2.4, §3).
struct PureRelease {
    std::string what;       ///< e.g. "group shares"
    std::string mechanism;  ///< e.g. "Laplace(2/ε₀) per cell"
    double epsilon = 0.0;   ///< ε₀
};

/// An unsampled full-batch Gaussian release made once every `everySteps` training steps (after
/// steps everySteps, 2·everySteps, …), charged α/(2z²) each (privacy-accounting.md §2.1): e.g.
/// PF-LD's noisy dual statistics once per epoch, or a reductions game's learner and auditor
/// once per round. Unsampled Gaussians compose exactly: their RDP curves add.
struct GaussianRelease {
    std::string what;              ///< e.g. "cell sums of the dual step"
    double noiseMultiplier = 0.0;  ///< z: noise std divided by the bound named in `sensitivity`
    long everySteps = 1;           ///< one release after every this many steps (≥ 1)
    std::string sensitivity;       ///< the ℓ2 bound z refers to, e.g. "C_d (clip of f_i)"

    /// Releases made once `steps` steps have run: ⌊steps / everySteps⌋.
    long releasesAfter(long steps) const;
};

/// Everything the accountant used for one run. ε = epsilonFromRdp(releases × curve(kind, q, z)
/// + interimReleases × gaussian(z_interim), δ) + Σ pure ε₀, on the named order grid.
struct AccountingInputs {
    std::string unit = "record";  ///< what one neighbouring data set adds, removes or changes
    Adjacency adjacency = Adjacency::AddRemove;
    ReleaseKind kind = ReleaseKind::Uncertifiable;
    double samplingRate = 1.0;  ///< q of the per-release curve (1 for unsampled releases)
    /// z at which the curve is evaluated: noise std on the released sum divided by the bound
    /// named in `sensitivity` (e.g. S/(2C) for a replace-one difference bound of 2C).
    double noiseMultiplier = 0.0;
    std::string sensitivity;   ///< the bound z refers to, e.g. "C (clip norm)"
    long stepsPerRelease = 1;  ///< training steps per charged release (an epoch for shuffle)
    long steps = 0;            ///< training steps executed
    double delta = 0.0;
    std::vector<PureRelease> pureReleases;
    std::string grid = "standard";  ///< order grid: "standard" (spec §4.3) or "opacus"
    /// A second kind of release: an unsampled Gaussian charged once for each executed step
    /// beyond the releases() of the main kind (steps − releases() of them), at this multiplier
    /// (noise std divided by `interimSensitivity`); 0: none. E.g. DIFF2's gradient-difference
    /// rounds: the main kind is its restart rounds (steps 1, T+1, 2T+1, …: ⌈steps/T⌉ of them
    /// with stepsPerRelease = T), every other round releases one difference. Unsampled
    /// Gaussians compose exactly: their RDP curves add.
    double interimNoiseMultiplier = 0.0;
    std::string interimSensitivity;  ///< the bound z_interim refers to
    /// Further unsampled Gaussian releases on their own schedules (see GaussianRelease).
    std::vector<GaussianRelease> gaussianReleases;
    /// Non-empty when the run drew its Poisson batches from a sample shared with other runs
    /// (TrainConfig::batchSharing): the identity of that sample ("seed 0, batches 3fa9…").
    /// The run's own ε is unchanged; a ledger composes the runs that share one sample as one
    /// subsampled mechanism (composeLedgerCurve), not as independent runs.
    std::string sharedBatches;
    /// The shared sample is NESTED (shared-sample nested): the runs sharing it may differ in
    /// rate and private rows; a row is in the batch of every run it is private to whose rate
    /// exceeds the row's level (one uniform per row and step), so it joins at least one batch
    /// with probability the highest rate among them. sharedBatchesCurve charges such runs at
    /// that rate.
    bool nestedSample = false;

    /// Number of charged releases: ⌈steps / stepsPerRelease⌉ (a partial epoch counts whole).
    long releases() const { return releasesAfter(steps); }
    /// Number of charged interim releases: steps − releases() when interimNoiseMultiplier > 0,
    /// else 0.
    long interimReleases() const { return interimReleasesAfter(steps); }
    /// releases() after `executedSteps` steps instead of `steps`.
    long releasesAfter(long executedSteps) const;
    /// interimReleases() after `executedSteps` steps instead of `steps`.
    long interimReleasesAfter(long executedSteps) const;

    /// Σ of the pure side releases' ε₀.
    double pureEpsilon() const;
    /// The same inputs after `executedSteps` training steps.
    AccountingInputs afterSteps(long executedSteps) const;
};

/// The order grid named by AccountingInputs::grid; throws InputError for an unknown name.
OrderGrid orderGridNamed(const std::string& name);
/// The curve of one release (per-release ρ(α) on `grid`); +∞ everywhere when uncertifiable.
RdpCurve releaseCurve(const OrderGrid& grid, const AccountingInputs& inputs);
/// The curve of one interim release (gaussian at interimNoiseMultiplier; 0 when there is none).
RdpCurve interimReleaseCurve(const OrderGrid& grid, const AccountingInputs& inputs);
/// The run's composed curve: releases() × releaseCurve + interimReleases() × interim curve
/// + Σ over gaussianReleases of releasesAfter(steps) × α/(2z²) (pure releases not included).
RdpCurve runCurve(const OrderGrid& grid, const AccountingInputs& inputs);
/// The joint curve of runs that drew their batches from one shared Poisson sample (the same
/// AccountingInputs::sharedBatches): at each step the runs still training release their noisy
/// sums on the same sample, which is one subsampled Gaussian mechanism with effective
/// multiplier z_g = (Σ 1/z_r²)^(-1/2) over those runs (the concatenated release, whitened, has
/// ℓ2 sensitivity √Σ 1/z_r² at unit noise), charged once per step; the runs' unsampled
/// Gaussian releases (interim, scheduled) use their own noise and add as usual. Runs of
/// different lengths are composed by segments of steps. The per-step curve is the runs' own
/// kind at z_g: the subsampled Gaussian (add/remove), its group-of-two bound (replace-one) or
/// the linear amplification bound, each of which holds for the concatenated release on one
/// Poisson sample as for one Gaussian release of multiplier z_g (the unit is absent from all
/// of them or present in all of them). Runs that release nothing (NoRelease) add nothing. +∞
/// everywhere when the other runs are not all of one such kind, one release per step, at one
/// sampling rate and adjacency: no joint analysis applies then. Runs that all drew a NESTED
/// sample (nestedSample, add/remove only) may differ in rate: each step is charged as the
/// subsampled Gaussian at the highest rate among the runs still training (the differing row
/// joins no batch with probability 1 − q_max, else those of some of the runs; the Rényi moments
/// of either direction are convex in that mixture and each component is at most the whole
/// concatenated release at q_max). Pure releases not included.
RdpCurve sharedBatchesCurve(const OrderGrid& grid, const std::vector<AccountingInputs>& runs);
/// Adds the gaussianReleases made by `steps` steps to `curve` (on `grid`).
void addGaussianReleases(const OrderGrid& grid, const AccountingInputs& inputs, long steps,
                         RdpCurve& curve);
/// The certified ε of the inputs at their δ: RDP conversion plus the pure releases' ε₀.
EpsilonResult certifiedEpsilon(const AccountingInputs& inputs);

/// Group privacy for a unit that holds up to `groupSize` rows of a row-level run
/// (privacy-accounting.md §7, fallback): finds δ_row by bisection on ln δ_row so that
/// δ_row·(e^{kε_row} − 1)/(e^{ε_row} − 1) ≤ δ_user, with ε_row from the accountant at δ_row
/// (the RDP curve plus `pureEpsilon`), and returns k·ε_row — a loose bound. +∞ when the curve
/// gives no finite ε; the row-level ε itself for k = 1.
double groupPrivacyEpsilon(const OrderGrid& grid, const RdpCurve& rowCurve, double pureEpsilon,
                           long groupSize, double deltaUser);

/// Solves the common noise multiplier z for a target ε (privacy-accounting.md §5): `shape`
/// gives the accounting for a trial z (its noiseMultiplier is overwritten by z·zScale and its
/// pure releases are ignored, the caller subtracts them from the target). Returns z.
double solveNoiseMultiplierFor(const AccountingInputs& shape, double zScale, double targetEpsilon);

}  // namespace pfa::privacy
