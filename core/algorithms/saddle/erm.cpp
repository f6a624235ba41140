// erm: plain minibatch SGD on cross-entropy (optional L2). Not private, no fairness term.
#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/engine/batch_sampler.h"

namespace pfa {

namespace {

class Erm final : public Algorithm {
public:
    std::string name() const override { return "erm"; }
    std::string description() const override {
        return "Plain logistic/softmax regression by minibatch SGD: no privacy, no fairness term.";
    }
    AlgorithmCapabilities capabilities() const override { return {}; }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters({"fairness", "seed", "epochs", "batch-size", "lr-theta", "l2",
                                 "sampling", "advantaged-class", "evaluate-every"});
    }

    void validate(const TrainConfig& config, const DataSplit&) const override {
        requireNoFairness(config);
        requireNonPrivate(config);
    }

    AlgorithmPresentation presentation() const override {
        return {
            .marker = ChartMarker::Star,
            .colour = 0x5A5A5A,
            .plainWords =
                "<b>ERM</b> (empirical risk minimisation) fits the model that makes the fewest "
                "mistakes on the training rows, step by step (stochastic gradient descent). It "
                "ignores privacy and fairness: it is the baseline the other methods are measured "
                "against."};
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        TrainerPlan plan;
        plan.sampler = rowSampler(config, data.train);
        RunResult result = runSaddlePointTrainer(config, plan, data, observer, cancel);
        result.privacy = privacy::nonPrivateReport(name(), result.steps);
        return result;
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeErm() { return std::make_unique<Erm>(); }

}  // namespace pfa
