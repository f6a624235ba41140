#include "core/data/synthetic.h"

#include <cmath>
#include <sstream>

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

void require(bool ok, const std::string& knob, double value, const std::string& rule) {
    if (!ok) {
        std::ostringstream message;
        message << "synthetic data: " << knob << " = " << value << " is invalid: " << rule;
        throw InputError(message.str());
    }
}

std::string featureName(std::size_t j) {
    static const char* const kNames[] = {"income", "debt_ratio", "credit_history", "savings",
                                         "neighbourhood"};
    return j < 5 ? kNames[j] : "feature_" + std::to_string(j + 1);
}

}  // namespace

TabularData generateSynthetic(const SyntheticOptions& options) {
    require(options.rows >= 100 && options.rows <= 50'000'000, "rows", options.rows,
            "it must be between 100 and 50,000,000");
    require(options.features >= 2 && options.features <= 200, "features", options.features,
            "it must be between 2 and 200");
    require(options.minorityShare > 0.0 && options.minorityShare <= 0.5, "minority share",
            options.minorityShare, "it must be in (0, 0.5]");
    require(options.groupLabelDependence >= 0.0 && options.groupLabelDependence <= 5.0,
            "group-label dependence", options.groupLabelDependence, "it must be in [0, 5]");
    require(options.labelNoise >= 0.0 && options.labelNoise < 0.5, "label noise",
            options.labelNoise, "it must be in [0, 0.5)");

    const auto n = static_cast<std::size_t>(options.rows);
    const auto d = static_cast<std::size_t>(options.features);
    const double beta = options.groupLabelDependence;

    TabularData data;
    data.name = "synthetic";
    data.classNames = {"default", "repaid"};
    data.groupNames = {"A (majority)", "B (minority)"};
    data.sensitiveDescription = "group";
    data.features.resize(d);
    for (std::size_t j = 0; j < d; ++j) {
        data.features[j].name = featureName(j);
        data.features[j].kind = FeatureKind::Numeric;
        data.features[j].numeric.resize(n);
    }
    data.label.resize(n);
    data.group.resize(n);

    RandomStream random(options.seed, streams::kSynthetic);
    for (std::size_t i = 0; i < n; ++i) {
        const int s = random.uniformOpen() < options.minorityShare ? 1 : 0;
        const double u = random.normal();
        for (std::size_t j = 0; j < d; ++j) {
            double value = 0.0;
            switch (j) {
                case 0: value = u - 0.6 * beta * s + 0.5 * random.normal(); break;
                case 1: value = -0.5 * u + 0.4 * beta * s + 0.6 * random.normal(); break;
                case 2: value = 0.7 * u + 0.6 * random.normal(); break;
                case 3: value = 0.5 * u - 0.5 * beta * s + 0.8 * random.normal(); break;
                case 4: value = 1.0 * s + 0.7 * random.normal(); break;
                default: value = 0.2 * u + random.normal(); break;
            }
            data.features[j].numeric[i] = value;
        }
        const double p = random.uniformOpen();
        const double logisticNoise = 0.3 * std::log(p / (1.0 - p));
        int repaid = (1.2 * u - beta * s + 0.3 + logisticNoise > 0.0) ? 1 : 0;
        if (random.uniformOpen() < options.labelNoise) repaid = 1 - repaid;
        data.label[i] = repaid;
        data.group[i] = s;
    }
    return data;
}

Schema syntheticSchema(const SyntheticOptions& options) {
    Schema schema;
    schema.name = "synthetic";
    schema.target = "outcome";
    schema.positiveValues = {"repaid"};
    schema.negativeClassName = "default";
    schema.positiveClassName = "repaid";
    schema.sensitive = {"group"};
    for (int j = 0; j < options.features; ++j) {
        schema.columns[featureName(static_cast<std::size_t>(j))].role = ColumnRole::Numeric;
    }
    schema.defaultRole = ColumnRole::Ignore;
    return schema;
}

std::string describeSynthetic(const SyntheticOptions& options) {
    std::ostringstream text;
    text << "synthetic lending data (n=" << options.rows << ", d=" << options.features
         << ", minority share=" << options.minorityShare
         << ", group-label dependence=" << options.groupLabelDependence
         << ", label noise=" << options.labelNoise << ", generator seed=" << options.seed << ")";
    return text.str();
}

}  // namespace pfa
