// Compiled with the options of core/algorithms/saddle/shared_binary_rows.cpp (core/CMakeLists.txt)
// and for the same reasons: every lane rounds as the scalar code does, and the lanes' loop
// vectorises.
#include "core/algorithms/lagrangian/ld_lanes.h"

#include <atomic>
#include <cmath>

#include "core/engine/clipping.h"
#include "core/model/logistic_functions.h"
#include "core/util/instruction_set.h"

namespace pfa::ld {

namespace {

std::atomic<bool> oneByOne{false};

template <bool kRates>
[[gnu::always_inline]] inline void rowBody(const RowLanes& t, double label, double norm,
                                           const double* __restrict z,
                                           double* __restrict coefficients) {
    const long count = t.count;
    const double* __restrict kappa = t.kappa;
    const double* __restrict clip = t.clip;
    double* __restrict clippedRows = t.clipped;
    double* __restrict sigmas = t.exp;
    sigmoids(z, sigmas, count);
#pragma omp simd
    for (long l = 0; l < count; ++l) {
        const double p = sigmas[l];
        const double residual = p - label;
        const double r = kRates ? residual + kappa[l] * p * (1.0 - p) : residual * (1.0 + kappa[l]);
        double clipped = 0.0;
        const double scale = laneClipScale(std::abs(r) * norm, clip[l], clipped);
        clippedRows[l] += clipped;
        coefficients[l] = r * scale;
    }
}

void rowBaseline(const RowLanes& t, bool rates, double label, double norm, const double* z,
                 double* coefficients) {
    if (rates) {
        rowBody<true>(t, label, norm, z, coefficients);
    } else {
        rowBody<false>(t, label, norm, z, coefficients);
    }
}

[[gnu::target("avx2")]] void rowAvx2(const RowLanes& t, bool rates, double label, double norm,
                                     const double* z, double* coefficients) {
    if (rates) {
        rowBody<true>(t, label, norm, z, coefficients);
    } else {
        rowBody<false>(t, label, norm, z, coefficients);
    }
}

}  // namespace

void rowCoefficients(const RowLanes& lanes, bool rates, double label, double norm, const double* z,
                     double* coefficients) {
    (avx2Enabled() ? rowAvx2 : rowBaseline)(lanes, rates, label, norm, z, coefficients);
}

void stepRunsOneByOne(bool oneByOneAsked) {
    oneByOne.store(oneByOneAsked, std::memory_order_relaxed);
}

bool runsOneByOne() { return oneByOne.load(std::memory_order_relaxed); }

}  // namespace pfa::ld
