#pragma once

#include <cstdint>
#include <string>

#include "core/data/dataset.h"
#include "core/data/units.h"

namespace pfa {

/// How rows are dealt out to silos (institutions that each hold their own rows, as hospitals
/// or banks in federated learning across silos).
enum class SiloMethod {
    EqualRandom,  ///< `silos` silos of equal size (±1 row), rows drawn at random: iid silos
    Dirichlet,    ///< `silos` silos whose label mix follows a Dirichlet(α) draw per class
    ByAttribute,  ///< one silo per value of a categorical attribute, small values merged
};

/// Which attribute SiloMethod::ByAttribute splits on.
enum class SiloAttribute {
    FeatureColumn,  ///< a categorical feature column, by its raw name (e.g. "native-country")
    Label,          ///< the class: one class per silo (label-pure silos)
    Group,          ///< the sensitive group
};

/// How to split a data split's rows into silos. Training and test rows are dealt out alike, so
/// each silo has its own training and test rows in about the split's proportions.
struct SiloOptions {
    SiloMethod method = SiloMethod::EqualRandom;
    int silos = 25;  ///< EqualRandom, Dirichlet: number of silos N (1 … training rows)
    /// Dirichlet: concentration α > 0. Each class's rows are shared among the silos in
    /// proportions p ~ Dirichlet(α, …, α): α → ∞ gives every silo the same label mix (iid),
    /// small α (0.1) gives silos dominated by one class. +∞ is allowed: exactly equal shares.
    /// Silo sizes vary too: with few classes (binary labels), small α and many silos, some
    /// silos get very few rows (as in the usual per-class Dirichlet partition of federated
    /// benchmarks), and a minimum size may be out of reach.
    double dirichletAlpha = 1.0;
    /// Every silo gets at least this many training rows (≥ 1). EqualRandom: InputError when
    /// there are too few rows. Dirichlet: the proportions are drawn again (up to
    /// kDirichletAttempts times, then InputError). ByAttribute: values with fewer training rows
    /// are merged into one silo named `otherName` (which may itself stay smaller).
    long minTrainRowsPerSilo = 1;
    SiloAttribute attribute = SiloAttribute::FeatureColumn;  ///< ByAttribute: what to split on
    std::string column;               ///< ByAttribute with FeatureColumn: the raw column name
    std::string otherName = "other";  ///< ByAttribute: name of the merged silo
    std::uint64_t seed = 0;           ///< EqualRandom, Dirichlet: the silo seed
};

/// How often SiloMethod::Dirichlet draws the proportions before giving up on the minimum size.
inline constexpr int kDirichletAttempts = 1000;

/// Silo indexes of both parts of a split, with a description for reports.
struct SiloAssignment {
    UnitIndex train;          ///< silos of the training rows (ids 0 … N − 1)
    UnitIndex test;           ///< silos of the test rows (same ids; may list fewer silos)
    std::string description;  ///< e.g. "8 silos, label mix Dirichlet(α = 0.5) per class (…)"
    /// What a guarantee per record of a silo assumes about these silos (for the statement):
    /// how a record's silo is decided and what a neighbouring data set keeps.
    std::string neighbourAssumption;
};

/// Deals the rows of `split` out to silos as `options` say. A pure function of the split and
/// the options: the same on every platform (draws come from RandomStream with our own
/// formulas). Silo ids are 0 … N − 1 and mean the same silo in both parts; a silo may have no
/// test rows (then the test index does not list it; ByAttribute: "other" may also exist only
/// in the test part, for values never seen in training). Features, labels and groups are not
/// changed: a silo attribute stays a feature unless the caller drops it.
/// ByAttribute with a FeatureColumn reads the column's one-hot encoding: a row whose value
/// has no column of its own (a level never seen in training) goes to `otherName`.
/// Throws InputError for invalid options, an unknown or numeric column, or a size minimum
/// that cannot be met.
SiloAssignment makeSilos(const DataSplit& split, const SiloOptions& options);

/// Stores `silos` in split.train.silos / split.test.silos (and their description and
/// assumption).
/// Throws InputError when an index does not have one entry per row of its part.
void assignSilos(DataSplit& split, SiloAssignment silos);

}  // namespace pfa
