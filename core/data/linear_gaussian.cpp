#include "core/data/linear_gaussian.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

constexpr std::uint64_t kLinearGaussianStream = 0x4c494e4541520000ULL;  // "LINEAR"

void require(bool ok, const char* knob, double value, const char* rule) {
    if (ok) return;
    std::ostringstream message;
    message << "synthetic-linear: " << knob << " = " << value << " is invalid: " << rule;
    throw InputError(message.str());
}

}  // namespace

double linearGaussianOptimalMse(const Dataset& data) {
    if (data.name != "synthetic-linear" || data.trueWeights.size() == 0) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return kLinearGaussianNoiseStd * kLinearGaussianNoiseStd;
}

TabularData generateLinearGaussian(const LinearGaussianOptions& o) {
    require(o.rows >= 100, "rows", o.rows, "at least 100 rows");
    require(o.features >= 1 && o.features <= 2000, "features", o.features, "between 1 and 2000");

    const auto n = static_cast<std::size_t>(o.rows);
    const auto d = static_cast<std::size_t>(o.features);
    TabularData data;
    data.name = "synthetic-linear";
    data.features.resize(d);
    RandomStream random(o.seed, kLinearGaussianStream);
    for (std::size_t j = 0; j < d; ++j) {
        data.features[j].name = numberedColumnName(static_cast<int>(j));
        data.features[j].numeric.resize(n);
        data.trueWeights.push_back(random.normal());
    }
    data.target.resize(n);
    data.label.assign(n, 0);
    data.group.assign(n, 0);
    data.groupNames = {"all"};
    data.sensitiveDescription = "none (regression data)";
    for (std::size_t i = 0; i < n; ++i) {
        double signal = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            const double x = random.normal();
            data.features[j].numeric[i] = x;
            signal += data.trueWeights[j] * x;
        }
        data.target[i] = signal + kLinearGaussianNoiseStd * random.normal();
    }
    return data;
}

Schema linearGaussianSchema(const LinearGaussianOptions& options) {
    Schema schema;
    schema.name = "synthetic-linear";
    schema.target = "y";
    for (int j = 0; j < options.features; ++j)
        schema.columns[numberedColumnName(j)].role = ColumnRole::Numeric;
    schema.defaultRole = ColumnRole::Ignore;
    return schema;
}

std::string describeLinearGaussian(const LinearGaussianOptions& o) {
    std::ostringstream text;
    text << "synthetic Gaussian linear regression (n=" << o.rows << ", d=" << o.features
         << ", x ~ N(0, I), w* ~ N(0, I), noise std 0.5, optimal MSE 0.25, generator seed="
         << o.seed << ")";
    return text.str();
}

}  // namespace pfa
