// Example E of dp-fermi.md §11: closed-form noise calibrations and preconditions.
#include <catch2/catch.hpp>

#include "core/privacy/closed_form_calibration.h"
#include "core/util/error.h"

namespace core_calibration_test {

using namespace pfa;
using namespace pfa::privacy;
using Catch::Matchers::WithinRel;

namespace {

ClosedFormInputs exampleE(double epochs = 30) {
    ClosedFormInputs in;
    in.epsilon = 1.0;
    in.delta = 1e-5;
    in.rows = 10000;
    in.batch = 100;
    in.steps = epochs * 100;  // ⌈n/m⌉ = 100 steps per epoch
    in.minShare = 0.25;
    in.radius = 2.0;
    in.lipschitz = 0.25;
    in.classes = 2;
    in.clipTheta = 1.0;
    in.clipW = 1.0;
    return in;
}

}  // namespace

TEST_CASE("Example E: preconditions hold at 30 epochs", "[calibration][spec]") {
    const ClosedFormInputs in = exampleE();
    CHECK_THAT(minimumClosedFormSteps(in), WithinRel(2500.0, 1e-12));
    CHECK_NOTHROW(checkClosedFormPreconditions(in));
}

TEST_CASE("Example E: published sensitive-only", "[calibration][spec]") {
    const NoiseVariances v = publishedSensitiveOnly(exampleE());
    CHECK_THAT(v.w, WithinRel(0.02210481689, 1e-9));
    CHECK_THAT(std::sqrt(v.w), WithinRel(0.1486768876, 1e-9));
    CHECK_THAT(v.theta, WithinRel(0.005526204223, 1e-9));
    CHECK_THAT(std::sqrt(v.theta), WithinRel(0.0743384438, 1e-9));
}

TEST_CASE("Example E: published all-features", "[calibration][spec]") {
    const NoiseVariances v = publishedAllFeatures(exampleE());
    CHECK_THAT(v.w, WithinRel(0.08841926757, 1e-9));
    CHECK_THAT(std::sqrt(v.w), WithinRel(0.2973537751, 1e-9));
    CHECK_THAT(v.theta, WithinRel(0.06631445068, 1e-9));
    CHECK_THAT(std::sqrt(v.theta), WithinRel(0.2575159232, 1e-9));
}

TEST_CASE("Example E: conservative calibrations", "[calibration][spec]") {
    const NoiseVariances sensitive = conservativeSensitiveOnly(exampleE());
    CHECK_THAT(sensitive.w, WithinRel(0.04420963379, 1e-9));
    CHECK_THAT(std::sqrt(sensitive.w), WithinRel(0.2102608708, 1e-9));
    CHECK_THAT(sensitive.theta, WithinRel(0.01105240845, 1e-9));
    CHECK_THAT(std::sqrt(sensitive.theta), WithinRel(0.1051304354, 1e-9));
    const NoiseVariances all = conservativeAllFeatures(exampleE());
    CHECK_THAT(all.theta, WithinRel(0.005526204223, 1e-9));
    CHECK_THAT(all.w, WithinRel(0.005526204223, 1e-9));
    CHECK_THAT(std::sqrt(all.w), WithinRel(0.0743384438, 1e-9));
}

TEST_CASE("Example E: 10 epochs are rejected by precondition 2", "[calibration][spec]") {
    REQUIRE_THROWS_AS(checkClosedFormPreconditions(exampleE(10)), InputError);
    REQUIRE_THROWS_WITH(checkClosedFormPreconditions(exampleE(10)),
                        Catch::Contains("2500 steps") && Catch::Contains("T = 1000"));
}

TEST_CASE("Closed form rejects epsilon above 2 ln(1/delta)", "[calibration]") {
    ClosedFormInputs in = exampleE();
    in.epsilon = 24.0;  // 2 ln(1e5) = 23.03
    REQUIRE_THROWS_WITH(checkClosedFormPreconditions(in), Catch::Contains("2 ln(1/delta)"));
}

TEST_CASE("Model sensitivity constants", "[calibration][spec]") {
    CHECK_THAT(logisticLipschitz(1.5), WithinRel(0.5303300859, 1e-9));
    CHECK_THAT(softmaxLipschitz(1.5), WithinRel(0.75, 1e-12));
}

}  // namespace core_calibration_test
