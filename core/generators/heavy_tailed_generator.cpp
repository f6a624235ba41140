// Heavy-tailed linear regression ("synthetic-heavy-tailed", core/data/heavy_tailed.h): Student-t
// features and noise and a few outlier rows, for the heavy-tail algorithms.

#include <cmath>

#include "core/data/heavy_tailed.h"
#include "core/generators/generator.h"
#include "core/util/format.h"

namespace pfa {

namespace {

/// What ν means for the heavy-tail methods: the admissible tail index k = ν − 0.5, and whether
/// their accuracy guarantees apply.
std::string heavyTailedTailNote(double featureTail) {
    if (std::isinf(featureTail))
        return "Admissible tail index: every k (Gaussian features have all moments).";
    const double k = admissibleTailIndex(featureTail);
    if (featureTail <= 2.0) {
        return "ν ≤ 2: infinite variance. No moment bound r_k of order k ≥ 2 holds, so the "
               "heavy-tail accuracy guarantees do not apply (privacy still does: clipping bounds "
               "every row's influence).";
    }
    if (k < 2.0) {
        return "Admissible tail index k = ν − 0.5 = " + formatNumber(k, 3) +
               ": below 2, the smallest k the heavy-tail methods assume; their accuracy "
               "guarantees do not apply.";
    }
    return "Admissible tail index k = ν − 0.5 = " + formatNumber(k, 3) +
           " (moments of order below ν are finite).";
}

}  // namespace

DataGenerator makeHeavyTailedGenerator() {
    using O = HeavyTailedOptions;
    DataGenerator g;
    g.name = "synthetic-heavy-tailed";
    g.title = "Synthetic heavy-tailed regression";
    g.description =
        "Linear regression with Student-t features and noise and a few outlier rows; its tail "
        "index goes from Gaussian to infinite variance (for the heavy-tail algorithms)";
    g.task = GeneratorTask::Regression;
    g.formerPresetObject = "heavy_tailed";
    g.knobs = {
        knob("heavy-rows", "Rows", ParamKind::Integer,
             "rows generated (training and test rows together)", &O::rows)
            .atLeast(100)
            .atMost(100'000'000)
            .keyName("n")
            .formerName("rows"),
        knob("heavy-features", "Features", ParamKind::Integer, "number of features d", &O::features)
            .atLeast(1)
            .atMost(200)
            .keyName("d")
            .formerName("features"),
        knob("heavy-feature-tail", "Feature tail ν", ParamKind::Real,
             "degrees of freedom of the Student-t features: the admissible tail index is k = ν − "
             "0.5; inf: Gaussian features; ν ≤ 2: infinite variance (no moment bound of order "
             "k ≥ 2 holds)",
             &O::featureTail)
            .above(0)
            .keyName("nu")
            .formerName("feature_tail"),
        knob("heavy-noise-tail", "Noise tail ν_ξ", ParamKind::Real,
             "degrees of freedom of the Student-t noise on the target (inf: Gaussian noise)",
             &O::noiseTail)
            .above(0)
            .keyName("nu_xi")
            .formerName("noise_tail"),
        knob("heavy-noise-scale", "Noise scale s_ξ", ParamKind::Real,
             "scale of the noise: ξ = s_ξ · t(ν_ξ)", &O::noiseScale)
            .atLeast(0)
            .keyName("s_xi")
            .formerName("noise_scale"),
        knob("heavy-outlier-share", "Outlier share", ParamKind::Real,
             "share of outlier rows, whose features and noise are multiplied by the outlier scale",
             &O::outlierShare)
            .atLeast(0)
            .below(0.5)
            .keyName("p_out")
            .formerName("outlier_share"),
        knob("heavy-outlier-scale", "Outlier scale", ParamKind::Real,
             "factor applied to the features and noise of outlier rows", &O::outlierScale)
            .atLeast(1)
            .keyName("s_out")
            .formerName("outlier_scale"),
        knob("heavy-seed", "Generator seed", ParamKind::Integer,
             "seed of the generator (independent of the run seed)", &O::seed)
            .atLeast(0)
            .atMost(0x1p53)
            .keyName("seed")
            .formerName("seed")
            .advanced(),
    };
    g.generate = [](const DatasetRequest& r) { return generateHeavyTailed(r.knobs<O>()); };
    g.schema = [](const DatasetRequest& r) { return heavyTailedSchema(r.knobs<O>()); };
    g.describe = [](const DatasetRequest& r) { return describeHeavyTailed(r.knobs<O>()); };
    g.note = [](const DatasetRequest& r) { return heavyTailedTailNote(r.knobs<O>().featureTail); };
    return g;
}

}  // namespace pfa
