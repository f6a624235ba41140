// isrl-local-sgd: the ISRL-DP local SGD baseline across silos for binary logistic regression
// (thesis-algorithms.md §6.2). In each of R rounds a uniformly random subset of M silos each
// take K single-record noisy steps from the server's model, w ← w − η(clip(∇f(w, x), C) +
// N(0, σ_loc² I)), and the server averages the silos' local models. Each step's noise is added
// inside the silo, so what leaves a silo is already private (ISRL-DP). σ_loc = 2C·√(u/(2ρ))
// with u the steps one record takes part in (shuffled epochs); the ε reported is the RDP
// accountant's for what ran (privacy-accounting.md §2.1, §4.1), the largest over the silos.
#include <algorithm>
#include <cmath>

#include "core/algorithms/silo/silo_round_run.h"
#include "core/algorithms/silo/silo_rounds.h"
#include "core/config/algorithm.h"
#include "core/config/config_validation.h"
#include "core/config/own_setting.h"
#include "core/engine/clipping.h"
#include "core/engine/private_run_report.h"
#include "core/engine/run_session.h"
#include "core/engine/run_streams.h"
#include "core/privacy/noisy_release.h"
#include "core/privacy/run_accountant.h"
#include "core/util/format.h"

namespace pfa {

namespace {

// The own settings this file reads (checked against the declarations at start).
const OwnNumber kStepSize{"step-size"};

constexpr const char* kSensitivity =
    "2C (replace-one difference of one record's clipped gradient in a local step)";

class IsrlLocalSgd final : public Algorithm {
public:
    std::string name() const override { return "isrl-local-sgd"; }
    std::string description() const override {
        return "Logistic regression across silos, baseline: each silo takes noisy single-record "
               "local steps and "
               "the server averages the local models; private per record of each silo, noise added "
               "by the silos.";
    }
    AlgorithmCapabilities capabilities() const override {
        return {.privacy = true, .progressUnit = "round", .progressSetting = "rounds"};
    }
    std::vector<ParamSpec> parameters() const override { return siloRoundParameters(false, false); }

    void validate(const TrainConfig& config, const DataSplit& data) const override {
        validateSiloRounds(config, data, false);
    }

    TrainConfig resolve(const TrainConfig& requested, const DataSplit& data) const override {
        TrainConfig c = resolveSiloRoundDefaults(requested, data, false);
        if (kStepSize(c) == 0) {
            const SiloRoundSettings s = siloRoundSettings(c);
            // As for minibatch SGD, with the noise a round's K local steps leave on the
            // server's average: √K·σ_loc per silo, averaged over M silos.
            double sigma = 0.0;
            if (std::isfinite(s.radius) && c.isPrivate() && data.train.silos &&
                s.localBatch <= data.train.silos->minRowsPerUnit()) {
                const std::shared_ptr<const SiloNoise> noise =
                    sharedSiloNoise(s, *data.train.silos, c.epsilon, c.delta, kSensitivity, false);
                sigma = 2.0 * s.clip * noise->multiplier(0) *
                        std::sqrt(static_cast<double>(s.localBatch) /
                                  static_cast<double>(s.silosPerRound));
            }
            c.extra["step-size"] =
                realText(siloStepSize(s, static_cast<double>(data.train.features() + 1), sigma));
        }
        return c;
    }

    RunResult run(const PreparedConfig& prepared, const DataSplit& data, TrainingObserver& observer,
                  const CancelToken& cancel) const override {
        const TrainConfig& config = prepared.config();
        const UnitIndex& silos = *data.train.silos;
        const SiloRoundSettings s = siloRoundSettings(config);
        std::shared_ptr<const SiloNoise> accounting;
        std::vector<double> sigma(static_cast<std::size_t>(silos.units()), 0.0);
        if (config.isPrivate()) {
            accounting =
                sharedSiloNoise(s, silos, config.epsilon, config.delta, kSensitivity, false);
            for (long u = 0; u < silos.units(); ++u)
                sigma[static_cast<std::size_t>(u)] = 2.0 * s.clip * accounting->multiplier(u);
        }

        SiloRoundRun run(s, config, data, observer, cancel);
        run.account(accounting.get());
        Eigen::VectorXd& w = run.w();
        const Eigen::Index parameters = w.size();
        Eigen::VectorXd g(parameters), local(parameters), next(parameters);
        for (long r = 0; r < s.rounds; ++r) {
            if (!run.beginRound(r)) break;
            next.setZero();
            for (const long silo : run.chosenSilos()) {
                // Each local step releases one record's noisy clipped gradient; Δ: a replaced
                // record.
                const privacy::ReleaseSpec release = privacy::ReleaseSpec::gaussian(
                    "record-gradient", 2.0 * s.clip, sigma[static_cast<std::size_t>(silo)]);
                local = w;
                for (const long row : run.rows(silo)) {
                    run.clippedGradient(row, local, g);
                    privacy::releaseGaussian(release, g, run.noise());
                    local -= s.stepSize * g;
                    run.project(local);
                }
                next += local;
            }
            w = next / static_cast<double>(run.chosenSilos().size());
            if (run.endRound(r)) break;
        }
        run.releaseModel();

        RunResult& result = run.result();
        if (!config.isPrivate()) {
            result.privacy = privacy::nonPrivateReport(name(), result.steps);
            return run.finish();
        }
        const privacy::RunAccountant& accountant = accounting->worstAfter(result.steps);
        describePrivateRun(result, accountant, data.train);
        privacy::PrivacyReport& report = result.privacy;
        report.algorithm = name();
        const auto [lo, hi] = std::minmax_element(sigma.begin(), sigma.end());
        report.calibration =
            "zCDP-calibrated per silo for ε = " + formatNumber(config.epsilon) +
            ", σ_loc = 2C·√(u/(2ρ)); the RDP accountant certifies the ε below; trust: " +
            siloTrustName(SiloTrust::Isrl);
        report.mechanism =
            "Gaussian on every local step; each record is in u = ⌈R/⌊n_i/K⌋⌉ local steps of its "
            "silo "
            "(shuffled epochs, no amplification claimed)";
        report.sampling = "shuffled epochs within each silo, " + std::to_string(s.localBatch) +
                          " single-record local steps per round; " +
                          std::to_string(s.silosPerRound) + " of " + std::to_string(silos.units()) +
                          " silos per round, chosen at random (no amplification claimed)";
        report.samplingRate = 1.0;
        report.expectedBatch = 1;
        describeSiloRun(report, accountant, s, config, data.train,
                        "the server's averaged models w_1 … w_R");
        report.sigmaTheta = *hi;
        report.clipDescription =
            "C = " + formatNumber(s.clip) +
            " per record; noise std per coordinate on each "
            "local step σ_loc = " +
            (*lo == *hi ? formatNumber(*lo) : formatNumber(*lo) + " … " + formatNumber(*hi));
        report.statement = privacy::renderPrivacyStatement(report, "", "");
        return run.finish();
    }
};

}  // namespace

std::unique_ptr<Algorithm> makeIsrlLocalSgd() { return std::make_unique<IsrlLocalSgd>(); }

}  // namespace pfa
