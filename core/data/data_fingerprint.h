#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/data/builtin_datasets.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// The content fingerprint of a set of rows given one 64-bit key per row: SHA-256 over the
/// keys sorted (so the order of the rows does not matter) and their count, as 32 lower-case
/// hex digits. Equal multisets of keys give equal fingerprints.
std::string fingerprintOfRowKeys(std::vector<std::uint64_t> rowKeys);

/// The fingerprint of the rows of `data` from their own values (rowContentKey): for data made
/// in memory (the generators), where the rows are what the generator made.
std::string tableFingerprint(const TabularData& data);

/// The fingerprint of the records of data files: each record (row) of every file keyed by its
/// raw text fields in file order (after the trimming `schema` asks for; a header line is not a
/// row), whatever columns the schema then uses as target, sensitive attribute or features. So
/// a renamed or row-shuffled copy of a file has the same fingerprint, and so has the same file
/// read with another target or sensitive attribute. ARFF files are recognised by content.
/// Throws DataFileError when a file cannot be read.
std::string fileRowsFingerprint(const std::vector<std::string>& paths, const Schema& schema);

/// The fingerprint of the rows behind `request` (loaded as `data`): of the data files for a
/// catalog data set or an own file (fileRowsFingerprint), of the generated rows otherwise
/// (tableFingerprint); a file that cannot be read again falls back to the rows of `data`.
/// The privacy ledger is kept per fingerprint: a property of the rows, not of a file name.
/// It is an exact function of the private rows, so it is kept beside the data (the per-user
/// ledger folder) and never written into results files, sessions or exports.
std::string datasetFingerprint(const DatasetRequest& request, const TabularData& data);

}  // namespace pfa
