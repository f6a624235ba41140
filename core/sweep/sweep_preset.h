#pragma once

#include <string>
#include <vector>

#include "core/data/builtin_datasets.h"
#include "core/sweep/sweep_spec.h"

namespace pfa {

/// A ready-made sweep (resources/presets/NAME.json) that reproduces a published experiment,
/// with a record of where its settings come from.
struct SweepPreset {
    std::string name;
    std::string title;
    std::string source;      ///< provenance of every setting
    DatasetRequest dataset;  ///< name, sensitive choice, split (folder chosen at run time)
    /// The data sets of the preset's data axes ("data_axes": a knob of a generator swept, e.g.
    /// the tail index or the rows), every combination; empty when it has none: `dataset` only.
    std::vector<DatasetRequest> dataVariants;
    std::vector<std::string> dataAxes;  ///< the knobs swept ("heavy_tailed.feature_tail")
    SweepSpec spec;  ///< datasets is left empty: the caller fills in the data-set keys

    /// The data sets the preset runs on: its variants, or its one data set.
    std::vector<DatasetRequest> datasets() const {
        return dataVariants.empty() ? std::vector<DatasetRequest>{dataset} : dataVariants;
    }
};

/// Every built-in preset, in name order, the as-published calibrations last.
const std::vector<SweepPreset>& sweepPresets();
/// The preset `name` (also by a former name: adult-dp is adult-dp-as-published); throws
/// InputError listing the known names.
const SweepPreset& findSweepPreset(const std::string& name);
/// The current name of a preset called `name` before (adult-dp → adult-dp-as-published);
/// `name` itself otherwise.
std::string currentPresetName(const std::string& name);
/// Parses a preset description (exposed for tests and user presets).
SweepPreset parseSweepPreset(const std::string& fileName, const std::string& json);
/// A sweep as a preset description, the inverse of parseSweepPreset: every data set in full
/// (an own file's path and reading schema, every generator knob, the split, the silos; not
/// the folder), the axes and the settings that differ from the defaults. What the
/// application's "Run on a cluster…" hands to `pfa-cli train --preset FILE.json`.
std::string sweepPresetJson(const SweepPreset& preset);
/// Reads a preset description from a file (`pfa-cli train --preset FILE.json`); throws
/// InputError naming the file and what is wrong.
SweepPreset readSweepPresetFile(const std::string& path);

}  // namespace pfa
