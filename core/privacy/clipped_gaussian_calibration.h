#pragma once

#include <optional>
#include <string>

#include "core/privacy/run_accountant.h"
#include "core/train/train_config.h"

namespace pfa::privacy {

/// Noise for a whole-record mechanism whose per-unit contributions are clipped (DP-SGD, and
/// DP-FERMI's conservative calibration): the joint noise multiplier z that meets the target,
/// and the accountant that certifies what the run spends (privacy-accounting.md §5, §6, §8).
struct ClippedGaussianCalibration {
    double noiseMultiplier = 0.0;  ///< effective z of the joint per-step release
    RunAccountant certified;       ///< rigorous accounting for the sampling actually used
    /// For shuffle/subsample: the "ε if Poisson sampling is assumed" approximation.
    std::optional<RunAccountant> poissonAssumed;
    std::string mechanism;         ///< for the statement
    std::string adjacency;         ///< adjacency of the certified number
};

/// Solves z for `steps` steps at rate q so that ε_train is met at δ under Poisson sampling
/// (always the calibration target, as TF-Privacy and Opacus do), and builds the certified
/// accountant: Poisson → subsampled Gaussian (add/remove or group-of-two replace);
/// shuffle → one unamplified Gaussian per epoch; subsample → the linear amplification bound
/// with the difference bound 2C. `pureEpsilon` (e.g. privatised shares) is added on top.
ClippedGaussianCalibration calibrateClippedGaussian(Sampling sampling, Adjacency adjacency,
                                                    double q, long steps, long stepsPerEpoch,
                                                    double epsilonTrain, double delta,
                                                    double pureEpsilon);

}  // namespace pfa::privacy
