// Gaussian linear regression ("synthetic-linear", core/data/linear_gaussian.h): the setting in
// which the optimal mean squared error is known (0.25), for the linear private SGD methods.

#include "core/data/linear_gaussian.h"
#include "core/generators/generator.h"

namespace pfa {

DataGenerator makeLinearGaussianGenerator() {
    using O = LinearGaussianOptions;
    DataGenerator g;
    g.name = "synthetic-linear";
    g.title = "Synthetic linear regression";
    g.description =
        "12,000 rows, y = ⟨w*, x⟩ + noise in 200 Gaussian features; the best possible test MSE is "
        "0.25 (regression; for learning with public data: semi-dp-sgd)";
    g.task = GeneratorTask::Regression;
    g.knobs = {
        knob("linear-rows", "Rows", ParamKind::Integer,
             "rows generated (training and test rows together)", &O::rows)
            .atLeast(100)
            .atMost(100'000'000)
            .keyName("n")
            .advanced(),
        knob("linear-features", "Features", ParamKind::Integer, "number of features d",
             &O::features)
            .atLeast(1)
            .atMost(2000)
            .keyName("d")
            .advanced(),
        knob("linear-seed", "Generator seed", ParamKind::Integer,
             "seed of the generator (independent of the run seed)", &O::seed)
            .atLeast(0)
            .atMost(0x1p53)
            .keyName("seed")
            .advanced(),
    };
    g.generate = [](const DatasetRequest& r) { return generateLinearGaussian(r.knobs<O>()); };
    g.schema = [](const DatasetRequest& r) { return linearGaussianSchema(r.knobs<O>()); };
    g.describe = [](const DatasetRequest& r) { return describeLinearGaussian(r.knobs<O>()); };
    return g;
}

}  // namespace pfa
