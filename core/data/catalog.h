#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/data/csv_reader.h"
#include "core/data/dataset_file.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"
#include "core/util/json_value.h"

namespace pfa {

/// One way to choose the sensitive attribute of a catalog data set.
struct SensitiveChoice {
    std::string id;                                  ///< "sex", "race", "age"
    std::string title;                               ///< "race (Caucasian / non-Caucasian)"
    std::vector<std::string> columns;                ///< the sensitive column(s)
    std::map<std::string, std::string> valueLabels;  ///< raw value → group name (merges groups)
    bool hasThreshold = false;                       ///< numeric column split at `threshold`
    double threshold = 0.0;
    std::vector<std::string> thresholdLabels;  ///< {below, at or above}
    long expectedFeatures = 0;  ///< encoded features with this choice (documented, tested)
    std::map<std::string, long> expectedGroups;  ///< group sizes over all rows
};

/// A data set of the built-in catalog (datasets/NAME.json): what it is, where it comes from,
/// how to verify its files and how to parse them.
struct CatalogEntry {
    std::string name;  ///< "adult"
    std::string title;
    std::string description;           ///< one paragraph
    std::vector<std::string> sources;  ///< original source pages
    std::string license;
    std::string citation;
    std::string preprocessing;  ///< the recipe, in words
    std::vector<DatasetFile> files;
    std::vector<SensitiveChoice> sensitiveChoices;  ///< the first one is the default
    long expectedRows = 0;
    /// What one row is, for privacy statements: "record" unless the description says e.g.
    /// "recording" (many rows per person).
    std::string unit = "record";

    /// The sensitive choice `id` ("" = the default); throws InputError listing the choices.
    const SensitiveChoice& sensitiveChoice(const std::string& id) const;
    /// The parsing schema with the given sensitive choice applied. `sensitiveId` may name
    /// several choices joined by "+" ("sex+race"): their columns together form intersectional
    /// groups ("Female & non-White"), each column keeping its own value labels. A choice that
    /// splits a numeric column at a threshold cannot be combined (InputError).
    Schema schemaFor(const std::string& sensitiveId = "") const;
    /// The choices a sensitive id names ("sex+race": two; "" the default), in the id's order.
    /// Throws InputError for an unknown or repeated choice.
    std::vector<const SensitiveChoice*> sensitiveChoicesOf(const std::string& sensitiveId) const;
    /// Title of a sensitive id: the choice's title, or the titles joined by " × ".
    std::string sensitiveTitle(const std::string& sensitiveId) const;
    /// Reads the files from `directory` (names as in `files`). Throws DataFileError for a
    /// missing or malformed file; checksums are not verified here (see verifyCatalogFiles).
    TabularData load(const std::string& directory, const std::string& sensitiveId = "",
                     const ReadOptions& options = {}) const;

    JsonValue schemaJson;  ///< the "schema" object of the description file
};

/// Every catalog data set, in name order (parsed once from the embedded description files).
const std::vector<CatalogEntry>& datasetCatalog();
/// The catalog entry `name`; throws InputError listing the known names.
const CatalogEntry& findCatalogEntry(const std::string& name);
/// Parses one description file (exposed for tests); throws InputError naming the problem.
CatalogEntry parseCatalogEntry(const std::string& fileName, const std::string& json);
/// Builds a Schema from its JSON form (the "schema" object of a description file, also used
/// for a user's own files saved with a session).
Schema schemaFromJson(const JsonValue& json);
/// The JSON form of a schema (inverse of schemaFromJson).
std::string schemaToJson(const Schema& schema);

}  // namespace pfa
