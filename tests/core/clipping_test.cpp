// The shared clipping part (core/engine/clipping.h): every contribution it passes on has norm at
// most the bound, contributions inside the bound are left bit for bit as they are, and each
// form (scalar factor, squared norm, weight, vector in place, coefficients) agrees with the
// others.
#include "core/engine/clipping.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/util/random.h"

namespace core_clipping_test {

using namespace pfa;

TEST_CASE("clipScale: contributions above the bound are scaled to it, the rest untouched",
          "[clipping]") {
    double scale = 3.0;
    CHECK(clipScale(8.0, 2.0, scale));
    CHECK(scale == 3.0 * (2.0 / 8.0));
    scale = 3.0;
    CHECK_FALSE(clipScale(2.0, 2.0, scale));  // on the bound: not clipped
    CHECK(scale == 3.0);
    CHECK_FALSE(clipScale(0.5, 2.0, scale));
    CHECK(scale == 3.0);
    // A NaN norm is passed on as it is, for divergence detection to see.
    CHECK_FALSE(clipScale(std::numeric_limits<double>::quiet_NaN(), 2.0, scale));
    CHECK(scale == 3.0);
}

TEST_CASE("clipInPlace: every clipped vector has norm at most the bound", "[clipping]") {
    RandomStream random(11, 3);
    long clipped = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        Eigen::VectorXd v(7);
        random.fillStandardNormal(v);
        v *= 0.2 + 4.0 * random.uniformOpen();
        const Eigen::VectorXd before = v;
        const double bound = 1.5;
        const bool wasClipped = clipInPlace(v, bound);
        clipped += wasClipped;
        CHECK(wasClipped == (before.norm() > bound));
        if (wasClipped) {
            CHECK(v.norm() <= bound * (1.0 + 1e-15));
            CHECK(v.norm() == Approx(bound).epsilon(1e-14));
            // Same direction.
            CHECK(v.dot(before) == Approx(v.norm() * before.norm()).epsilon(1e-12));
        } else {
            CHECK(v == before);
        }
    }
    // Both branches were exercised.
    CHECK(clipped > 200);
    CHECK(clipped < 1800);
}

TEST_CASE("The scalar, squared-norm, weight and coefficient forms agree", "[clipping]") {
    RandomStream random(5, 9);
    Eigen::VectorXd norms(500), weight(500), coef(500);
    for (Eigen::Index i = 0; i < norms.size(); ++i) {
        norms(i) = 3.0 * random.uniformOpen();
        weight(i) = random.uniformOpen();
    }
    const double bound = 1.0;
    const long clipped = clippedCoefficients(norms, bound, weight, coef);
    long expected = 0;
    for (Eigen::Index i = 0; i < norms.size(); ++i) {
        double scale = weight(i);
        const bool byScale = clipScale(norms(i), bound, scale);
        expected += byScale;
        CHECK(coef(i) == scale);
        // The contribution coef(i)·g_i with ‖g_i‖ = norms(i) has norm ≤ weight(i)·bound.
        CHECK(coef(i) * norms(i) <= weight(i) * bound * (1.0 + 1e-15));
        double fromSquared = 1.0;
        CHECK(clipScaleFromSquared(norms(i) * norms(i), bound, bound * bound, fromSquared) ==
              byScale);
        if (byScale) {
            CHECK(fromSquared * norms(i) == Approx(bound).epsilon(1e-14));
            // λ·∇ψ of norm norms(i): the weight form gives (λ·C)/norm when clipped.
            CHECK(clippedWeight(2.0, norms(i), bound) == 2.0 * bound / norms(i));
        } else {
            CHECK(fromSquared == 1.0);
            CHECK(clippedWeight(2.0, norms(i), bound) == 2.0);
        }
    }
    CHECK(clipped == expected);
    CHECK(clipped > 0);
    CHECK(clipped < norms.size());
}

}  // namespace core_clipping_test
