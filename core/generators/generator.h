#pragma once

// Data generators as declared data: each generator is one declaration (name, title, task, knobs,
// generate, schema, describe) in the registry (generator_list.h), and everything that lists or
// reads generator knobs — the command line, presets, sessions, the GUI's rows, the data-set key
// and the report's rerun command — is generated from the knobs.

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "core/config/parameters.h"
#include "core/data/builtin_datasets.h"

namespace pfa {

/// One knob of a data generator, declared once. `spec.name` is its only spelling: the
/// command-line option (--NAME), the preset and session key, the GUI row; `spec.keyName` is its
/// frozen name in data-set keys (which seed every run's noise, so they never change);
/// `spec.formerNames` are the spellings older presets and sessions used (read, never written).
/// `spec.get`/`spec.set` (for TrainConfig) are unused: a knob lives in the request.
struct GeneratorKnob {
    ParamSpec spec;
    /// The knob's value in `request` as canonical text.
    std::function<std::string(const DatasetRequest&)> get;
    /// Stores canonical text (already checked by parseParameter) in `request`.
    std::function<void(DatasetRequest&, const std::string&)> set;
    /// The value as the data-set key writes it (17 significant digits: the key's frozen form).
    std::function<std::string(const DatasetRequest&)> keyText;
    /// Whether the knob is written in the data-set key (and so in the rerun command); null:
    /// always. Knobs added after keys existed are written only when on, so that older keys stay.
    std::function<bool(const DatasetRequest&)> inKey;
    /// Non-empty: another knob of the generator that must be non-zero for this one to be given
    /// (the users' skew needs users).
    std::string needs;
};

/// What a generated data set is for.
enum class GeneratorTask {
    Classification,  ///< binary labels and a sensitive group
    Regression,      ///< real-valued targets
};

/// A generator of synthetic data, declared once (see the worked example in
/// docs/ARCHITECTURE.md). The registry (dataGenerators) lists one per generator_list.h line.
struct DataGenerator {
    std::string name;         ///< --dataset NAME and the data-set key's first word
    std::string title;        ///< what the GUI's chooser shows
    std::string description;  ///< one or two sentences for tooltips and --help
    GeneratorTask task = GeneratorTask::Classification;
    std::vector<GeneratorKnob> knobs;  ///< in the order of keys, help and forms
    /// Earlier presets held the knobs in an object of this name ("heavy_tailed"), under the
    /// knobs' former names; empty: none did.
    std::string formerPresetObject;
    /// Generates the data from the request's knobs; throws InputError naming a bad knob.
    std::function<TabularData(const DatasetRequest&)> generate;
    /// The data as a file would hold it (for saved models' preprocessing).
    std::function<Schema(const DatasetRequest&)> schema;
    /// One line describing the knobs, for reports.
    std::function<std::string(const DatasetRequest&)> describe;
    /// What the data-set card says about how the data are generated (a few sentences).
    std::string about;
    /// Optional: how the generator dealt its rows to silos ("generated, heterogeneity h =
    /// 0.5"), or "" when the request's data comes without silos; null: never in silos. Data
    /// that comes in silos is not split into silos again.
    std::function<std::string(const DatasetRequest&)> silosMade;
    /// Optional: what the knobs' values mean for the methods, shown under the GUI's rows (the
    /// heavy-tailed data's admissible tail index); null: nothing.
    std::function<std::string(const DatasetRequest&)> note;

