#pragma once

#include "core/config/parameters.h"

namespace pfa {

/// The `evaluation` setting of algorithms whose output is a randomised classifier
/// (dp-postprocessing, dp-reductions): "expectation" scores its exact expected rates,
/// "sampled" one seeded Bernoulli draw per test row. Declared here once for all of them.
ParamSpec randomisedEvaluationParameter();

}  // namespace pfa
