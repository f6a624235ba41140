#pragma once

#include "core/config/cancel_token.h"
#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"

namespace pfa::audit {

/// One run of the DELIBERATELY BROKEN DP-SGD the audit demonstrates itself on.
struct BrokenRun {
    RunResult result;
    /// What the broken mechanism claims: the accountant's ε for the noise it was calibrated to
    /// (the target), which it does not add.
    double claimedEpsilon = 0.0;
    /// The accountant's ε for the noise it actually adds (noise ÷ divisor): the true cost.
    double actualEpsilon = 0.0;
};

/// DP-SGD exactly as registered (per-example clipping, Poisson sampling, Gaussian noise solved
/// from config.epsilon), except that the noise it draws is the calibrated noise divided by
/// `noiseDivisor` (> 1). For the privacy audit's demonstration and tests only: it is not a
/// registered algorithm, so no sweep, session or record can ever use it. The run's own privacy
/// report is that of the noise actually drawn (the honest, much larger ε). `observer`: the
/// run's observer (e.g. the white-box audit's), none when null.
BrokenRun runBrokenDpSgd(const TrainConfig& config, const DataSplit& data, double noiseDivisor,
                         const CancelToken& cancel, TrainingObserver* observer = nullptr);

}  // namespace pfa::audit
