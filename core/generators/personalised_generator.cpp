// Personalised linear regression ("synthetic-personalised", core/data/personalised.h): many
// users, each with a model of its own, for personalised private learning.

#include "core/data/personalised.h"
#include "core/generators/generator.h"

namespace pfa {

DataGenerator makePersonalisedGenerator() {
    using O = PersonalisedOptions;
    DataGenerator g;
    g.name = "synthetic-personalised";
    g.title = "Synthetic personalised users";
    g.description =
        "1000 users who share a linear model and differ in 5 of its 100 coefficients (regression; "
        "for personalised learning such as ppsgd)";
    g.task = GeneratorTask::Regression;
    g.knobs = {
        knob("personalised-users", "Users N", ParamKind::Integer, "number of users", &O::users)
            .atLeast(2)
            .atMost(100000)
            .keyName("N")
            .advanced(),
        knob("personalised-features", "Features", ParamKind::Integer, "number of features d",
             &O::features)
            .atLeast(1)
            .atMost(1000)
            .keyName("d")
            .advanced(),
        knob("personalised-coordinates", "Personal coordinates p", ParamKind::Integer,
             "the last p coordinates differ between users (at most the features)",
             &O::personalCoordinates)
            .atLeast(0)
            .atMost(1000)
            .keyName("p")
            .advanced(),
        knob("personalised-heterogeneity", "Heterogeneity s", ParamKind::Real,
             "standard deviation of the per-user offsets", &O::heterogeneity)
            .atLeast(0)
            .atMost(1e300)
            .keyName("s")
            .advanced(),
        knob("personalised-noise", "Label noise τ", ParamKind::Real,
             "standard deviation of the label noise", &O::noise)
            .atLeast(0)
            .atMost(1e300)
            .keyName("tau")
            .advanced(),
        knob("personalised-global-scale", "Global scale g", ParamKind::Real,
             "standard deviation of the shared coefficients θ₀", &O::globalScale)
            .above(0)
            .atMost(1e300)
            .keyName("g")
            .advanced(),
        knob("personalised-rows-per-user", "Rows per user", ParamKind::Integer,
             "table rows per user", &O::rowsPerUser)
            .atLeast(1)
            .atMost(1000)
            .keyName("rows")
            .advanced(),
        knob("personalised-seed", "Generator seed", ParamKind::Integer,
             "seed of the generator (independent of the run seed)", &O::seed)
            .atLeast(0)
            .atMost(0x1p53)
            .keyName("seed")
            .advanced(),
    };
    g.generate = [](const DatasetRequest& r) { return generatePersonalised(r.knobs<O>()); };
    g.schema = [](const DatasetRequest& r) { return personalisedSchema(r.knobs<O>()); };
    g.describe = [](const DatasetRequest& r) { return describePersonalised(r.knobs<O>()); };
    return g;
}

}  // namespace pfa
