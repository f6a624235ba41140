// fermi: non-private stochastic FERMI (dp-fermi.md §6.2) with the full ERMI (W is k×l, or one
// k×l block per label for equalized odds).
#include <cmath>

#include "core/fairness/penalty_layout.h"
#include "core/train/algorithm.h"
#include "core/train/batch_sampler.h"
#include "core/train/config_validation.h"
#include "core/train/saddle_point_trainer.h"

namespace pfa {

namespace {

class Fermi final : public Algorithm {
public:
    std::string name() const override { return "fermi"; }
    std::string description() const override {
        return "Fair training without privacy: minimises loss + λ·ERMI by stochastic "
               "descent–ascent (FERMI).";
    }
    bool supportsPrivacy() const override { return false; }
    bool usesFairness() const override { return true; }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        validateCommonConfig(config, data);
        requireNonPrivate(config);
        if (config.lambda > 0) requirePenaltyCellsPresent(config, data.train);
    }

    RunResult run(const TrainConfig& requested, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        validate(requested, data);
        const PenaltyLayout layout(requested.fairness, data.train.numGroups(),
                                   data.train.numClasses(), requested.advantagedClass);
        const Eigen::VectorXd shares =
            layout.sharesFromCounts(layout.cellCounts(data.train.y, data.train.s));
        TrainConfig adjusted = requested;
        // Not private, so the radius may come from the data: √(l / min π) always contains W*.
        if (adjusted.wRadius == 0.0 && requested.lambda > 0) {
            adjusted.wRadius = std::sqrt(data.train.numClasses() / shares.minCoeff());
        }
        const TrainConfig config = resolveDefaults(adjusted, data);

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
};

}  // namespace

std::unique_ptr<Algorithm> makeFermi() { return std::make_unique<Fermi>(); }

}  // namespace pfa
