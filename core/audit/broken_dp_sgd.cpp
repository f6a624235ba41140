#include "core/audit/broken_dp_sgd.h"

#include <limits>

#include "core/algorithms/registry.h"
#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/audit/privacy_audit.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/private_run_report.h"
#include "core/privacy/clipped_gaussian_calibration.h"
#include "core/util/error.h"

namespace pfa::audit {

namespace {

double certifiedEpsilon(const TrainerPlan& plan, const TrainConfig& config, const Dataset& train,
                        long steps) {
    const auto accountant = planAccountant(plan, config.delta, train.unitName);
    return accountant ? accountant->after(steps).epsilon : std::numeric_limits<double>::infinity();
}

}  // namespace

BrokenRun runBrokenDpSgd(const TrainConfig& requested, const DataSplit& data, double noiseDivisor,
                         const CancelToken& cancel, TrainingObserver* observer) {
    if (requested.algorithm != kAuditedAlgorithm || !requested.isPrivate() ||
        !(noiseDivisor > 1.0)) {
        throw InputError("the broken mechanism is private dp-sgd with a noise divisor > 1");
    }
    const Algorithm& dpSgd = findAlgorithm(kAuditedAlgorithm);
    const TrainConfig config = prepareRun(dpSgd, requested, data).config();

    // The plan DpSgd::run makes: clipped per-example gradients, noise solved for the sampler.
    TrainerPlan claimed;
    claimed.sampler = rowSampler(config, data.train);
    const privacy::ClippedGaussianCalibration calibration = privacy::calibrateClippedGaussian(
        claimed.sampler, config.adjacency, config.epsilon, config.delta);
    claimed.clipping.enabled = true;
    claimed.clipping.clipTheta = config.clipTheta;
    claimed.noise = GaussianMechanism::calibrated(calibration, config.clipTheta);

    // The bug: the noise drawn is z/k. The mechanism charges what it draws, so the run's own
    // report stays honest; the false claim is the one kept in `claimedEpsilon`.
    TrainerPlan plan = claimed;
    privacy::ClippedGaussianCalibration weakened = calibration;
    weakened.noiseMultiplier /= noiseDivisor;
    weakened.release.noiseMultiplier /= noiseDivisor;
    weakened.mechanism += " (DELIBERATELY BROKEN: noise divided by the audit's divisor)";
    plan.noise = GaussianMechanism::calibrated(weakened, config.clipTheta);

    TrainingObserver quiet;
    BrokenRun run;
    run.result = runSaddlePointTrainer(config, plan, data, observer ? *observer : quiet, cancel);
    describeClippedGaussianRun(run.result, plan, data.train);
    run.result.privacy.algorithm = "dp-sgd (deliberately broken)";
    run.claimedEpsilon = certifiedEpsilon(claimed, config, data.train, run.result.steps);
    run.actualEpsilon = certifiedEpsilon(plan, config, data.train, run.result.steps);
    return run;
}

}  // namespace pfa::audit
