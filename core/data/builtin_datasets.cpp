#include "core/data/builtin_datasets.h"

#include <cmath>
#include <filesystem>

#include "core/data/arff_reader.h"
#include "core/data/catalog.h"
#include "core/data/csv_reader.h"
#include "core/data/data_directory.h"
#include "core/data/file_preview.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

DataSplit splitDatasetRequest(TabularData& data, const DatasetRequest& request) {
    if (request.silos) validateSiloOptions(*request.silos);
    DataSplit split = splitAndEncodeReleasing(data, request.split);
    if (request.silos) {
        if (split.train.silos) {
            // Two silo assignments of the same rows would contradict each other.
            throw InputError("the data already comes in silos (" + split.train.siloDescription +
                             "): choose the generator's silos or a silo split, not both");
        }
        assignSilos(split, makeSilos(split, *request.silos));
    }
    return split;
}

std::string siloMethodName(SiloMethod method) {
    switch (method) {
        case SiloMethod::EqualRandom:
            return "equal";
        case SiloMethod::Dirichlet:
            return "dirichlet";
        case SiloMethod::ByAttribute:
            return "attribute";
    }
    return "equal";
}

SiloMethod parseSiloMethod(const std::string& name) {
    if (name == "equal" || name == "equal-random") return SiloMethod::EqualRandom;
    if (name == "dirichlet") return SiloMethod::Dirichlet;
    if (name == "attribute" || name == "by-attribute") return SiloMethod::ByAttribute;
    throw InputError("unknown silo split '" + name + "': choose equal, dirichlet or attribute");
}

void setSiloColumn(SiloOptions& options, const std::string& column) {
    if (column == "label") {
        options.attribute = SiloAttribute::Label;
        options.column.clear();
    } else if (column == "group") {
        options.attribute = SiloAttribute::Group;
        options.column.clear();
    } else {
        options.attribute = SiloAttribute::FeatureColumn;
        options.column = column;
    }
}

std::string siloColumnName(const SiloOptions& options) {
    switch (options.attribute) {
        case SiloAttribute::Label:
            return "label";
        case SiloAttribute::Group:
            return "group";
        case SiloAttribute::FeatureColumn:
            break;
    }
    return options.column;
}

void validateSiloOptions(const SiloOptions& options) {
    if (options.method != SiloMethod::ByAttribute && options.silos < 1) {
        throw InputError("number of silos " + std::to_string(options.silos) +
                         " is invalid: it must be at least 1");
    }
    if (options.method == SiloMethod::Dirichlet && !(options.dirichletAlpha > 0.0)) {
        throw InputError("Dirichlet alpha = " + formatNumber(options.dirichletAlpha, 6) +
                         " is invalid: it must be above 0 (small: silos dominated by one class; "
                         "large: alike)");
    }
    if (options.minTrainRowsPerSilo < 1) {
        throw InputError("minimum training rows per silo " +
                         std::to_string(options.minTrainRowsPerSilo) +
                         " is invalid: it must be at least 1");
    }
    if (options.method == SiloMethod::ByAttribute &&
        options.attribute == SiloAttribute::FeatureColumn && options.column.empty()) {
        throw InputError(
            "a silo split by attribute needs a column (a categorical column's name, "
            "'label' or 'group')");
    }
}

std::string describeSiloOptions(const SiloOptions& options) {
    const std::string seed = " (silo seed " + std::to_string(options.seed) + ")";
    const std::string minimum =
        options.minTrainRowsPerSilo > 1
            ? ", at least " + std::to_string(options.minTrainRowsPerSilo) + " training rows each"
            : std::string();
    switch (options.method) {
        case SiloMethod::EqualRandom:
            return std::to_string(options.silos) + " silos of equal size, rows drawn at random" +
                   seed;
        case SiloMethod::Dirichlet:
            return std::to_string(options.silos) + " silos with a Dirichlet(α = " +
                   (std::isinf(options.dirichletAlpha) ? std::string("∞")
                                                       : formatNumber(options.dirichletAlpha, 6)) +
                   ") label mix" + minimum + seed;
        case SiloMethod::ByAttribute: {
            const std::string by =
                options.attribute == SiloAttribute::Label   ? std::string("the label")
                : options.attribute == SiloAttribute::Group ? std::string("the sensitive group")
                                                            : "column '" + options.column + "'";
            return "one silo per value of " + by +
                   (options.minTrainRowsPerSilo > 1
                        ? " (values with fewer than " +
                              std::to_string(options.minTrainRowsPerSilo) + " training rows merged)"
                        : std::string());
        }
    }
    return {};
}

}  // namespace pfa
