// fermi: non-private stochastic FERMI (dp-fermi.md §6.2) with the full ERMI (W is k×l, or one
// k×l block per label for equalized odds).
#include <cmath>

#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/engine/batch_sampler.h"
#include "core/fairness/penalty_layout.h"

namespace pfa {

namespace {

class Fermi final : public Algorithm {
public:
    std::string name() const override { return "fermi"; }
    std::string description() const override {
        return "Fair training without privacy: minimises loss + λ·ERMI by stochastic "
               "descent–ascent (FERMI).";
    }
    AlgorithmCapabilities capabilities() const override { return {.fairness = true}; }
    std::vector<ParamSpec> parameters() const override {
        return commonParameters({"fairness", "lambda", "seed", "epochs", "batch-size", "lr-theta",
                                 "lr-w", "l2", "sampling", "min-group-share", "w-radius",
                                 "projection", "advantaged-class", "evaluate-every", "averaging"});
    }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        requireNonPrivate(config);
        if (config.lambda > 0) requirePenaltyCellsPresent(config, data.train);
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig adjusted = requested;
        // Not private, so the radius may come from the data: √(l / min π) always contains W*.
        if (adjusted.wRadius == 0.0 && requested.lambda > 0) {
            adjusted.wRadius =
                std::sqrt(data.train.numClasses() / observedShares(requested, data).minCoeff());
        }
        return resolveDefaults(adjusted, data);
    }

    AlgorithmPresentation presentation() const override {
        return {
            .marker = ChartMarker::Square,
            .colour = 0x009E73,
            .plainWords =
                "<b>FERMI</b> trains for accuracy <i>and</i> fairness: it minimises "
                "<i>loss + λ·ERMI</i>, where ERMI measures how much the predictions depend on the "
                "group. A second player (a small matrix W) keeps estimating that penalty while the "
                "model descends, so training is a game of descent and ascent. No privacy."};
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        const Eigen::VectorXd shares = observedShares(config, data);

        TrainerPlan plan;
        plan.penalty = config.lambda > 0;
        plan.lambda = config.lambda;
        plan.shares = shares;
        plan.sampler = rowSampler(config, data.train);
        plan.radius = config.wRadius;
        plan.projection = config.projection;
        RunResult result = runSaddlePointTrainer(config, plan, data, observer, cancel);
        result.privacy = privacy::nonPrivateReport(name(), result.steps);
        return result;
    }

private:
    static Eigen::VectorXd observedShares(const TrainConfig& config, const DataSplit& data) {
        const PenaltyLayout layout(config.fairness, data.train.numGroups(), data.train.numClasses(),
                                   config.advantagedClass);
        return layout.sharesFromCounts(layout.cellCounts(data.train.y, data.train.s));
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeFermi() { return std::make_unique<Fermi>(); }

}  // namespace pfa
