#include "core/data/heavy_tailed.h"

#include <cmath>
#include <sstream>

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

constexpr std::uint64_t kHeavyTailedStream = 0x4845415659000000ULL;  // "HEAVY"

void require(bool ok, const char* knob, double value, const char* rule) {
    if (ok) return;
    std::ostringstream message;
    message << "synthetic-heavy-tailed: " << knob << " = " << value << " is invalid: " << rule;
    throw InputError(message.str());
}

/// Gamma(shape, 1) by Marsaglia–Tsang from our own normal and uniform draws (portable).
double gammaSample(RandomStream& random, double shape) {
    if (shape < 1.0) {
        const double u = random.uniformOpen();
        return gammaSample(random, shape + 1.0) * std::pow(u, 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0.0, v = 0.0;
        do {
            x = random.normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = random.uniformOpen();
        if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
    }
}

/// Student-t with ν degrees of freedom: N(0,1) / √(χ²_ν / ν), χ²_ν = 2·Gamma(ν/2).
/// ν = ∞ is the standard normal (the limit), drawn with one normal only.
double studentT(RandomStream& random, double nu) {
    const double z = random.normal();
    if (std::isinf(nu)) return z;
    const double chi2 = 2.0 * gammaSample(random, nu / 2.0);
    return z / std::sqrt(chi2 / nu);
}

}  // namespace

double heavyTailedFeatureScale(double featureTail) {
    if (std::isinf(featureTail)) return 1.0;
    if (featureTail <= 2.0) return 1.0;
    return 1.0 / std::sqrt(featureTail / (featureTail - 2.0));
}

double admissibleTailIndex(double featureTail) { return featureTail - 0.5; }

double heavyTailedTrueWeight(int j, int features) {
    return (j % 2 == 0 ? 1.0 : -1.0) / std::sqrt(static_cast<double>(features));
}

TabularData generateHeavyTailed(const HeavyTailedOptions& o) {
    require(o.rows >= 100, "rows", o.rows, "at least 100 rows");
    require(o.features >= 1 && o.features <= 200, "features", o.features, "between 1 and 200");
    require(o.featureTail > 0.0, "feature tail ν", o.featureTail,
            "ν > 0, or inf (Gaussian features)");
    require(o.noiseTail > 0.0, "noise tail ν_ξ", o.noiseTail, "ν_ξ > 0, or inf (Gaussian noise)");
    require(o.noiseScale >= 0.0, "noise scale s_ξ", o.noiseScale, "s_ξ ≥ 0");
    require(o.outlierShare >= 0.0 && o.outlierShare < 0.5, "outlier share p_out", o.outlierShare,
            "in [0, 0.5)");
    require(o.outlierScale >= 1.0, "outlier scale s_out", o.outlierScale, "s_out ≥ 1");

    const auto n = static_cast<std::size_t>(o.rows);
    TabularData data;
    data.name = "synthetic-heavy-tailed";
    data.features.resize(static_cast<std::size_t>(o.features));
    for (int j = 0; j < o.features; ++j) {
        data.features[static_cast<std::size_t>(j)].name = numberedColumnName(j);
        data.features[static_cast<std::size_t>(j)].numeric.resize(n);
        data.trueWeights.push_back(heavyTailedTrueWeight(j, o.features));
    }
    data.target.resize(n);
    data.label.assign(n, 0);
    data.group.assign(n, 0);
    data.groupNames = {"all"};
    data.sensitiveDescription = "none (regression data)";

    RandomStream random(o.seed, kHeavyTailedStream);
    // ν > 2: scaled to unit variance; ν ≤ 2 has no finite variance to scale by: the t
    // distribution's own scale.
    const double unitVariance = heavyTailedFeatureScale(o.featureTail);
    for (std::size_t i = 0; i < n; ++i) {
        double signal = 0.0;
        for (int j = 0; j < o.features; ++j) {
            const double x = studentT(random, o.featureTail) * unitVariance;
            data.features[static_cast<std::size_t>(j)].numeric[i] = x;
            signal += data.trueWeights[static_cast<std::size_t>(j)] * x;
        }
        double noise = o.noiseScale * studentT(random, o.noiseTail);
        // Drawn for every row, so the ordinary rows do not depend on p_out.
        const bool outlier = random.uniformOpen() < o.outlierShare;
        if (outlier) {
            for (int j = 0; j < o.features; ++j)
                data.features[static_cast<std::size_t>(j)].numeric[i] *= o.outlierScale;
            signal *= o.outlierScale;
            noise *= o.outlierScale;
        }
        data.target[i] = signal + noise;
    }
    return data;
}

Schema heavyTailedSchema(const HeavyTailedOptions& options) {
    Schema schema;
    schema.name = "synthetic-heavy-tailed";
    schema.target = "y";
    for (int j = 0; j < options.features; ++j)
        schema.columns[numberedColumnName(j)].role = ColumnRole::Numeric;
    schema.defaultRole = ColumnRole::Ignore;
    return schema;
}

std::string describeHeavyTailed(const HeavyTailedOptions& o) {
    std::ostringstream text;
    text << "synthetic heavy-tailed regression (n=" << o.rows << ", d=" << o.features
         << ", feature tail nu=" << o.featureTail << ", noise tail nu_xi=" << o.noiseTail
         << ", noise scale=" << o.noiseScale << ", outliers p=" << o.outlierShare << " x"
         << o.outlierScale << ", w*_j=(-1)^j/sqrt(d), generator seed=" << o.seed << ")";
    return text.str();
}

}  // namespace pfa
