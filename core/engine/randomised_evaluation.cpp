#include "core/engine/randomised_evaluation.h"

namespace pfa {

ParamSpec randomisedEvaluationParameter() {
    return declare("evaluation", "Evaluation", ParamKind::Choice,
                   "How a randomised classifier is scored: exact expected rates, or one seeded "
                   "Bernoulli draw per row")
        .choices({
            {"expectation", "Expected rates",
             "exact expected error and rates of the randomised classifier"},
            {"sampled", "One sampled draw",
             "one seeded Bernoulli draw per test row, scored like a deterministic classifier"},
        })
        .defaultValue("expectation")
        .advanced();
}

}  // namespace pfa
