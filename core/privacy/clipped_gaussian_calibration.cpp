#include "core/privacy/clipped_gaussian_calibration.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace pfa::privacy {

Adjacency analysedAdjacency(Sampling sampling, Adjacency requested) {
    return sampling == Sampling::Poisson ? requested : Adjacency::Replace;
}

namespace {

/// solveNoiseMultiplierFor, remembered: the runs of a sweep's cell or of an audit (hundreds of
/// seeds of one setting) solve the same z, and each solve composes the accountant many times.
/// The solve is a pure function of these inputs, so a remembered z is the z it would return.
double rememberedNoiseMultiplier(const AccountingInputs& shape, double zScale, double epsilon) {
    using Key = std::tuple<int, int, double, long, long, double, double, double>;
    static std::mutex mutex;
    static std::map<Key, double> solved;
    const Key key{static_cast<int>(shape.kind),
                  static_cast<int>(shape.adjacency),
                  shape.samplingRate,
                  shape.steps,
                  shape.stepsPerRelease,
                  shape.delta,
                  zScale,
                  epsilon};
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (const auto found = solved.find(key); found != solved.end()) return found->second;
    }
    const double z = solveNoiseMultiplierFor(shape, zScale, epsilon);
    const std::lock_guard<std::mutex> lock(mutex);
    if (solved.size() >= 4096) solved.clear();  // bounded: a long session's sweeps
    solved.emplace(key, z);
    return z;
}

}  // namespace

ClippedGaussianCalibration calibrateClippedGaussian(const SamplerSpec& sampler, Adjacency adjacency,
                                                    double epsilonTrain, double delta) {
    const Sampling sampling = sampler.mode;
    const double q = sampler.samplingRate();
    AccountingInputs shape;
    shape.adjacency = analysedAdjacency(sampling, adjacency);
    shape.delta = delta;
    shape.steps = sampler.steps();
    // z of the curve = zScale × the mechanism's z (S/C): a replaced unit's two possible
    // contributions differ by up to 2C where only the difference bound is used.
    double zScale = 1.0;
    std::string mechanism;
    switch (sampling) {
        case Sampling::Poisson:
            shape.samplingRate = q;
            shape.stepsPerRelease = 1;
            if (shape.adjacency == Adjacency::Replace) {
                shape.kind = ReleaseKind::PoissonReplace;
                mechanism = "Poisson-subsampled Gaussian, replace-one via the group-of-two bound";
            } else {
                shape.kind = ReleaseKind::PoissonSubsampled;
                mechanism = "Poisson-subsampled Gaussian, signed series";
            }
            shape.sensitivity = "C (clip norm of one unit's contribution)";
            break;
        case Sampling::Shuffle:
            shape.kind = ReleaseKind::Gaussian;
            shape.samplingRate = 1.0;
            shape.stepsPerRelease = std::max(1L, sampler.stepsPerEpoch());
            shape.sensitivity = "2C (a replaced unit's two contributions to its batch sum)";
            zScale = 0.5;
            mechanism =
                "Gaussian, one release per epoch (fixed-size shuffled batches, analysed "
                "under replace-one: each unit sits in one batch per epoch; no "
                "amplification)";
            break;
        case Sampling::Subsample:
            shape.kind = ReleaseKind::LinearAmplification;
            shape.samplingRate = q;
            shape.stepsPerRelease = 1;
            shape.sensitivity = "2C (a replaced unit's two contributions to its batch sum)";
            zScale = 0.5;
            mechanism =
                "uniformly subsampled Gaussian (m distinct rows per step, analysed "
                "under replace-one), linear amplification bound";
            break;
    }
    const double z = rememberedNoiseMultiplier(shape, zScale, epsilonTrain);
    shape.noiseMultiplier = z * zScale;
    std::optional<AccountingInputs> poissonAssumed;
    if (sampling != Sampling::Poisson) {
        AccountingInputs poisson = shape;
        poisson.kind = ReleaseKind::PoissonReplace;
        poisson.samplingRate = q;
        poisson.stepsPerRelease = 1;
        poisson.noiseMultiplier = z;
        poisson.sensitivity = "C (clip norm of one unit's contribution)";
        poissonAssumed = poisson;
    }
    return {sampler, z, shape, poissonAssumed, mechanism};
}

}  // namespace pfa::privacy
