#pragma once

// The privacy audit's settings shared by its tests.
#include <utility>
#include <vector>

#include "core/audit/privacy_audit.h"

namespace pfa::test {

/// DP-SGD on the tests' 2000 synthetic rows (1500 for training): 40 epochs of batch 64 with
/// clip 10 (a large clip lets a canary move the model: a sharper attack), two threads, seed 7,
/// at the target `epsilons`; the design's own counts (models, canaries) are the caller's.
inline audit::AuditOptions auditTestOptions(std::vector<double> epsilons) {
    audit::AuditOptions options;
    options.config.algorithm = "dp-sgd";
    options.config.lambda = 0.0;
    options.config.epochs = 40;
    options.config.batchSize = 64;
    options.config.clipTheta = 10.0;
    options.epsilons = std::move(epsilons);
    options.threads = 2;
    options.seed = 7;
    return options;
}

}  // namespace pfa::test
