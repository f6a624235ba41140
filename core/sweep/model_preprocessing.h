#pragma once

#include <string>
#include <vector>

#include "core/data/builtin_datasets.h"
#include "core/data/dataset.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"
#include "core/util/json_value.h"
#include "core/util/json_writer.h"

namespace pfa {

/// One raw feature column as the encoder turned it into model inputs.
struct EncodedColumn {
    std::string name;
    FeatureKind kind = FeatureKind::Numeric;
    double mean = 0.0;                ///< numeric: training-row mean
    double standardDeviation = 0.0;   ///< numeric: training-row sd (0: centred, not scaled)
    std::vector<std::string> levels;  ///< categorical: the one-hot levels, in column order
};

/// Everything that turns raw rows of a data file into the inputs of a trained model: how rows
/// are read (the schema), the encoding fitted on the training rows, and the names of the
/// features, classes and groups. Stored with every run record so that the model can be
/// applied to new rows (see saved_model.h).
struct ModelPreprocessing {
    Schema schema;                          ///< how raw rows are read (target, sensitive, ...)
    std::vector<EncodedColumn> columns;     ///< the feature columns, in encoding order
    std::vector<std::string> featureNames;  ///< the encoded features (d), in order
    std::vector<std::string> classNames;    ///< l class names; class 1 is "positive" if binary
    std::vector<std::string> groupNames;    ///< k group names
    std::string sensitiveDescription;       ///< which column(s) define the groups

    /// Number of encoded features d (numeric columns plus kept one-hot levels).
    long encodedWidth() const;
};

/// The schema with which the data of `request` is read: the user's schema for a file, the
/// catalog's (with the sensitive choice applied) for a catalog data set, syntheticSchema()
/// for the synthetic data.
Schema requestSchema(const DatasetRequest& request);

/// The preprocessing of a split: `data` (what was split) gives the column order, `split` the
/// fitted statistics and names.
ModelPreprocessing makeModelPreprocessing(const Schema& schema, const TabularData& data,
                                          const DataSplit& split);

/// Writes the JSON object form: keys schema, columns (each {name, kind: "numeric", mean, sd}
/// or {name, kind: "categorical", levels}), feature_names, class_names, group_names,
/// sensitive. Numbers are written exactly (17 significant digits).
void writePreprocessingJson(JsonWriter& json, const ModelPreprocessing& preprocessing);

/// Reads the JSON object form back; throws InputError naming a missing or malformed key.
ModelPreprocessing preprocessingFromJson(const JsonValue& json);

}  // namespace pfa
