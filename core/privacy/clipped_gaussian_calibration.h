#pragma once

#include <optional>
#include <string>

#include "core/privacy/accounting_inputs.h"
#include "core/privacy/sampling.h"

namespace pfa::privacy {

/// Noise for a whole-record mechanism whose per-unit contributions are clipped (DP-SGD, and
/// DP-FERMI's conservative calibration): the joint noise multiplier z that meets the target,
/// and how each of the sampler's releases is charged at that z (privacy-accounting.md §5, §6,
/// §8). The run's accountant is composed from the noise mechanism built on this (with the
/// run's side releases), not from the calibration itself.
struct ClippedGaussianCalibration {
    SamplerSpec sampler;  ///< the sampler the noise was solved for (q, steps per epoch, T)
    /// z: std of the noise on each released sum divided by the clip norm C (joint over the
    /// streams of one step, privacy-accounting.md §2.3).
    double noiseMultiplier = 0.0;
    /// The rigorous charge of one release for the sampling actually used: curve, q, steps per
    /// release and the curve's z (z/2 where only the difference bound 2C applies), the bound
    /// it refers to, adjacency, δ and the sampler's T. No unit and no side releases.
    AccountingInputs release;
    /// For shuffle/subsample: the same, as if Poisson sampling were used (an approximation).
    std::optional<AccountingInputs> poissonAssumed;
    std::string mechanism;  ///< for the statement
};

/// Solves z so that the *rigorous* ε of the sampler that runs meets `epsilonTrain` at δ over its
/// T = sampler.steps() steps, and says how each release is charged:
///  * Poisson: subsampled Gaussian at q = sampler.samplingRate() (signed series for add/remove,
///    group-of-two for replace-one);
///  * shuffle: fixed-size batches, analysed under replace-one (n is public): each unit sits in
///    one batch per epoch, so one unamplified Gaussian release per epoch of
///    sampler.stepsPerEpoch() steps, with the difference bound 2C;
///  * subsample (m distinct rows per step): replace-one, linear amplification at q with the
///    difference bound 2C.
/// The trainer must normalise every batch sum by the fixed m (never by the realised batch
/// size), so that the noise on each sum is z·C. Side releases (e.g. privatised shares) are not
/// part of the target: the caller subtracts their ε from it.
ClippedGaussianCalibration calibrateClippedGaussian(const SamplerSpec& sampler, Adjacency adjacency,
                                                    double epsilonTrain, double delta);

/// The adjacency a clipped-Gaussian run is analysed under: replace-one for fixed-size batches
/// (shuffle, subsample), otherwise the requested one.
Adjacency analysedAdjacency(Sampling sampling, Adjacency requested);

}  // namespace pfa::privacy
