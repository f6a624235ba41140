#include "core/data/silo_splitters.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/data/row_key.h"
#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

/// Stream label of silo draws ("SILOS"): independent of the split and of every run stream.
constexpr std::uint64_t kSiloStream = 0x53494c4f53000000ULL;

std::vector<long> rowsFromZero(long count) {
    std::vector<long> rows(static_cast<std::size_t>(count));
    std::iota(rows.begin(), rows.end(), 0L);
    return rows;
}

/// Fisher–Yates with our own bounded draws (as the train/test split), so the order is the
/// same on every platform.
void shuffle(std::vector<long>& rows, RandomStream& random) {
    for (std::size_t i = rows.size(); i > 1; --i) {
        std::swap(rows[i - 1], rows[random.uniformIndex(i)]);
    }
}

/// Silo names "silo 1" … "silo N" for silo ids 0 … N − 1.
std::vector<std::string> numberedSiloNames(int silos) {
    std::vector<std::string> names;
    for (int silo = 0; silo < silos; ++silo) names.push_back("silo " + std::to_string(silo + 1));
    return names;
}

std::string formatNumber(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

void requireSiloCount(const SiloOptions& options, const DataSplit& split) {
    if (options.silos < 1) {
        throw InputError("number of silos " + std::to_string(options.silos) +
                         " is invalid: it must be at least 1");
    }
    if (options.minTrainRowsPerSilo < 1) {
        throw InputError("minimum training rows per silo " +
                         std::to_string(options.minTrainRowsPerSilo) +
                         " is invalid: it must be at least 1");
    }
    const long needed = static_cast<long>(options.silos) * options.minTrainRowsPerSilo;
    if (split.train.rows() < needed) {
        throw InputError(std::to_string(options.silos) + " silos of at least " +
                         std::to_string(options.minTrainRowsPerSilo) + " training rows need " +
                         std::to_string(needed) + " training rows; the data has " +
                         std::to_string(split.train.rows()));
    }
}

// ---- Equal random silos ---------------------------------------------------------------

/// Silo id per row: a random permutation cut into `silos` consecutive pieces whose sizes
/// differ by at most one row.
std::vector<int> dealEqually(long rows, int silos, RandomStream& random) {
    std::vector<long> order = rowsFromZero(rows);
    shuffle(order, random);
    std::vector<int> silo(static_cast<std::size_t>(rows));
    for (std::size_t i = 0; i < order.size(); ++i) {
        const auto piece = static_cast<long long>(i) * silos / std::max(rows, 1L);
        silo[static_cast<std::size_t>(order[i])] = static_cast<int>(piece);
    }
    return silo;
}

SiloAssignment equalRandomSilos(const DataSplit& split, const SiloOptions& options) {
    requireSiloCount(options, split);
    RandomStream random(options.seed, kSiloStream);
    const std::vector<int> train = dealEqually(split.train.rows(), options.silos, random);
    const std::vector<int> test = dealEqually(split.test.rows(), options.silos, random);
    const std::vector<std::string> names = numberedSiloNames(options.silos);
    SiloAssignment out{UnitIndex(train, names), UnitIndex(test, names), {}, {}};
    out.description = std::to_string(options.silos) +
                      " silos of equal size, rows drawn at random " + "(silo seed " +
                      std::to_string(options.seed) + ")";
    out.neighbourAssumption =
        "silos are dealt by position (a seeded permutation of the rows), so "
        "a replaced record keeps its silo and no other record moves";
    return out;
}

// ---- Dirichlet label mix --------------------------------------------------------------

/// log of a Gamma(shape, 1) draw. Marsaglia & Tsang's method (2000) for shape ≥ 1; below 1,
/// Gamma(shape) = Gamma(shape + 1)·U^(1/shape), kept in logs because U^(1/shape) underflows to
/// 0 for the small shapes (α = 0.01) that make silos heterogeneous.
double logGammaDraw(double shape, RandomStream& random) {
    if (shape < 1.0) {
        return logGammaDraw(shape + 1.0, random) + std::log(random.uniformOpen()) / shape;
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        const double x = random.normal();
        double v = 1.0 + c * x;
        if (v <= 0.0) continue;
        v = v * v * v;
        const double logU = std::log(random.uniformOpen());
        if (logU < 0.5 * x * x + d - d * v + d * std::log(v)) return std::log(d * v);
    }
}

/// Proportions p ~ Dirichlet(α, …, α) over `silos` entries (exactly 1/silos for α = ∞).
void drawDirichlet(double alpha, RandomStream& random, std::vector<double>& proportions) {
    const std::size_t silos = proportions.size();
    if (std::isinf(alpha)) {
        std::fill(proportions.begin(), proportions.end(), 1.0 / static_cast<double>(silos));
        return;
    }
    for (double& logDraw : proportions) logDraw = logGammaDraw(alpha, random);
    const double largest = *std::max_element(proportions.begin(), proportions.end());
    double total = 0.0;
    for (double& value : proportions) total += (value = std::exp(value - largest));
    for (double& value : proportions) value /= total;
}

int classCount(const DataSplit& split) {
    int classes = std::max(split.train.numClasses(), split.test.numClasses());
    for (const Dataset* part : {&split.train, &split.test}) {
        if (part->y.size() > 0) classes = std::max(classes, part->y.maxCoeff() + 1);
    }
    return classes;
}

/// Silo id per row: row i goes to silo k with probability proportions[y_i][k], decided by a
/// uniform made from the row's own key and the silo seed alone (row_key.h) — so a row's silo
/// depends on nothing but that row: adding, removing or changing another row (its label
/// included) never moves it.
std::vector<int> dealByRowKey(const Dataset& part,
                              const std::vector<std::vector<double>>& proportions,
                              std::uint64_t seed) {
    std::vector<int> silo(static_cast<std::size_t>(part.rows()));
    for (Eigen::Index i = 0; i < part.rows(); ++i) {
        const std::vector<double>& p = proportions[static_cast<std::size_t>(part.y(i))];
        const double u = rowUniform(rowKey(part, i), seed ^ kSiloStream);
        double cumulative = 0.0;
        std::size_t k = 0;
        for (; k + 1 < p.size(); ++k) {
            cumulative += p[k];
            if (u < cumulative) break;
        }
        silo[static_cast<std::size_t>(i)] = static_cast<int>(k);
    }
    return silo;
}

SiloAssignment dirichletSilos(const DataSplit& split, const SiloOptions& options) {
    requireSiloCount(options, split);
    const double alpha = options.dirichletAlpha;
    if (!(alpha > 0.0)) {
        throw InputError("Dirichlet concentration α = " + formatNumber(alpha) +
                         " is invalid: it must be positive (large α: iid silos, small α: "
                         "heterogeneous silos)");
    }
    const int classes = classCount(split);
    const auto silos = static_cast<std::size_t>(options.silos);
    RandomStream random(options.seed, kSiloStream);

    std::vector<std::vector<double>> proportions(static_cast<std::size_t>(classes),
                                                 std::vector<double>(silos));
    std::vector<int> train;
    std::vector<long> trainRows(silos);
    bool sizesMet = false;
    int redraws = 0;
    for (int attempt = 0; attempt < kDirichletAttempts && !sizesMet; ++attempt) {
        for (std::vector<double>& classProportions : proportions)
            drawDirichlet(alpha, random, classProportions);
        train = dealByRowKey(split.train, proportions, options.seed);
        std::fill(trainRows.begin(), trainRows.end(), 0L);
        for (const int k : train) ++trainRows[static_cast<std::size_t>(k)];
        sizesMet =
            *std::min_element(trainRows.begin(), trainRows.end()) >= options.minTrainRowsPerSilo;
        redraws = attempt;
    }
    if (!sizesMet) {
        throw InputError("no Dirichlet(α = " + formatNumber(alpha) + ") draw in " +
                         std::to_string(kDirichletAttempts) + " gave each of the " +
                         std::to_string(options.silos) + " silos at least " +
                         std::to_string(options.minTrainRowsPerSilo) +
                         " training rows: use fewer silos, a larger α or a smaller minimum");
    }
    const std::vector<std::string> names = numberedSiloNames(options.silos);
    SiloAssignment out{UnitIndex(train, names),
                       UnitIndex(dealByRowKey(split.test, proportions, options.seed), names),
                       {},
                       {}};
    out.description = std::to_string(options.silos) + " silos, label mix Dirichlet(α = " +
                      (std::isinf(alpha) ? std::string("∞") : formatNumber(alpha)) +
                      ") per class (silo seed " + std::to_string(options.seed) + ")";
    // A record's silo follows from its own label: a neighbour whose label changes may move
    // that record to another silo, which a per-silo guarantee cannot cover.
    out.neighbourAssumption =
        "each record's silo is drawn from its own label's mix and a hash of its own values, so "
        "no other record decides it; the guarantee assumes the changed record stays in its "
        "silo (a label change could move it to another silo, changing two silos)";
    if (redraws > 0) {
        out.neighbourAssumption += "; the label mix was drawn " + std::to_string(redraws + 1) +
                                   " times until every silo had " +
                                   std::to_string(options.minTrainRowsPerSilo) +
                                   " training rows, a choice that read the silo sizes";
    }
    return out;
}

// ---- One silo per attribute value -----------------------------------------------------

/// An attribute's value per row (−1: no value of its own) and the values' names.
struct AttributeValues {
    std::vector<int> train;
    std::vector<int> test;
    std::vector<std::string> names;
    std::string title;  ///< what the silos are split by, for the description
};

std::vector<int> valuesOf(const Eigen::VectorXi& codes) {
    return std::vector<int>(codes.data(), codes.data() + codes.size());
}

std::vector<std::string> namesOrNumbers(const std::vector<std::string>& names, int count,
                                        const std::string& prefix) {
    std::vector<std::string> out = names;
    for (int value = static_cast<int>(out.size()); value < count; ++value) {
        out.push_back(prefix + std::to_string(value));
    }
    return out;
}

/// Which one-hot column of `part` is set in each row: the kept level's index, or −1.
std::vector<int> levelPerRow(const Dataset& part, const std::vector<Eigen::Index>& levelColumns) {
    std::vector<int> level(static_cast<std::size_t>(part.rows()), -1);
    for (std::size_t l = 0; l < levelColumns.size(); ++l) {
        for (Eigen::Index i = 0; i < part.rows(); ++i) {
            if (part.X(i, levelColumns[l]) != 0.0)
                level[static_cast<std::size_t>(i)] = static_cast<int>(l);
        }
    }
    return level;
}

AttributeValues featureColumnValues(const DataSplit& split, const std::string& column) {
    const EncodingInfo& encoding = split.encoding;
    const auto categorical =
        std::find(encoding.categoricalColumns.begin(), encoding.categoricalColumns.end(), column);
    if (categorical == encoding.categoricalColumns.end()) {
        const bool numeric =
            std::find(encoding.numericColumns.begin(), encoding.numericColumns.end(), column) !=
            encoding.numericColumns.end();
        std::string known;
        for (const std::string& name : encoding.categoricalColumns) {
            known += (known.empty() ? "" : ", ") + name;
        }
        throw InputError(
            "silos by attribute: column '" + column + "' " +
            (numeric ? "is numeric" : "is not a feature column of the data") +
            "; silos need a categorical column (" +
            (known.empty() ? std::string("the data has none") : "categorical: " + known) + ")");
    }
    const std::vector<std::string>& levels = encoding.keptLevels[static_cast<std::size_t>(
        categorical - encoding.categoricalColumns.begin())];
    std::vector<Eigen::Index> levelColumns;
    for (const std::string& level : levels) {
        const std::string name = column + "=" + level;
        const auto found =
            std::find(split.train.featureNames.begin(), split.train.featureNames.end(), name);
        if (found == split.train.featureNames.end()) {
            throw InputError("silos by attribute: the encoded column '" + name +
                             "' is missing from the features");
        }
        levelColumns.push_back(found - split.train.featureNames.begin());
    }
    return {levelPerRow(split.train, levelColumns), levelPerRow(split.test, levelColumns), levels,
            column};
}

AttributeValues attributeValues(const DataSplit& split, const SiloOptions& options) {
    switch (options.attribute) {
        case SiloAttribute::Label:
            return {valuesOf(split.train.y), valuesOf(split.test.y),
                    namesOrNumbers(split.train.classNames, classCount(split), "class "),
                    "the label"};
        case SiloAttribute::Group: {
            int groups = std::max(split.train.numGroups(), split.test.numGroups());
            for (const Dataset* part : {&split.train, &split.test}) {
                if (part->s.size() > 0) groups = std::max(groups, part->s.maxCoeff() + 1);
            }
            const std::string title = split.train.sensitiveDescription.empty()
                                          ? std::string("the sensitive group")
                                          : split.train.sensitiveDescription;
            return {valuesOf(split.train.s), valuesOf(split.test.s),
                    namesOrNumbers(split.train.groupNames, groups, "group "), title};
        }
        case SiloAttribute::FeatureColumn:
            break;
    }
    return featureColumnValues(split, options.column);
}

SiloAssignment attributeSilos(const DataSplit& split, const SiloOptions& options) {
    if (options.minTrainRowsPerSilo < 1) {
        throw InputError("minimum training rows per silo " +
                         std::to_string(options.minTrainRowsPerSilo) +
                         " is invalid: it must be at least 1");
    }
    const AttributeValues values = attributeValues(split, options);
    std::vector<long> trainCount(values.names.size(), 0);
    for (int value : values.train) {
        if (value >= 0) ++trainCount[static_cast<std::size_t>(value)];
    }
    // Values with enough training rows keep a silo each, in value order; the rest share one.
    std::vector<int> siloOfValue(values.names.size());
    std::vector<std::string> siloNames;
    for (std::size_t value = 0; value < values.names.size(); ++value) {
        if (trainCount[value] < options.minTrainRowsPerSilo) continue;
        siloOfValue[value] = static_cast<int>(siloNames.size());
        siloNames.push_back(values.names[value]);
    }
    const int otherSilo = static_cast<int>(siloNames.size());
    long merged = 0;
    for (std::size_t value = 0; value < values.names.size(); ++value) {
        if (trainCount[value] >= options.minTrainRowsPerSilo) continue;
        siloOfValue[value] = otherSilo;
        if (trainCount[value] > 0) ++merged;
    }
    const bool nameTaken =
        std::find(siloNames.begin(), siloNames.end(), options.otherName) != siloNames.end();
    siloNames.push_back(nameTaken ? options.otherName + " (merged)" : options.otherName);

    auto silosOf = [&](const std::vector<int>& rowValues) {
        std::vector<int> silo(rowValues.size());
        for (std::size_t i = 0; i < rowValues.size(); ++i) {
            silo[i] =
                rowValues[i] < 0 ? otherSilo : siloOfValue[static_cast<std::size_t>(rowValues[i])];
        }
        return silo;
    };
    SiloAssignment out{UnitIndex(silosOf(values.train), siloNames),
                       UnitIndex(silosOf(values.test), siloNames),
                       {},
                       {}};
    out.description = "one silo per value of " + values.title;
    if (options.minTrainRowsPerSilo > 1) {
        out.description +=
            " with at least " + std::to_string(options.minTrainRowsPerSilo) + " training rows";
    }
    if (out.train.find(otherSilo) || out.test.find(otherSilo)) {
        out.description += "; " + std::to_string(merged) + " smaller value" +
                           (merged == 1 ? "" : "s") + " and any value unseen in training in '" +
                           siloNames.back() + "'";
    }
    out.description += " (" + std::to_string(out.train.units()) + " silos with training rows)";
    out.neighbourAssumption = "each record's silo is its own value of " + values.title +
                              ", so no other record decides it; the guarantee assumes the changed "
                              "record keeps that value (stays in its silo)";
    if (options.minTrainRowsPerSilo > 1) {
        out.neighbourAssumption += "; values with fewer than " +
                                   std::to_string(options.minTrainRowsPerSilo) +
                                   " training rows share one silo, a choice that read the value "
                                   "counts";
    }
    return out;
}

}  // namespace

SiloAssignment makeSilos(const DataSplit& split, const SiloOptions& options) {
    switch (options.method) {
        case SiloMethod::EqualRandom:
            return equalRandomSilos(split, options);
        case SiloMethod::Dirichlet:
            return dirichletSilos(split, options);
        case SiloMethod::ByAttribute:
            return attributeSilos(split, options);
    }
    throw InputError("unknown silo method");
}

void assignSilos(DataSplit& split, SiloAssignment silos) {
    if (silos.train.rows() != split.train.rows() || silos.test.rows() != split.test.rows()) {
        throw InputError("silo assignment of " + std::to_string(silos.train.rows()) + " + " +
                         std::to_string(silos.test.rows()) + " rows does not fit a split of " +
                         std::to_string(split.train.rows()) + " + " +
                         std::to_string(split.test.rows()) + " rows");
    }
    split.train.siloDescription = silos.description;
    split.test.siloDescription = silos.description;
    split.train.siloAssumption = silos.neighbourAssumption;
    split.test.siloAssumption = silos.neighbourAssumption;
    split.train.silos = std::move(silos.train);
    split.test.silos = std::move(silos.test);
}

}  // namespace pfa
