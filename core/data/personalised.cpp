#include "core/data/personalised.h"

#include <array>
#include <cmath>
#include <sstream>

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

__extension__ typedef unsigned __int128 Uint128;  // GCC/Clang builtin, pedantic-clean

constexpr std::uint64_t kPersonalisedStream = 0x5045525330000000ULL;  // "PERS0"
constexpr std::uint64_t kPersonalisedRows = 0x5045525331000000ULL;    // "PERS1"

void require(bool ok, const char* knob, double value, const char* rule) {
    if (ok) return;
    std::ostringstream message;
    message << "synthetic-personalised: " << knob << " = " << value << " is invalid: " << rule;
    throw InputError(message.str());
}

/// The 256-layer ziggurat of the standard normal (Marsaglia and Tsang, "The Ziggurat Method
/// for Generating Random Variables", 2000; the layout of Rust's rand_distr): layer edges x[i]
/// with x[1] = R the start of the tail, x[0] = V/f(R) the base strip's virtual width, x[256] = 0,
/// and f[i] = exp(−x[i]²/2).
struct Ziggurat {
    static constexpr double kTailStart = 3.654152885361008796;
    static constexpr double kLayerArea = 0.00492867323399;
    std::array<double, 257> x{};
    std::array<double, 257> f{};
    Ziggurat() {
        auto density = [](double v) { return std::exp(-0.5 * v * v); };
        x[0] = kLayerArea / density(kTailStart);
        x[1] = kTailStart;
        for (int i = 2; i < 256; ++i)
            x[i] = std::sqrt(-2.0 * std::log(kLayerArea / x[i - 1] + density(x[i - 1])));
        x[256] = 0.0;
        for (int i = 0; i <= 256; ++i) f[i] = density(x[i]);
    }
};

const Ziggurat& ziggurat() {
    static const Ziggurat table;
    return table;
}

}  // namespace

FastRandom::FastRandom(std::uint64_t seed, std::uint64_t streamLabel) {
    // splitmix64 expands the seed and label into the state (never all zero).
    std::uint64_t x = seed ^ (streamLabel * 0x9E3779B97F4A7C15ULL);
    for (std::uint64_t& word : m_s) {
        x += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        word = z ^ (z >> 31);
    }
}

std::uint64_t FastRandom::uniformIndex(std::uint64_t bound) {
    Uint128 product = static_cast<Uint128>(next64()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
        const std::uint64_t threshold = (0 - bound) % bound;
        while (low < threshold) {
            product = static_cast<Uint128>(next64()) * bound;
            low = static_cast<std::uint64_t>(product);
        }
    }
    return static_cast<std::uint64_t>(product >> 64);
}

double fastNormal(FastRandom& random) {
    const Ziggurat& z = ziggurat();
    for (;;) {
        const std::uint64_t bits = random.next64();
        const int i = static_cast<int>(bits & 0xff);
        // The top 53 bits, as a symmetric uniform in (−1, 1) (never exactly 0 or ±1).
        const double u = 2.0 * ((static_cast<double>(bits >> 11) + 0.5) * 0x1.0p-53) - 1.0;
        const double x = u * z.x[static_cast<std::size_t>(i)];
        if (std::abs(x) < z.x[static_cast<std::size_t>(i) + 1])
            return x;  // inside the layer's core
        if (i == 0) {
            // The tail beyond R (Marsaglia 1964).
            double tx = 0.0, ty = 0.0;
            do {
                tx = std::log(random.uniformOpen()) / Ziggurat::kTailStart;
                ty = std::log(random.uniformOpen());
            } while (-2.0 * ty < tx * tx);
            return u < 0.0 ? tx - Ziggurat::kTailStart : Ziggurat::kTailStart - tx;
        }
        const double fLow = z.f[static_cast<std::size_t>(i)],
                     fHigh = z.f[static_cast<std::size_t>(i) + 1];
        if (fHigh + (fLow - fHigh) * random.uniformOpen() < std::exp(-0.5 * x * x)) return x;
    }
}

double PersonalisedTruth::userExcessRisk(int user,
                                         const Eigen::Ref<const Eigen::VectorXd>& model) const {
    return (variances.array() * (model - optimum.col(user)).array().square()).sum();
}

double PersonalisedTruth::excessRisk(const Eigen::VectorXd& global,
                                     const Eigen::MatrixXd& offsets) const {
    double total = 0.0;
    for (int i = 0; i < users(); ++i) {
        total +=
            (variances.array() * (global + offsets.col(i) - optimum.col(i)).array().square()).sum();
    }
    return total / static_cast<double>(users());
}

double PersonalisedTruth::globalModelFloor() const {
    const Eigen::VectorXd mean = optimum.rowwise().mean();
    const Eigen::VectorXd spread =
        (optimum.colwise() - mean).array().square().rowwise().sum() / static_cast<double>(users());
    return variances.dot(spread);
}

