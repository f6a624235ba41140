#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/privacy/run_accountant.h"
#include "core/privacy/sampling.h"

namespace pfa::privacy {

/// Noise for a whole-record mechanism whose per-unit contributions are clipped (DP-SGD, and
/// DP-FERMI's conservative calibration): the joint noise multiplier z that meets the target,
/// and the accountant that certifies what the run spends (privacy-accounting.md §5, §6, §8).
struct ClippedGaussianCalibration {
    /// z: std of the noise on each released sum divided by the clip norm C (joint over the
    /// streams of one step, privacy-accounting.md §2.3).
    double noiseMultiplier = 0.0;
    RunAccountant certified;  ///< rigorous accounting for the sampling actually used
    /// For shuffle/subsample: the "ε if Poisson sampling is assumed" approximation.
    std::optional<RunAccountant> poissonAssumed;
    std::string mechanism;    ///< for the statement
};

/// Solves z so that the *rigorous* ε of the sampler that runs meets `epsilonTrain` at δ over its
/// T = sampler.steps() steps, and builds the accountant that certifies it:
///  * Poisson: subsampled Gaussian at q = sampler.samplingRate() (signed series for add/remove,
///    group-of-two for replace-one);
///  * shuffle: fixed-size batches, analysed under replace-one (n is public): each unit sits in
///    one batch per epoch, so one unamplified Gaussian release per epoch of
///    sampler.stepsPerEpoch() steps, with the difference bound 2C;
///  * subsample (m distinct rows per step): replace-one, linear amplification at q with the
///    difference bound 2C.
/// The trainer must normalise every batch sum by the fixed m (never by the realised batch
/// size), so that the noise on each sum is z·C. `pure` side releases (e.g. privatised shares)
/// are charged on top by basic composition; `unit` names the unit of privacy.
ClippedGaussianCalibration calibrateClippedGaussian(const SamplerSpec& sampler,
                                                    Adjacency adjacency, double epsilonTrain,
                                                    double delta, std::vector<PureRelease> pure,
                                                    const std::string& unit);

/// The adjacency a clipped-Gaussian run is analysed under: replace-one for fixed-size batches
/// (shuffle, subsample), otherwise the requested one.
Adjacency analysedAdjacency(Sampling sampling, Adjacency requested);

}  // namespace pfa::privacy
