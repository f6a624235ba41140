// The training loop's parts that carry privacy: the Gaussian mechanism (its noise and the curve
// it is charged with), the Laplace release of the shares, the accountant composed from them and
// the sampler that runs, and the descent step.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "core/algorithms/registry.h"
#include "core/algorithms/saddle/descent_step.h"
#include "core/algorithms/saddle/saddle_point_trainer.h"
#include "core/algorithms/saddle/trainer_plan.h"
#include "core/config/config_validation.h"
#include "core/engine/batch_sampler.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/engine/laplace_mechanism.h"
#include "core/privacy/clipped_gaussian_calibration.h"
#include "core/privacy/order_grid.h"
#include "test_data.h"

namespace core_loop_parts_test {

using namespace pfa;
using Catch::Matchers::WithinRel;
using Stream = GaussianMechanism::Stream;

TEST_CASE("A remembered calibration is the one solved afresh", "[parts][privacy]") {
    // The second call is answered from memory; both equal the solver's own answer, bit for bit,
    // and a different ε, δ, q or T is solved anew.
    const SamplerSpec sampler = SamplerSpec::overRows(Sampling::Poisson, 7001, 70, 3);
    const privacy::ClippedGaussianCalibration first =
        privacy::calibrateClippedGaussian(sampler, privacy::Adjacency::AddRemove, 1.3, 1e-6);
    const privacy::ClippedGaussianCalibration second =
        privacy::calibrateClippedGaussian(sampler, privacy::Adjacency::AddRemove, 1.3, 1e-6);
    CHECK(first.noiseMultiplier == second.noiseMultiplier);
    CHECK(first.noiseMultiplier == privacy::solveNoiseMultiplierFor(first.release, 1.0, 1.3));
    const double other =
        privacy::calibrateClippedGaussian(sampler, privacy::Adjacency::AddRemove, 2.6, 1e-6)
            .noiseMultiplier;
    CHECK(other < first.noiseMultiplier);
    const SamplerSpec longer = SamplerSpec::overRows(Sampling::Poisson, 7001, 70, 6);
    CHECK(privacy::calibrateClippedGaussian(longer, privacy::Adjacency::AddRemove, 1.3, 1e-6)
              .noiseMultiplier > first.noiseMultiplier);
}

TEST_CASE("Gaussian mechanism: calibrated streams share the joint multiplier", "[parts][privacy]") {
    const SamplerSpec sampler = SamplerSpec::overRows(Sampling::Poisson, 9000, 90, 4);
    const privacy::ClippedGaussianCalibration calibration =
        privacy::calibrateClippedGaussian(sampler, privacy::Adjacency::AddRemove, 1.0, 1e-6);
    const double z = calibration.noiseMultiplier;
    REQUIRE(z > 0);

    const GaussianMechanism both = GaussianMechanism::calibrated(calibration, 3.0, 0.5);
    CHECK(both.isPrivate());
    CHECK(both.sampler() == sampler);
    CHECK(both.noiseMultiplier() == z);
    CHECK(both.stream(Stream::Theta).noiseMultiplier == std::sqrt(2.0) * z);
    CHECK(both.stream(Stream::W).noiseMultiplier == std::sqrt(2.0) * z);
    CHECK(both.stream(Stream::Theta).sigma == std::sqrt(2.0) * z * 3.0 / 90.0);
    CHECK(both.sigmaOnSum(Stream::W) == both.stream(Stream::W).sigma * 90.0);
    // The streams' noise, put together by §2.3, is the z the release is charged at.
    const double joint =
        privacy::jointNoiseMultiplier({{3.0, both.stream(Stream::Theta).sigma * 90.0},
                                       {0.5, both.stream(Stream::W).sigma * 90.0}});
    CHECK_THAT(joint, WithinRel(z, 1e-14));
    // The charge is the sampler's: q = m/n, one release per step, T steps.
    CHECK(both.release().samplingRate == sampler.samplingRate());
    CHECK(both.release().stepsPerRelease == 1);
    CHECK(both.release().steps == sampler.steps());
    CHECK(both.release().noiseMultiplier == z);
    const privacy::OrderGrid grid = privacy::OrderGrid::standard();
    CHECK(both.rdpCurve(grid) ==
          privacy::subsampledGaussianStepCurve(grid, sampler.samplingRate(), z,
                                               privacy::Adjacency::AddRemove));

    const GaussianMechanism alone = GaussianMechanism::calibrated(calibration, 3.0);
    CHECK_FALSE(alone.has(Stream::W));
    CHECK(alone.stream(Stream::Theta).noiseMultiplier == z);
    CHECK(alone.stream(Stream::W).drawnSigma() == 0.0);

    const GaussianMechanism none;
    CHECK_FALSE(none.isPrivate());
    CHECK(std::isinf(none.rdpCurve(grid).front()));
}

TEST_CASE("Gaussian mechanism: shuffled batches are charged once per epoch of the sampler",
          "[parts][privacy]") {
    const SamplerSpec sampler = SamplerSpec::overRows(Sampling::Shuffle, 1000, 300, 5);
    const privacy::ClippedGaussianCalibration calibration =
        privacy::calibrateClippedGaussian(sampler, privacy::Adjacency::Replace, 2.0, 1e-6);
    const GaussianMechanism noise = GaussianMechanism::calibrated(calibration, 1.0);
    CHECK(noise.release().kind == privacy::ReleaseKind::Gaussian);
    CHECK(noise.release().stepsPerRelease == sampler.stepsPerEpoch());
    CHECK(noise.release().stepsPerRelease == 4);
    CHECK(noise.release().noiseMultiplier == 0.5 * calibration.noiseMultiplier);  // bound 2C
    REQUIRE(noise.poissonAssumed());
    CHECK(noise.poissonAssumed()->samplingRate == sampler.samplingRate());
    // The accountant charges 5 releases for the 20 steps of the run, and meets the target.
    const privacy::RunAccountant accountant = *planAccountant(
        [&] {
            TrainerPlan plan;
            plan.sampler = sampler;
            plan.noise = noise;
            return plan;
        }(),
        1e-6, "record");
    CHECK(accountant.inputsAfter(sampler.steps()).releases() == 5);
    CHECK(accountant.after(sampler.steps()).epsilon <= 2.0);
}

TEST_CASE("Gaussian mechanism: given noise levels and their joint multiplier", "[parts][privacy]") {
    const SamplerSpec sampler = SamplerSpec::overRows(Sampling::Poisson, 5000, 50, 2);
    privacy::AccountingInputs release;
    release.kind = privacy::ReleaseKind::LinearAmplification;
    release.samplingRate = sampler.samplingRate();
    // θ: bound 4 on g_ψ, σ = 0.1 on its mean, used scaled by λ = 3; W: bound 2, σ = 0.05.
    const GaussianMechanism noise =
        GaussianMechanism::withNoise(sampler, release, "test", NoiseStream{4.0, 0.0, 0.1, 3.0},
                                     NoiseStream{2.0, 0.0, 0.05, 1.0});
    CHECK(noise.stream(Stream::Theta).noiseMultiplier == 0.1 * 50.0 / 4.0);
    CHECK(noise.stream(Stream::W).noiseMultiplier == 0.05 * 50.0 / 2.0);
    CHECK(noise.stream(Stream::Theta).drawnSigma() == 3.0 * 0.1);
    const double joint = 1.0 / std::sqrt(1.0 / (1.25 * 1.25) + 1.0 / (1.25 * 1.25));
    CHECK_THAT(noise.noiseMultiplier(), WithinRel(joint, 1e-15));
    CHECK(noise.release().noiseMultiplier == noise.noiseMultiplier());
    CHECK(noise.description() == "test");

    // Without a bound nothing is charged at a multiplier: the curve is +∞ and z stays 0.
    release.kind = privacy::ReleaseKind::Uncertifiable;
    const GaussianMechanism unbounded =
        GaussianMechanism::withNoise(sampler, release, "none", NoiseStream{0.0, 0.0, 0.1, 1.0});
    CHECK(std::isinf(unbounded.noiseMultiplier()));
    CHECK(unbounded.release().noiseMultiplier == 0.0);
    CHECK(unbounded.stream(Stream::Theta).noiseMultiplier == 0.0);
}

TEST_CASE("Gaussian mechanism: the noise is drawn entry by entry at scale times sigma",
          "[parts][privacy]") {
    const SamplerSpec sampler = SamplerSpec::overRows(Sampling::Poisson, 100, 10, 1);
    privacy::AccountingInputs release;
    release.kind = privacy::ReleaseKind::PoissonSubsampled;
    const GaussianMechanism noise = GaussianMechanism::withNoise(
        sampler, release, "", NoiseStream{1.0, 0.0, 0.5, 2.0}, NoiseStream{1.0, 0.0, 0.25, 1.0});
    RowMatrix rowMajor = RowMatrix::Zero(2, 3);
    Eigen::MatrixXd colMajor = Eigen::MatrixXd::Zero(2, 3);
    RandomStream random(9, 2), replay(9, 2);
    noise.addNoise(Stream::Theta, rowMajor, random);
    noise.addNoise(Stream::W, colMajor, random);
    for (Eigen::Index i = 0; i < 2; ++i) {
        for (Eigen::Index j = 0; j < 3; ++j) CHECK(rowMajor(i, j) == 1.0 * replay.normal());
    }
    for (Eigen::Index j = 0; j < 3; ++j) {
        for (Eigen::Index i = 0; i < 2; ++i) CHECK(colMajor(i, j) == 0.25 * replay.normal());
    }
    // The default mechanism draws nothing.
    RandomStream untouched(9, 2);
    GaussianMechanism().addNoise(Stream::Theta, rowMajor, untouched);
    CHECK(untouched.normal() == RandomStream(9, 2).normal());
}

TEST_CASE("Laplace mechanism: scale, draws and its side release", "[parts][privacy]") {
    const LaplaceMechanism shares(2.0, 0.05, "cell");
    CHECK(shares.scale() == 2.0 / 0.05);
    Eigen::VectorXd counts(3);
    counts << 10, 20, 30;
    RandomStream random(4, 3), replay(4, 3);
    shares.addNoise(counts, random);
    for (int i = 0; i < 3; ++i) CHECK(counts(i) == 10.0 * (i + 1) + replay.laplace(40.0));
    const privacy::PureRelease release = shares.release("group shares");
    CHECK(release.what == "group shares");
    CHECK(release.mechanism == "Laplace(2/ε₀) per cell");
    CHECK(release.epsilon == 0.05);
    CHECK_THROWS(LaplaceMechanism(2.0, 0.0, "cell"));
}

TEST_CASE("The plan's accountant composes its step mechanism and its side releases",
          "[parts][privacy]") {
    TrainerPlan plan;
    plan.sampler = SamplerSpec::overRows(Sampling::Poisson, 4000, 100, 3);
    CHECK_FALSE(planAccountant(plan, 1e-5, "record"));  // not private: no accountant, ε = ∞
    const privacy::ClippedGaussianCalibration calibration =
        privacy::calibrateClippedGaussian(plan.sampler, privacy::Adjacency::AddRemove, 0.95, 1e-5);
    plan.noise = GaussianMechanism::calibrated(calibration, 1.0, 1.0);
    plan.sideReleases.push_back(LaplaceMechanism(2.0, 0.05, "cell").release("group shares"));
    const privacy::RunAccountant accountant = *planAccountant(plan, 1e-5, "person");
    const privacy::AccountingInputs inputs = accountant.inputsAfter(plan.sampler.steps());
    CHECK(inputs.unit == "person");
    CHECK(inputs.delta == 1e-5);
    CHECK(inputs.pureEpsilon() == 0.05);
    CHECK(inputs.samplingRate == plan.sampler.samplingRate());
    // The certified ε after T steps is the target of the Gaussian part plus ε₀ of the shares.
    const double epsilon = accountant.after(plan.sampler.steps()).epsilon;
    CHECK(epsilon <= 0.95 + 0.05);
    CHECK(epsilon > 0.94 + 0.05);
    CHECK(privacy::certifiedEpsilon(inputs).epsilon == epsilon);
}

TEST_CASE("The accountant's T comes from the sampler that runs", "[parts][privacy]") {
    const DataSplit data = test::syntheticSplit(1000);
    for (Sampling sampling : {Sampling::Poisson, Sampling::Shuffle, Sampling::Subsample}) {
        for (const char* algorithm : {"dp-sgd", "dp-fermi"}) {
            INFO(algorithm << " " << samplingName(sampling));
            TrainConfig config = test::quickConfig(algorithm, 1.0, 1.0);
            if (std::string(algorithm) == "dp-sgd") config.lambda = 0.0;
            config.epochs = 3;
            config.batchSize = 110;
            config.sampling = sampling;
            const RunResult result = test::runQuietly(config, data);
            REQUIRE(result.status == RunStatus::Completed);
            const SamplerSpec sampler = rowSampler(resolveDefaults(config, data), data.train);
            CHECK(result.steps == sampler.steps());
            CHECK(result.history.back().step == sampler.steps());
            const privacy::AccountingInputs& inputs = result.privacy.accounting;
            CHECK(inputs.steps == sampler.steps());
            if (sampling == Sampling::Shuffle) {
                CHECK(inputs.stepsPerRelease == sampler.stepsPerEpoch());
                CHECK(inputs.releases() == config.epochs);
            } else {
                CHECK(inputs.samplingRate == sampler.samplingRate());
                CHECK(inputs.releases() == sampler.steps());
            }
        }
    }
}

TEST_CASE("The trainer refuses noise calibrated for another sampler", "[parts][privacy]") {
    const DataSplit data = test::syntheticSplit(800);
    TrainConfig config = test::quickConfig("dp-sgd", 1.0, 0.0);
    config.sampling = Sampling::Poisson;
    config.epochs = 1;
    TrainerPlan plan;
    plan.sampler = rowSampler(config, data.train);
    SamplerSpec other = plan.sampler;
    other.epochs = 50;  // the accountant would be told of 50 epochs while one runs
    plan.noise = GaussianMechanism::calibrated(
        privacy::calibrateClippedGaussian(other, privacy::Adjacency::AddRemove, 1.0, 1e-6), 1.0);
    TrainingObserver observer;
    CancelToken cancel;
    CHECK_THROWS_AS(runSaddlePointTrainer(config, plan, data, observer, cancel), std::logic_error);
    plan.sampler.population += 1;  // and a sampler over other rows is refused too
    CHECK_THROWS_AS(runSaddlePointTrainer(config, plan, data, observer, cancel), std::logic_error);
}

TEST_CASE("Descent step: ridge on the weights only, then a plain step", "[parts]") {
    RowMatrix theta(1, 3), gradient(1, 3);
    theta << 1.0, -2.0, 5.0;  // bias last
    gradient << 0.5, 0.5, 0.5;
    DescentStep(0.1, 0.2).apply(theta, gradient);
    CHECK_THAT(theta(0, 0), WithinRel(1.0 - 0.1 * (0.5 + 0.2 * 1.0), 1e-15));
    CHECK_THAT(theta(0, 1), WithinRel(-2.0 - 0.1 * (0.5 - 0.2 * 2.0), 1e-15));
    CHECK_THAT(theta(0, 2), WithinRel(5.0 - 0.1 * 0.5, 1e-15));  // the bias is not shrunk
}

}  // namespace core_loop_parts_test
