#pragma once

#include <memory>
#include <string>

#include "core/data/builtin_datasets.h"
#include "core/data/dataset.h"
#include "core/sweep/run_record.h"

namespace pfa {

/// A data set loaded, split and encoded, ready for any number of runs (read-only, so runs on
/// several threads — and the GUI — may share it).
struct PreparedDataset {
    std::string key;  ///< identity of the request (see datasetKey)
    DatasetRequest request;
    DataSplit split;
    RunContext context;  ///< description and sizes stored with every result line
    /// Rows of the file skipped for a wrong number of fields (Schema::skipMalformedRows), as
    /// TabularData::skippedBadRows and skippedBadRowList describe them.
    std::size_t skippedBadRows = 0;
    std::vector<BadRow> skippedBadRowList;
};
using PreparedDatasetPtr = std::shared_ptr<const PreparedDataset>;

/// A stable identity for a data-set request: its name, sensitive choice, split (seed, test
/// fraction, and the method when it is not the default seeded one) and (for the synthetic
/// data) every knob — not the folder it was read from, so results stay comparable across
/// machines.
std::string datasetKey(const DatasetRequest& request);

/// The privacy ledger a data set's runs are charged to: the data set's identity without its
/// split and without the choice of sensitive attribute, because the same people's rows are in
/// the training rows of every split and every sensitive choice (a coarser key only adds runs
/// to a ledger, never hides them). Works on datasetKey() strings, so that records of older
/// results files without a ledger key can be placed too.
std::string ledgerKeyFromDatasetKey(const std::string& datasetKey);
std::string ledgerKey(const DatasetRequest& request);
/// A ledger key for display: numbers written exactly in the key are shortened
/// ("minority=0.34999999999999998" → "minority=0.35").
std::string ledgerTitle(const std::string& ledgerKey);

/// Loads, splits and encodes the data set of `request`. Throws InputError / DataFileError.
PreparedDatasetPtr prepareDataset(const DatasetRequest& request);

}  // namespace pfa
