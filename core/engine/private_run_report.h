#pragma once

#include "core/config/run_result.h"
#include "core/data/dataset.h"
#include "core/engine/gaussian_mechanism.h"
#include "core/privacy/run_accountant.h"

namespace pfa {

/// Fills what every private run states, whatever its mechanism: the certified ε after the
/// steps executed and the exact accounting inputs it came from (`accountant`), δ, the noise
/// source and seed, whether diagnostics were recorded, the unit of privacy and — when persons
/// contribute several rows (user ids) — the group-privacy ε per person, plus warnings for a
/// grid-edge order and an early stop. The caller sets algorithm, calibration, mechanism,
/// noise levels and clip description, then renders the statement.
void describePrivateRun(RunResult& result, const privacy::RunAccountant& accountant,
                        const Dataset& train);

/// Adds what every private run's record holds from the private rows without protection: the
/// training-set diagnostics when recorded, the number of training units under add/remove, and
/// the settings whose automatic value was read from the data (isDisclosed). Called by
/// describePrivateRun; runs that describe themselves otherwise call it directly.
void discloseStandardItems(privacy::PrivacyReport& report, const TrainConfig& config,
                           const Dataset& train);

/// Whether `setting` (read from the data by prepareRun) is private under `adjacency`: values
/// always, counts of units only under add/remove (under replace-one they are public).
bool isDisclosed(const DataDerivedSetting& setting, privacy::Adjacency adjacency);

/// The neighbouring data sets of a per-record guarantee on data in silos: "one record of one
/// silo replaced", plus what the silos' construction assumes (Dataset::siloAssumption).
std::string siloNeighbouring(const Dataset& train);

/// The record field of a setting: "delta" (top level) or "settings.batch-size".
std::string settingField(const std::string& name);

/// The noise a run's step mechanism draws, as the statement shows it: the effective multiplier
/// of the joint release, each stream's multiplier (0 for a stream with no bound or no W-stream)
/// and the std each stream adds to the batch mean.
void describeNoise(privacy::PrivacyReport& report, const GaussianMechanism& noise);

/// "every column of each training record (features, label and the sensitive attribute 'x')".
std::string wholeRecordProtection(const Dataset& train);

/// Persons among the rows of `train` (distinct user ids; 0 without user ids) and the largest
/// number of rows one person has.
struct PersonCounts {
    long persons = 0;
    long maxRows = 0;
};
PersonCounts countPersons(const Dataset& train);

}  // namespace pfa
