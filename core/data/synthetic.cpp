#include "core/data/synthetic.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

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

/// Stream label of the user and silo draws ("SYNUNITS"). A stream of its own, so that the
/// per-row draws keep their order whatever the users and silos are.
constexpr std::uint64_t kSyntheticUnitStream = 0x53594e554e495453ULL;

/// Rows per user: one each, then the rest shared ∝ k^(−skew) by largest remainder (ties to
/// the earlier user), so the sizes are exact and need no random draw.
std::vector<long> rowsPerUser(long rows, long users, double skew) {
    std::vector<double> weight(static_cast<std::size_t>(users));
    for (long k = 0; k < users; ++k) {
        weight[static_cast<std::size_t>(k)] = std::pow(static_cast<double>(k + 1), -skew);
    }
    const double total = std::accumulate(weight.begin(), weight.end(), 0.0);
    const long extra = rows - users;
    std::vector<long> count(static_cast<std::size_t>(users));
    std::vector<double> remainder(static_cast<std::size_t>(users));
    long given = 0;
    for (std::size_t k = 0; k < count.size(); ++k) {
        const double exact = static_cast<double>(extra) * weight[k] / total;
        const double whole = std::floor(exact);
        count[k] = 1 + static_cast<long>(whole);
        remainder[k] = exact - whole;
        given += static_cast<long>(whole);
    }
    std::vector<std::size_t> order(count.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; given < extra; ++i, ++given) ++count[order[i % order.size()]];
    return count;
}

/// Everything drawn once per user and per silo; empty vectors when there are none.
struct UnitDraws {
    std::vector<long> userOfRow;
    std::vector<int> userGroup;
    std::vector<double> userCredit;  ///< a_k
    std::vector<char> userAtypical;
    std::vector<int> siloOfRow;
    std::vector<std::vector<double>> siloFeatureShift;  ///< h·m_j
    std::vector<double> siloScoreShift;                 ///< h·c_j
};

