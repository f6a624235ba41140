// The built-in synthetic credit-scoring data ("synthetic", core/data/synthetic.h): the default
// data set, with optional people and silos for user- and silo-level privacy.

#include "core/data/synthetic.h"
#include "core/generators/generator.h"

namespace pfa {

DataGenerator makeSyntheticGenerator() {
    using O = SyntheticOptions;
    // Users and silos came after the keys: named in a key only when on, so that the keys of
    // data without them stay as they were.
    const auto withUsers = [](const O& o) { return o.users > 0; };
    const auto withSilos = [](const O& o) { return o.silos > 0; };
    DataGenerator g;
    g.name = "synthetic";
    g.title = "Synthetic lending";
    g.description =
        "Loan applications of two groups whose label depends on the group as much as the bias knob "
        "says, optionally held by people and silos (for user- and silo-level privacy); no download "
        "needed";
    g.task = GeneratorTask::Classification;
    g.formerPresetObject = "synthetic";
    g.knobs = {
        knob("synthetic-rows", "Rows", ParamKind::Integer,
             "rows generated (training and test rows together)", &O::rows)
            .atLeast(100)
            .atMost(50'000'000)
            .keyName("n")
            .formerName("rows")
            .advanced(),
        knob("synthetic-features", "Features", ParamKind::Integer, "number of feature columns",
             &O::features)
            .atLeast(2)
            .atMost(200)
            .keyName("d")
            .formerName("features")
            .advanced(),
        knob("synthetic-minority", "Minority share", ParamKind::Real,
             "share of applicants in the minority group B", &O::minorityShare)
            .above(0)
            .atMost(0.5)
            .keyName("minority")
            .formerName("minority")
            .advanced(),
        knob("synthetic-bias", "Bias β", ParamKind::Real,
             "how much the label depends on the group (0: not at all)", &O::groupLabelDependence)
            .atLeast(0)
            .atMost(5)
            .keyName("bias")
            .formerName("bias")
            .advanced(),
        knob("synthetic-noise", "Label noise", ParamKind::Real,
             "probability that a label is flipped", &O::labelNoise)
            .atLeast(0)
            .below(0.5)
            .keyName("noise")
            .formerName("noise")
            .advanced(),
        knob("synthetic-seed", "Generator seed", ParamKind::Integer,
             "seed of the generator (independent of the run seed)", &O::seed)
            .atLeast(0)
            .atMost(0x1p53)
            .keyName("seed")
            .formerName("seed")
            .advanced(),
        knob("synthetic-users", "People", ParamKind::Integer,
             "the rows belong to this many people (0: one row per person), for privacy per person",
             &O::users)
            .atLeast(0)
            .atMost(100'000'000)
            .keyName("users")
            .formerName("users")
            .inKeyWhen(withUsers)
            .advanced(),
        knob("synthetic-user-skew", "Rows/person skew", ParamKind::Real,
             "Zipf exponent of rows per person, 0 (equal) to 3", &O::rowsPerUserSkew)
            .atLeast(0)
            .atMost(3)
            .keyName("skew")
            .formerName("user_skew")
            .inKeyWhen(withUsers)
            .needs("synthetic-users")
            .advanced(),
        knob("synthetic-user-correlation", "Person correlation", ParamKind::Real,
             "how alike one person's rows are, 0 to 1", &O::userCorrelation)
            .atLeast(0)
            .atMost(1)
            .keyName("rho")
            .formerName("user_correlation")
            .inKeyWhen(withUsers)
            .needs("synthetic-users")
            .advanced(),
        knob("synthetic-atypical-users", "Atypical people", ParamKind::Real,
             "share of people whose labels are all flipped, 0 to 0.5", &O::atypicalUserShare)
            .atLeast(0)
            .below(0.5)
            .keyName("atypical")
            .formerName("atypical_users")
            .inKeyWhen(withUsers)
            .needs("synthetic-users")
            .advanced(),
        knob("synthetic-silos", "Generated silos", ParamKind::Integer,
             "the people (or rows) are held by this many silos (0: none), for privacy per "
             "institution",
             &O::silos)
            .atLeast(0)
            .atMost(100'000'000)
            .keyName("silos")
            .formerName("silos")
            .inKeyWhen(withSilos)
            .advanced(),
        knob("synthetic-silo-heterogeneity", "Silo heterogeneity", ParamKind::Real,
             "how much the silos differ in features and base rate, 0 to 5", &O::siloHeterogeneity)
            .atLeast(0)
            .atMost(5)
            .keyName("h")
            .formerName("silo_heterogeneity")
            .inKeyWhen(withSilos)
            .needs("synthetic-silos")
            .advanced(),
    };
    g.generate = [](const DatasetRequest& r) { return generateSynthetic(r.knobs<O>()); };
    g.schema = [](const DatasetRequest& r) { return syntheticSchema(r.knobs<O>()); };
    g.describe = [](const DatasetRequest& r) { return describeSynthetic(r.knobs<O>()); };
    return g;
}

}  // namespace pfa
