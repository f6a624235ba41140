// Teacher-network regression ("synthetic-teacher", core/data/teacher.h): targets of a small tanh
// network, a non-linear regression for the private tuning experiments.

#include "core/data/teacher.h"
#include "core/generators/generator.h"

namespace pfa {

DataGenerator makeTeacherGenerator() {
    using O = TeacherOptions;
    DataGenerator g;
    g.name = "synthetic-teacher";
    g.title = "Synthetic teacher network";
    g.description =
        "20,000 rows of 8 features whose target comes from a small tanh network plus noise, scaled "
        "to [−1, 1] (regression; for private optimisers such as diff2 and dp-gd)";
    g.task = GeneratorTask::Regression;
    g.knobs = {
        knob("teacher-rows", "Rows", ParamKind::Integer,
             "rows generated (training and test rows together)", &O::rows)
            .atLeast(100)
            .atMost(100'000'000)
            .keyName("n")
            .advanced(),
        knob("teacher-features", "Features", ParamKind::Integer, "number of features d",
             &O::features)
            .atLeast(1)
            .atMost(200)
            .keyName("d")
            .advanced(),
        knob("teacher-seed", "Generator seed", ParamKind::Integer,
             "seed of the generator (independent of the run seed)", &O::seed)
            .atLeast(0)
            .atMost(0x1p53)
            .keyName("seed")
            .advanced(),
    };
    g.generate = [](const DatasetRequest& r) { return generateTeacher(r.knobs<O>()); };
    g.schema = [](const DatasetRequest& r) { return teacherSchema(r.knobs<O>()); };
    g.describe = [](const DatasetRequest& r) { return describeTeacher(r.knobs<O>()); };
    return g;
}

}  // namespace pfa
