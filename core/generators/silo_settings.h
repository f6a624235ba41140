#pragma once

// The silo split's settings, declared once like the train/test split's: the command line
// (--silos, --silo-split, --silo-alpha, --silo-column, --silo-min-rows, --silo-seed), presets,
// sessions and the GUI's rows are generated from these declarations, and one function applies
// what a person or a file gave, with the rules between the settings.

#include <map>
#include <string>
#include <vector>

#include "core/generators/generator.h"

namespace pfa {

/// One setting of the silo split. `knob.get`/`knob.set` read and write DatasetRequest::silos
/// (get: the default when the request has no silos; set: starts from SiloOptions{} when it has
/// none). `knob.spec.formerNames` are the keys of presets' "silos" objects ("count", "method",
/// …) and of earlier sessions ("silo_alpha").
struct SiloSetting {
    GeneratorKnob knob;
    /// The silo methods (values of silo-split) the setting has an effect with; empty: every
    /// method. Giving it with another method is an error; the GUI hides its row.
    std::vector<SiloMethod> methods;
    /// Must be given with its methods unless earlier silos (a preset's) already hold a value:
    /// it has no default on the command line (the number of silos, the column).
    bool required = false;
    /// The command line's placeholder for its value ("--silos N").
    std::string metavar;

    const std::string& name() const { return knob.spec.name; }
    /// Whether the setting has an effect with `method`.
    bool goesWith(SiloMethod method) const;
    /// Its methods for messages and help: "equal or dirichlet" ("" for every method).
    std::string methodNames() const;
};

/// The silo split's settings in the order of help and forms: silos, silo-split, silo-alpha,
/// silo-column, silo-min-rows, silo-seed.
const std::vector<SiloSetting>& siloSettings();

/// The silo setting called `key` (its name or a former name); nullptr when there is none.
const SiloSetting* findSiloSetting(const std::string& key);

/// Applies the silo settings `given` (declared name → text as typed) on top of request.silos
/// (none: no silo split asked for so far) and checks them: each value against its
/// declaration, a setting given with a method it does not go with, a required one missing
/// ("silo-split dirichlet needs silos N"), anything but silos and silo-split without a silo
/// split, then validateSiloOptions. Nothing given leaves the request as it is. Messages name a
/// setting as `prefix` + name ("--silo-alpha" on the command line). Throws InputError; the
/// request is unchanged then.
void applySiloSettings(DatasetRequest& request, const std::map<std::string, std::string>& given,
                       const std::string& prefix);

}  // namespace pfa
