#pragma once

#include <string>
#include <string_view>

#include "core/data/csv_reader.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Reads a Weka ARFF file (dense format) as described by `schema`.
///
/// The header defines the columns: `@relation`, then one `@attribute name type` per column,
/// then `@data`. Types: numeric, real and integer are numeric features; a nominal list
/// `{a, b, 'c d'}` is a categorical feature whose levels are the DECLARED values in header
/// order (FeatureColumn::levelsDeclared), and every value must be one of them; string is a
/// categorical feature with the levels found in the data. Date and relational attributes, and
/// sparse rows (`{0 x, 3 y}`), raise "... not supported" errors. Keywords are case-insensitive;
/// names and values may be single- or double-quoted (backslash escapes as in Weka); `%` starts
/// a comment running to the end of the line; an unquoted `?` is a missing value. Data values
/// are comma-separated, one row per line.
///
/// Of `schema`, the file-layout fields (delimiter, hasHeader, columnNames, commentPrefix,
/// trimWhitespace) are ignored; everything else (target, thresholds, sensitive columns and
/// labels, user id, row filters, missing-value token and policy, name) applies as for CSV.
/// Schema::columns may override a column's role; a Categorical override without levels keeps
/// the nominal levels. Errors name file, physical line and column (DataFileError), like the
/// CSV reader's; an invalid schema or an input too large for memory raise InputError.
TabularData readArffFile(const std::string& path, const Schema& schema,
                         const ReadOptions& options = {});

/// Parses in-memory ARFF text as if it were a file called `sourceName` (used in error
/// messages and as the default data set name).
TabularData readArffText(std::string_view text, std::string sourceName, const Schema& schema,
                         const ReadOptions& options = {});

}  // namespace pfa
