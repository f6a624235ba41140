#include "core/privacy/clipped_gaussian_calibration.h"

namespace pfa::privacy {

ClippedGaussianCalibration calibrateClippedGaussian(Sampling sampling, Adjacency adjacency,
                                                    double q, long steps, long stepsPerEpoch,
                                                    double epsilonTrain, double delta,
                                                    double pureEpsilon) {
    const OrderGrid grid = OrderGrid::standard();
    const MultiplierSolution solution =
        solveSgmMultiplier(grid, q, steps, epsilonTrain, delta, adjacency);
    const double z = solution.noiseMultiplier;
    RunAccountant poisson(grid, subsampledGaussianStepCurve(grid, q, z, adjacency), 1, delta,
                          pureEpsilon);
    const std::string adjacencyText =
        adjacency == Adjacency::Replace ? "replace-one" : "add/remove-one";
    switch (sampling) {
        case Sampling::Poisson:
            return {z, poisson, std::nullopt,
                    adjacency == Adjacency::Replace
                        ? "Poisson-subsampled Gaussian, replace-one via the group-of-two bound"
                        : "Poisson-subsampled Gaussian, signed series",
                    adjacencyText};
        case Sampling::Shuffle: {
            // Each unit sits in exactly one batch per epoch: one unamplified release per epoch.
            // Replace-one doubles the sensitivity (z/2).
            const double zEffective = adjacency == Adjacency::Replace ? z / 2.0 : z;
            RunAccountant rigorous(grid, gaussianCurve(grid, zEffective), stepsPerEpoch, delta,
                                   pureEpsilon);
            return {z, rigorous, poisson,
                    "Gaussian, one release per epoch (shuffled batches, no amplification)",
                    adjacencyText};
        }
        case Sampling::Subsample: {
            // Linear amplification with the difference bound 2C of a replaced unit.
            RunAccountant rigorous(grid, linearCurve(grid, q, z / 2.0), 1, delta, pureEpsilon);
            return {z, rigorous, poisson,
                    "uniformly subsampled Gaussian, linear amplification bound", "replace-one"};
        }
    }
    return {z, poisson, std::nullopt, "", adjacencyText};
}

}  // namespace pfa::privacy
