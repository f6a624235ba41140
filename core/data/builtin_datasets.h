#pragma once

#include <any>
#include <map>
#include <optional>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "core/data/heavy_tailed.h"
#include "core/data/linear_gaussian.h"
#include "core/data/personalised.h"
#include "core/data/preprocessing.h"
#include "core/data/schema.h"
#include "core/data/silo_splitters.h"
#include "core/data/synthetic.h"
#include "core/data/tabular_data.h"
#include "core/data/teacher.h"

namespace pfa {

/// The knobs of the generators a request has set, one options struct per generator
/// (SyntheticOptions, HeavyTailedOptions, …), each created with its defaults on first use. A
/// generator's knobs (core/generators/) read and write its struct through knobs<Options>(), so
/// a new generator adds no member here.
class GeneratorOptions {
public:
    template <class Options>
    Options& get() {
        std::any& slot = m_options[std::type_index(typeid(Options))];
        if (!slot.has_value()) slot = Options{};
        return std::any_cast<Options&>(slot);
    }
    template <class Options>
    const Options& get() const {
        static const Options defaults{};
        const auto found = m_options.find(std::type_index(typeid(Options)));
        return found == m_options.end() ? defaults : std::any_cast<const Options&>(found->second);
    }

private:
    std::map<std::type_index, std::any> m_options;
};

/// Which data set to load and from where: a generator's synthetic data, a catalog data set, or
/// the user's own file.
struct DatasetRequest {
    std::string name = "synthetic";  ///< a generator's name (core/generators/generator_list.h),
                                     ///< a catalog name, or "file"
    std::string dataDirectory;       ///< folder holding the data files (adult: adult.data, .test)
    std::string sensitive;           ///< catalog data sets: sensitive choice id ("" = default)
    GeneratorOptions generatorOptions;  ///< the generators' knobs (see knobs<Options>())
    SplitOptions split;                 ///< train/test split (75/25, split seed 0 by default)
    std::string filePath;               ///< name == "file": a CSV/TSV/ARFF file
    Schema schema;                      ///< name == "file": how to read it
    /// Rows dealt out to silos after the train/test split (makeSilos), for algorithms whose
    /// unit of privacy is an institution; none by default. Any data set can be split so,
    /// except data that already comes in silos (the synthetic generator's `silos` knob).
    std::optional<SiloOptions> silos;

    /// The knobs of the generator whose options are `Options` (defaults until set).
    template <class Options>
    Options& knobs() {
        return generatorOptions.get<Options>();
    }
    template <class Options>
    const Options& knobs() const {
        return generatorOptions.get<Options>();
    }
};

/// Splits and encodes `data` as `request.split` says (splitAndEncode), then, when
/// `request.silos` is set, deals its rows out to silos (makeSilos, assignSilos). The one place
/// where a request's rows are split. The raw feature values are released as they are encoded
/// (splitAndEncodeReleasing): afterwards `data` keeps its columns' names, kinds and levels, not
/// their values. Throws InputError for invalid silo options, silo options on data that already
/// has silos, or anything splitAndEncode and makeSilos refuse.
DataSplit splitDatasetRequest(TabularData& data, const DatasetRequest& request);
inline DataSplit splitDatasetRequest(TabularData&& data, const DatasetRequest& request) {
    return splitDatasetRequest(data, request);
}

/// The command-line and JSON names of the silo methods: "equal", "dirichlet", "attribute".
std::string siloMethodName(SiloMethod method);
/// Parses a silo method name (also "equal-random" and "by-attribute"); throws InputError
/// naming the known ones.
SiloMethod parseSiloMethod(const std::string& name);
/// What SiloMethod::ByAttribute splits on, by name: "label" (the class), "group" (the
/// sensitive group), or a categorical feature column's raw name.
void setSiloColumn(SiloOptions& options, const std::string& column);
/// The name setSiloColumn reads ("label", "group" or the column).
std::string siloColumnName(const SiloOptions& options);
/// Throws InputError, in the words of the command line and presets, when `options` cannot
/// describe any silos (N < 1, α ≤ 0 or NaN, a minimum below 1, no column to split by); what
/// depends on the data (enough rows, a known column) is checked by makeSilos.
void validateSiloOptions(const SiloOptions& options);
/// One line describing silo options before the data is split, e.g. "8 silos with a
/// Dirichlet(α = 0.5) label mix (silo seed 0)".
std::string describeSiloOptions(const SiloOptions& options);

}  // namespace pfa