void PersonalisedTruth::sample(int user, FastRandom& random, Eigen::Ref<RowMatrix> x,
                               Eigen::Ref<Eigen::VectorXd> y) const {
    const Eigen::Index m = x.rows(), d = x.cols();
    for (Eigen::Index k = 0; k < m; ++k) {
        for (Eigen::Index j = 0; j < d; ++j) x(k, j) = scales(j) * fastNormal(random);
    }
    y.noalias() = x * optimum.col(user);
    for (Eigen::Index k = 0; k < m; ++k) y(k) += noise * fastNormal(random);
}

std::shared_ptr<const PersonalisedTruth> makePersonalisedTruth(const PersonalisedOptions& o) {
    require(o.users >= 2 && o.users <= 100000, "users", o.users, "between 2 and 100000");
    require(o.features >= 1 && o.features <= 1000, "features", o.features, "between 1 and 1000");
    require(o.personalCoordinates >= 0 && o.personalCoordinates <= o.features,
            "personal coordinates p", o.personalCoordinates, "between 0 and d");
    require(o.heterogeneity >= 0.0 && std::isfinite(o.heterogeneity), "heterogeneity s",
            o.heterogeneity, "a finite s ≥ 0");
    require(o.noise >= 0.0 && std::isfinite(o.noise), "noise τ", o.noise, "a finite τ ≥ 0");
    require(o.globalScale > 0.0 && std::isfinite(o.globalScale), "global scale", o.globalScale,
            "finite and > 0");
    require(o.rowsPerUser >= 1 && o.rowsPerUser <= 1000, "rows per user", o.rowsPerUser,
            "between 1 and 1000");

    auto truth = std::make_shared<PersonalisedTruth>();
    const int d = o.features, n = o.users;
    truth->noise = o.noise;
    truth->personalCoordinates = o.personalCoordinates;
    truth->variances.resize(d);
    truth->scales.resize(d);
    for (int k = 0; k < d; ++k) {
        truth->variances(k) = 1.0 / static_cast<double>(k + 1);
        truth->scales(k) = std::sqrt(truth->variances(k));
    }
    RandomStream random(o.seed, kPersonalisedStream);
    Eigen::VectorXd shared(d);
    for (int k = 0; k < d; ++k) shared(k) = o.globalScale * random.normal();
    truth->optimum = shared.replicate(1, n);
    for (int i = 0; i < n; ++i) {
        for (int k = d - o.personalCoordinates; k < d; ++k)
            truth->optimum(k, i) += o.heterogeneity * random.normal();
    }
    return truth;
}

TabularData generatePersonalised(const PersonalisedOptions& o) {
    const std::shared_ptr<const PersonalisedTruth> truth = makePersonalisedTruth(o);
    const int d = o.features;
    const auto n = static_cast<std::size_t>(o.users) * static_cast<std::size_t>(o.rowsPerUser);
    TabularData data;
    data.name = "synthetic-personalised";
    data.features.resize(static_cast<std::size_t>(d));
    for (int j = 0; j < d; ++j) {
        data.features[static_cast<std::size_t>(j)].name = numberedColumnName(j);
        data.features[static_cast<std::size_t>(j)].numeric.resize(n);
    }
    data.target.resize(n);
    data.label.assign(n, 0);
    data.group.assign(n, 0);
    data.groupNames = {"all"};
    data.sensitiveDescription = "none (regression data)";
    data.unitName = "sample";
    data.personColumn = "user";
    data.userId.resize(n);
    for (int i = 0; i < o.users; ++i) data.userNames.push_back("user " + std::to_string(i + 1));

    // The table rows come from their own stream, so the truth does not depend on rowsPerUser.
    FastRandom random(o.seed, kPersonalisedRows);
    RowMatrix x(o.rowsPerUser, d);
    Eigen::VectorXd y(o.rowsPerUser);
    std::size_t row = 0;
    for (int i = 0; i < o.users; ++i) {
        truth->sample(i, random, x, y);
        for (int k = 0; k < o.rowsPerUser; ++k, ++row) {
            for (int j = 0; j < d; ++j)
                data.features[static_cast<std::size_t>(j)].numeric[row] = x(k, j);
            data.target[row] = y(k);
            data.userId[row] = i;
        }
    }
    data.personalised = truth;
    return data;
}

Schema personalisedSchema(const PersonalisedOptions& options) {
    Schema schema;
    schema.name = "synthetic-personalised";
    schema.target = "y";
    for (int j = 0; j < options.features; ++j)
        schema.columns[numberedColumnName(j)].role = ColumnRole::Numeric;
    schema.defaultRole = ColumnRole::Ignore;
    return schema;
}

std::string describePersonalised(const PersonalisedOptions& o) {
    std::ostringstream text;
    text << "synthetic personalised regression (users N=" << o.users << ", d=" << o.features
         << ", personal coordinates p=" << o.personalCoordinates
         << ", heterogeneity s=" << o.heterogeneity << ", label noise tau=" << o.noise
         << ", theta0 ~ N(0, " << o.globalScale << "^2 I), x ~ N(0, diag(1/k)), " << o.rowsPerUser
         << " table rows per user, generator seed=" << o.seed << ")";
    return text.str();
}

}  // namespace pfa