    /// The knob called `name` (or once called so); nullptr when there is none.
    const GeneratorKnob* findKnob(const std::string& name) const;
};

/// The declaration in `declared` called `name` (or once called so: ParamSpec::formerNames);
/// nullptr when there is none.
const GeneratorKnob* findDeclared(const std::vector<GeneratorKnob>& declared,
                                  const std::string& name);

/// Every registered generator, in menu order.
const std::vector<DataGenerator>& dataGenerators();
/// The generator called `name`; nullptr when `name` is not a generator.
const DataGenerator* findGenerator(const std::string& name);
/// The generator owning knob `name` (by its current name); nullptr when none does.
const DataGenerator* generatorOfKnob(const std::string& name);

/// How the request's generator made its silos ("" when the data set is not a generator or its
/// data comes without silos): see DataGenerator::silosMade.
std::string generatedSilos(const DatasetRequest& request);

/// Checks `text` against knob `name` of the request's generator and stores it. Throws InputError
/// when the request's data set is not a generator, has no such knob, or the value is invalid.
void setKnob(DatasetRequest& request, const std::string& name, const std::string& text);
/// The same for a number.
void setKnob(DatasetRequest& request, const std::string& name, double value);
/// The value of knob `name` of the request's generator as canonical text.
std::string knobValue(const DatasetRequest& request, const std::string& name);
/// The knob that `knob` needs (GeneratorKnob::needs) when that one is zero in `request`, so
/// that `knob` does not apply; nullptr when it applies.
const GeneratorKnob* unmetNeed(const DatasetRequest& request, const GeneratorKnob& knob);
/// Checks the knobs' dependencies (GeneratorKnob::needs) of the given knob names: throws
/// InputError "NAME needs OTHER" when a given knob needs one that is zero.
void checkKnobNeeds(const DatasetRequest& request, const std::vector<std::string>& given);

/// The generator part of a data-set key, "(n=20000,d=20,…)", from the knobs' key names.
std::string generatorKeyKnobs(const DatasetRequest& request);

/// Declares a knob bound to `field` of the generator's options `Options` (stored in the request
/// by DatasetRequest::knobs<Options>()); the default comes from `Options{}`:
///
///     knob("heavy-rows", "Rows n", ParamKind::Integer, "rows of the data",
///          &HeavyTailedOptions::rows).atLeast(100).keyName("n")
template <class Options, class Field>
class KnobDeclaration {
public:
    KnobDeclaration(std::string name, std::string label, ParamKind kind, std::string help,
                    Field Options::*field)
        : m_field(field) {
        m_knob.spec.name = std::move(name);
        m_knob.spec.label = std::move(label);
        m_knob.spec.kind = kind;
        m_knob.spec.help = std::move(help);
        m_knob.spec.advanced = false;
        m_knob.spec.defaultValue = text(Options{}.*field);
    }
    KnobDeclaration& atLeast(double min, bool exclusive = false) {
        m_knob.spec.min = min;
        m_knob.spec.minExclusive = exclusive;
        return *this;
    }
    KnobDeclaration& above(double min) { return atLeast(min, true); }
    KnobDeclaration& atMost(double max, bool exclusive = false) {
        m_knob.spec.max = max;
        m_knob.spec.maxExclusive = exclusive;
        return *this;
    }
    KnobDeclaration& below(double max) { return atMost(max, true); }
    KnobDeclaration& unit(std::string text) {
        m_knob.spec.unit = std::move(text);
        return *this;
    }
    /// In the GUI's advanced rows.
    KnobDeclaration& advanced(bool on = true) {
        m_knob.spec.advanced = on;
        return *this;
    }
    /// Its frozen name in data-set keys.
    KnobDeclaration& keyName(std::string name) {
        m_knob.spec.keyName = std::move(name);
        return *this;
    }
    /// A spelling older presets or sessions used.
    KnobDeclaration& formerName(std::string name) {
        m_knob.spec.formerNames.push_back(std::move(name));
        return *this;
    }
    /// Written in the data-set key only when `when(options)` holds.
    KnobDeclaration& inKeyWhen(std::function<bool(const Options&)> when) {
        m_knob.inKey = [when](const DatasetRequest& r) { return when(r.knobs<Options>()); };
        return *this;
    }
    /// May be given only when knob `other` is non-zero.
    KnobDeclaration& needs(std::string other) {
        m_knob.needs = std::move(other);
        return *this;
    }

    operator GeneratorKnob() const {
        GeneratorKnob knob = m_knob;
        Field Options::*field = m_field;
        knob.get = [field](const DatasetRequest& r) { return text(r.knobs<Options>().*field); };
        knob.set = [field](DatasetRequest& r, const std::string& canonical) {
            r.knobs<Options>().*field = read(canonical);
        };
        knob.keyText = [field](const DatasetRequest& r) {
            std::ostringstream out;
            out.precision(17);
            out << r.knobs<Options>().*field;
            return out.str();
        };
        return knob;
    }

private:
    static std::string text(Field value) {
        if constexpr (std::is_floating_point_v<Field>)
            return realText(value);
        else
            return std::to_string(value);
    }
    static Field read(const std::string& canonical) {
        if constexpr (std::is_floating_point_v<Field>) {
            return canonical == "inf" ? std::numeric_limits<Field>::infinity()
                                      : static_cast<Field>(std::stod(canonical));
        } else if constexpr (std::is_signed_v<Field>) {
            return static_cast<Field>(std::stoll(canonical));
        } else {
            return static_cast<Field>(std::stoull(canonical));
        }
    }

    GeneratorKnob m_knob;
    Field Options::*m_field;
};

/// Starts the declaration of a generator knob (see KnobDeclaration).
template <class Options, class Field>
KnobDeclaration<Options, Field> knob(std::string name, std::string label, ParamKind kind,
                                     std::string help, Field Options::*field) {
    return KnobDeclaration<Options, Field>(std::move(name), std::move(label), kind, std::move(help),
                                           field);
}

/// The knobs most generators have, declared the same way everywhere: PREFIX-rows ("Rows",
/// key n, at least 100 rows), PREFIX-features ("Features", key d, at least `fewest`) and
/// PREFIX-seed ("Generator seed", key seed, in the advanced rows).
template <class Options, class Field>
KnobDeclaration<Options, Field> rowsKnob(const std::string& prefix, Field Options::*field) {
    return knob(prefix + "-rows", "Rows", ParamKind::Integer,
                "rows generated (training and test rows together)", field)
        .atLeast(100)
        .atMost(100'000'000)
        .keyName("n");
}
template <class Options, class Field>
KnobDeclaration<Options, Field> featuresKnob(const std::string& prefix, Field Options::*field,
                                             double fewest, double most) {
    return knob(prefix + "-features", "Features", ParamKind::Integer, "number of features d", field)
        .atLeast(fewest)
        .atMost(most)
        .keyName("d");
}
template <class Options, class Field>
KnobDeclaration<Options, Field> seedKnob(const std::string& prefix, Field Options::*field) {
    return knob(prefix + "-seed", "Generator seed", ParamKind::Integer,
                "seed of the generator (independent of the run seed)", field)
        .atLeast(0)
        .atMost(0x1p53)
        .keyName("seed")
        .advanced();
}

}  // namespace pfa
