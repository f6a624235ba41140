#pragma once

#include <cstdint>
#include <string>

#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Knobs of the "synthetic-teacher" regression data (a stand-in for the non-convex regression
/// benchmarks of private optimisers, our design): x ~ N(0, I_d); a fixed teacher network
/// d → 20 tanh units → 1 with N(0, 1) weights and no biases, drawn from the generator seed;
/// y = teacher(x) + 0.3·N(0, 1), then every target divided by max |y| (targets in [−1, 1]).
/// One group ("all"), no classes.
struct TeacherOptions {
    int rows = 20000;            ///< n (≥ 100)
    int features = 8;            ///< d (1 … 200)
    std::uint64_t seed = 20260;  ///< generator seed (independent of the run seed)
};

/// Hidden units of the teacher network.
inline constexpr int kTeacherHiddenUnits = 20;
/// Std of the target noise before the targets are scaled.
inline constexpr double kTeacherNoise = 0.3;

/// Validates `options` (InputError naming the bad knob) and generates the data set: numeric
/// columns x1 … xd and the real-valued target.
TabularData generateTeacher(const TeacherOptions& options = {});

/// The data as a file would hold it: numeric columns x1 … xd and the target column "y".
Schema teacherSchema(const TeacherOptions& options = {});

/// One line describing the knobs, for reports.
std::string describeTeacher(const TeacherOptions& options);

}  // namespace pfa
