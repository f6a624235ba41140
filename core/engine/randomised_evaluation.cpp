#include "core/engine/randomised_evaluation.h"

namespace pfa {

ParamSpec randomisedEvaluationParameter() {
    ParamSpec spec;
    spec.name = "evaluation";
    spec.label = "Evaluation";
    spec.kind = ParamKind::Choice;
    spec.help =
        "How a randomised classifier is scored: exact expected rates, or one seeded "
        "Bernoulli draw per row";
    spec.choices = {
        {"expectation", "Expected rates",
         "exact expected error and rates of the randomised classifier"},
        {"sampled", "One sampled draw",
         "one seeded Bernoulli draw per test row, scored like a deterministic classifier"},
    };
    spec.defaultValue = "expectation";
    return ownParameter(std::move(spec));
}

}  // namespace pfa
