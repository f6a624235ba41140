#pragma once

// The train/test split's settings, declared once like a generator's knobs: the command line
// (--split-method, --split-seed, --test-fraction), presets, sessions and the GUI's rows are
// generated from these declarations.

#include <string>
#include <vector>

#include "core/generators/generator.h"

namespace pfa {

/// The split's settings (method, seed, test share), in the order of help and forms. Their
/// get/set read and write DatasetRequest::split. Former names: what sessions of earlier
/// versions wrote ("split_seed"); presets' "split" objects name them without the "split-"
/// prefix ("seed", "method", "test_fraction": findSplitSetting reads those too).
const std::vector<GeneratorKnob>& splitSettings();

/// The split setting called `key` (its name, a former name, or a preset "split" object's key:
/// the name without "split-", '_' for '-'); nullptr when there is none.
const GeneratorKnob* findSplitSetting(const std::string& key);

/// Checks `text` against split setting `name` and stores it in `request`. Throws InputError
/// "NAME = TEXT is invalid: RULE" for a bad value and for an unknown name.
void setSplitSetting(DatasetRequest& request, const std::string& name, const std::string& text);

}  // namespace pfa