UnitDraws drawUnits(const SyntheticOptions& options, std::size_t rows, std::size_t features) {
    UnitDraws draws;
    RandomStream random(options.seed, kSyntheticUnitStream);
    const auto silos = static_cast<std::size_t>(options.silos);
    for (std::size_t j = 0; j < silos; ++j) {
        draws.siloScoreShift.push_back(options.siloHeterogeneity * random.normal());
        std::vector<double> shift(features);
        for (double& value : shift) value = options.siloHeterogeneity * random.normal();
        draws.siloFeatureShift.push_back(std::move(shift));
    }
    if (options.users > 0) {
        const auto users = static_cast<std::size_t>(options.users);
        const std::vector<long> counts =
            rowsPerUser(static_cast<long>(rows), options.users, options.rowsPerUserSkew);
        for (std::size_t k = 0; k < users; ++k) {
            draws.userOfRow.insert(draws.userOfRow.end(), static_cast<std::size_t>(counts[k]),
                                   static_cast<long>(k));
            draws.userGroup.push_back(random.uniformOpen() < options.minorityShare ? 1 : 0);
            draws.userCredit.push_back(random.normal());
        }
        // The atypical users: the first ones of a random order (partial Fisher–Yates).
        std::vector<std::size_t> order(users);
        std::iota(order.begin(), order.end(), std::size_t{0});
        const auto atypical = static_cast<std::size_t>(
            std::llround(options.atypicalUserShare * static_cast<double>(users)));
        draws.userAtypical.assign(users, 0);
        for (std::size_t i = 0; i < atypical; ++i) {
            std::swap(order[i], order[i + random.uniformIndex(users - i)]);
            draws.userAtypical[order[i]] = 1;
        }
        if (silos > 0) {
            for (long user : draws.userOfRow) {
                draws.siloOfRow.push_back(static_cast<int>(static_cast<std::size_t>(user) % silos));
            }
        }
    } else if (silos > 0) {
        for (std::size_t i = 0; i < rows; ++i) {
            draws.siloOfRow.push_back(static_cast<int>(i * silos / rows));
        }
    }
    return draws;
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
    require(options.users >= 0 && options.users <= options.rows, "users", options.users,
            "it must be between 0 (no users) and the number of rows");
    const bool users = options.users > 0;
    require(options.rowsPerUserSkew >= 0.0 && options.rowsPerUserSkew <= 3.0, "rows-per-user skew",
            options.rowsPerUserSkew, "it must be in [0, 3]");
    require(options.userCorrelation >= 0.0 && options.userCorrelation <= 1.0, "user correlation",
            options.userCorrelation, "it must be in [0, 1]");
    require(options.atypicalUserShare >= 0.0 && options.atypicalUserShare < 0.5,
            "atypical user share", options.atypicalUserShare, "it must be in [0, 0.5)");
    require(users || (options.rowsPerUserSkew == 0.0 && options.userCorrelation == 0.0 &&
                      options.atypicalUserShare == 0.0),
            "users", options.users,
            "rows-per-user skew, user correlation and atypical users need users (users > 0)");
    require(options.silos >= 0 && options.silos <= (users ? options.users : options.rows), "silos",
            options.silos,
            users ? "it must be between 0 (no silos) and the number of users"
                  : "it must be between 0 (no silos) and the number of rows");
    require(options.siloHeterogeneity >= 0.0 && options.siloHeterogeneity <= 5.0,
            "silo heterogeneity", options.siloHeterogeneity, "it must be in [0, 5]");
    require(options.silos > 0 || options.siloHeterogeneity == 0.0, "silos", options.silos,
            "silo heterogeneity needs silos (silos > 0)");

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

    const UnitDraws units = drawUnits(options, n, d);
    const bool hasUsers = !units.userOfRow.empty();
    const bool hasSilos = !units.siloOfRow.empty();
    const double sharedWeight = std::sqrt(options.userCorrelation);
    const double ownWeight = std::sqrt(1.0 - options.userCorrelation);

    RandomStream random(options.seed, streams::kSynthetic);
    for (std::size_t i = 0; i < n; ++i) {
        // Without users or silos, every draw and sum below is exactly that of earlier versions
        // (the unit terms are skipped, not added as zeros), which keeps the data byte-identical.
        const long user = hasUsers ? units.userOfRow[i] : -1;
        const auto userIndex = static_cast<std::size_t>(user);
        int s = 0;
        double u = 0.0;
        if (hasUsers) {
            s = units.userGroup[userIndex];
            u = sharedWeight * units.userCredit[userIndex] + ownWeight * random.normal();
        } else {
            s = random.uniformOpen() < options.minorityShare ? 1 : 0;
            u = random.normal();
        }
        const std::vector<double>* siloShift =
            hasSilos ? &units.siloFeatureShift[static_cast<std::size_t>(units.siloOfRow[i])]
                     : nullptr;
        for (std::size_t j = 0; j < d; ++j) {
            double value = 0.0;
            switch (j) {
                case 0:
                    value = u - 0.6 * beta * s + 0.5 * random.normal();
                    break;
                case 1:
                    value = -0.5 * u + 0.4 * beta * s + 0.6 * random.normal();
                    break;
                case 2:
                    value = 0.7 * u + 0.6 * random.normal();
                    break;
                case 3:
                    value = 0.5 * u - 0.5 * beta * s + 0.8 * random.normal();
                    break;
                case 4:
                    value = 1.0 * s + 0.7 * random.normal();
                    break;
                default:
                    value = 0.2 * u + random.normal();
                    break;
            }
            if (siloShift) value += (*siloShift)[j];
            data.features[j].numeric[i] = value;
        }
        const double p = random.uniformOpen();
        const double logisticNoise = 0.3 * std::log(p / (1.0 - p));
        double score = 1.2 * u - beta * s + 0.3 + logisticNoise;
        if (hasSilos) score += units.siloScoreShift[static_cast<std::size_t>(units.siloOfRow[i])];
        int repaid = (score > 0.0) ? 1 : 0;
        if (random.uniformOpen() < options.labelNoise) repaid = 1 - repaid;
        if (hasUsers && units.userAtypical[userIndex]) repaid = 1 - repaid;
        data.label[i] = repaid;
        data.group[i] = s;
    }

    if (hasUsers) {
        data.userId.assign(units.userOfRow.begin(), units.userOfRow.end());
        data.unitName = "application";
        data.personColumn = "applicant";
    }
    if (hasSilos) {
        data.siloId = units.siloOfRow;
        for (int j = 0; j < options.silos; ++j) {
            data.siloNames.push_back("silo " + std::to_string(j + 1));
        }
        std::ostringstream description;
        description << options.silos << " silos of the synthetic generator (heterogeneity h = "
                    << options.siloHeterogeneity << ")";
        data.siloDescription = description.str();
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
         << ", label noise=" << options.labelNoise << ", generator seed=" << options.seed;
    if (options.users > 0) {
        text << ", users=" << options.users << ", rows-per-user skew=" << options.rowsPerUserSkew
             << ", user correlation=" << options.userCorrelation
             << ", atypical users=" << options.atypicalUserShare;
    }
    if (options.silos > 0) {
        text << ", silos=" << options.silos << ", silo heterogeneity=" << options.siloHeterogeneity;
    }
    text << ")";
    return text.str();
}

}  // namespace pfa
