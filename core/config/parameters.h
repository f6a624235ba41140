#pragma once

#include <algorithm>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "core/config/train_config.h"

namespace pfa {

/// What kind of value a parameter holds.
enum class ParamKind {
    Real,     ///< a real number (text: shortest exact decimal, "inf")
    Integer,  ///< a whole number (text: decimal digits)
    Choice,   ///< one of a fixed set of words
    Flag,     ///< on or off (text: "true" / "false")
    Text,     ///< free text, trimmed (a column's name); never a sweep axis
};

/// One value of a Choice parameter.
struct ParamChoice {
    std::string value;  ///< what files and the command line say ("poisson")
    std::string label;  ///< what the GUI shows ("Poisson sampling")
    std::string help;   ///< one line for tooltips and --help
};

/// When a parameter has an effect: the GUI form disables it otherwise, --help says so.
enum ParamApplies : unsigned {
    AppliesAlways = 0,
    AppliesPrivate = 1u << 0,       ///< only for private runs (finite ε)
    AppliesConservative = 1u << 1,  ///< only under the conservative calibration
    AppliesPublished = 1u << 2,     ///< only under the published calibration
    AppliesFairness = 1u << 3,      ///< only with the fairness term (λ > 0)
};

/// What of the training data a parameter's automatic value reads.
enum class AutoReads {
    Nothing,    ///< settings and the schema only (public)
    UnitCount,  ///< how many training units there are (public under replace-one only)
    Content,    ///< the units' values (never public)
};

/// Where a parameter sits in a sweep.
enum class ParamRole {
    Setting,     ///< one value per sweep (may become an extra sweep axis when sweepable)
    Coordinate,  ///< a sweep's own grid dimension: fairness, ε, λ, seed (lists in a sweep)
};

/// One parameter, declared once. Its name is its only spelling: command-line option
/// (--NAME), sweep axis, preset and session key, record key (in the record's "settings"),
/// GUI form field. Everything that lists parameters is generated from these declarations.
struct ParamSpec {
    std::string name;   ///< "min-group-share"
    std::string label;  ///< GUI label ("Min group share ρ")
    ParamKind kind = ParamKind::Real;
    std::string help;  ///< one line for tooltips and --help
    std::string unit;  ///< shown after values ("epochs"); may be empty
    /// The unit is the algorithm's progress unit, plural (AlgorithmCapabilities::progressUnit:
    /// "rounds" for a silo algorithm); `unit` is the epoch algorithms' word.
    bool unitIsProgress = false;
    /// Allowed range of Real and Integer values (the automatic value is allowed besides).
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;
    bool maxExclusive = false;
    std::vector<ParamChoice> choices;  ///< Choice: the allowed values, in menu order
    bool allowEmpty = false;           ///< Text: whether "" is a value
    /// Non-empty: the parameter has an automatic value, stored as `autoValue` ("0" or "auto"),
    /// written "auto" by users, and this says what it resolves to ("1/n², n = training rows").
    std::string autoMeaning;
    std::string autoValue;
    /// Whether typing the number `autoValue` also means automatic (batch size 0 = auto); when
    /// false only the word "auto" does (δ = 0 would read as "no δ").
    bool autoByNumber = true;
    /// What of the training data the automatic value reads. A run whose automatic value read
    /// private information states it as not protected (prepareRun lists it in
    /// TrainConfig::readFromData; the statement names it).
    AutoReads autoReads = AutoReads::Nothing;
    std::string defaultValue;  ///< canonical text of the default
    /// Non-empty: the example value (exampleValue) when the generic choice is not one a run
    /// accepts (δ = 0.5 is in range for records, but runs refuse δ ≥ 0.1).
    std::string example;
    ParamRole role = ParamRole::Setting;
    bool sweepable = false;            ///< may be an extra sweep axis (numbers only)
    bool advanced = true;              ///< in the GUI's advanced section
    unsigned applies = AppliesAlways;  ///< ParamApplies bits
    /// The name this parameter has in run keys. Run keys seed every run's noise streams, so
    /// the names of parameters that existed before the declarations are frozen: renaming one
    /// would change every earlier run. Empty: `name`.
    std::string keyName;
    /// Earlier spellings, read (never written) from older records, presets and sessions.
    std::vector<std::string> formerNames;
    /// What a record without this parameter ran (records written before it existed);
    /// empty: `defaultValue`.
    std::string formerDefault;
    /// The frozen run-key spelling of a value, for values whose key text predates the
    /// declarations (adjacency "add/remove-one"); null: the canonical text (numbers exact).
    std::function<std::string(const std::string&)> keyValue;
    /// Left out of run keys at its default: a parameter added after run keys existed, so that
    /// earlier runs keep their keys (and their noise streams). An algorithm's own setting so
    /// marked is also listed, with its default, in parameters.cpp (ownSettingsKeyedWhenChanged:
    /// keys are made without the declarations); declaring it otherwise stops the program.
    bool keyedWhenChanged = false;

    /// Reads the value from a configuration as canonical text.
    std::function<std::string(const TrainConfig&)> get;
    /// Stores canonical text (already checked by parseParameter) in a configuration.
    std::function<void(TrainConfig&, const std::string&)> set;

    bool hasAuto() const { return !autoMeaning.empty(); }
    /// Whether `key` is its name or one of its former names.
    bool answersTo(const std::string& key) const {
        return key == name ||
               std::find(formerNames.begin(), formerNames.end(), key) != formerNames.end();
    }
    const std::string& runKeyName() const { return keyName.empty() ? name : keyName; }
    /// Whether the value is the automatic one.
    bool isAuto(const std::string& text) const { return hasAuto() && text == autoValue; }
};

/// Every setting of TrainConfig, in run-key order (the algorithm name is not a parameter: it
/// chooses which parameters apply).
const std::vector<ParamSpec>& commonParameters();

/// The common parameter called `name` (or once called so); nullptr when there is none.
const ParamSpec* findCommonParameter(const std::string& name);

/// The common parameters named in `names`, in that order (throws std::logic_error for an
/// unknown name: a programming error in an algorithm's declaration).
std::vector<ParamSpec> commonParameters(const std::vector<std::string>& names);

/// An algorithm's whole list: the common parameters named in `names`, then its `own`
/// declarations in order.
std::vector<ParamSpec> commonParameters(const std::vector<std::string>& names,
                                        std::vector<ParamSpec> own);

/// Checks `text` (what a user, a preset or a file gave) against `spec` and returns its
/// canonical text: numbers in range (or "auto"), whole numbers for Integer, a listed value
/// for Choice, true/false/on/off/yes/no/1/0 for Flag, the trimmed text for Text (non-empty
/// unless ParamSpec::allowEmpty). Throws InputError
/// "NAME = TEXT is invalid: RULE" otherwise.
std::string parseParameter(const ParamSpec& spec, const std::string& text);
/// The same for a number (a sweep axis value).
std::string parseParameter(const ParamSpec& spec, double value);

/// parseParameter, then stores the value in `config`.
void setParameter(TrainConfig& config, const ParamSpec& spec, const std::string& text);

/// A valid value other than the default, exactly representable in files (documentation and
/// the conformance tests): the other state of a flag, another choice, a dyadic number in range.
std::string exampleValue(const ParamSpec& spec);

/// The canonical text of `value` for a Real parameter (shortest exact decimal).
std::string realText(double value);
/// A value as a run key writes it, for people: a number in its shortest exact form
/// ("0.050000000000000003" → "0.05"), other text as it is.
std::string shortValueText(const std::string& text);

/// The one-line rule of `spec` for messages and --help ("in (0, 1)", "poisson | shuffle").
std::string parameterRule(const ParamSpec& spec);

/// `value` of `spec` with its unit after it ("200 epochs"), for help texts; without one when the
/// unit is each algorithm's own (ParamSpec::unitIsProgress: the help names them).
std::string valueWithUnit(const ParamSpec& spec, const std::string& value);

/// Checks every value of `config` that `specs` declare (range, kind, choice); the
/// data-independent half of validation. Throws InputError naming the parameter.
void validateParameters(const TrainConfig& config, const std::vector<ParamSpec>& specs);

/// Every setting of `config` as "name=value;…" (run-key names, numbers written exactly):
/// equal strings ⇔ equal settings. The base of run keys and of the runs' noise-stream
/// derivation, so its spelling never changes for an existing parameter.
std::string settingsKey(const TrainConfig& config);

/// Whether a run record writes parameter `name` at its top level (with the results they index:
/// fairness, epsilon, delta, lambda, seed, epochs) rather than in its "settings".
bool isTopLevelRecordParameter(const std::string& name);

/// An algorithm's own parameter (not a field of TrainConfig): its value lives in
/// TrainConfig::extra under `spec.name`; `get`/`set` are filled in.
ParamSpec ownParameter(ParamSpec spec);

/// The one way an algorithm declares a setting of its own, in one expression:
///
///     declare("ridge", "Ridge µ", ParamKind::Real, "strength of the (µ/2)‖w‖² term")
///         .defaultValue("0").atLeast(0.0).sweepable()
///
/// Shown in the GUI's main section unless `.advanced()`. It converts to the finished ParamSpec
/// through ownParameter (stored in TrainConfig::extra under its name); fields with no setter
/// here (the automatic value, former names, …) are set on `spec()` before the conversion.
class ParamDeclaration {
public:
    ParamDeclaration(std::string name, std::string label, ParamKind kind, std::string help);

    ParamDeclaration& defaultValue(std::string text);
    ParamDeclaration& unit(std::string text);
    /// Values ≥ min (> min when `exclusive`).
    ParamDeclaration& atLeast(double min, bool exclusive = false);
    /// Values > min.
    ParamDeclaration& above(double min) { return atLeast(min, true); }
    /// Values ≤ max (< max when `exclusive`).
    ParamDeclaration& atMost(double max, bool exclusive = false);
    ParamDeclaration& choices(std::vector<ParamChoice> values);
    /// May be an extra sweep axis (numbers only).
    ParamDeclaration& sweepable(bool on = true);
    /// In the GUI's advanced section.
    ParamDeclaration& advanced(bool on = true);
    /// When it has an effect (ParamApplies bits).
    ParamDeclaration& applies(unsigned when);
    /// An automatic value: stored as `value` ("0"), written "auto" by users, resolving to what
    /// `meaning` says; `byNumber`: typing the number `value` also means automatic.
    ParamDeclaration& automatic(std::string value, std::string meaning, bool byNumber = true);
    /// What of the training data the automatic value reads (see ParamSpec::autoReads).
    ParamDeclaration& readsData(AutoReads what);
    /// The example value when the generic choice is not one a run accepts.
    ParamDeclaration& example(std::string text);
    /// Earlier spellings, read (never written) from older presets, sessions and records.
    ParamDeclaration& formerNames(std::vector<std::string> names);
    /// What records written before the setting existed ran with (see ParamSpec::formerDefault).
    ParamDeclaration& formerDefault(std::string text);

    /// The declaration so far, for the fields without a setter.
    ParamSpec& spec() { return m_spec; }
    /// The finished declaration.
    operator ParamSpec() const { return ownParameter(m_spec); }

private:
    ParamSpec m_spec;
};

/// Starts the declaration of an algorithm's own setting (see ParamDeclaration).
inline ParamDeclaration declare(std::string name, std::string label, ParamKind kind,
                                std::string help) {
    return ParamDeclaration(std::move(name), std::move(label), kind, std::move(help));
}

/// The value of an algorithm's own parameter as a number (after the run was prepared, every
/// declared one is present). Throws std::logic_error when absent.
double ownNumber(const TrainConfig& config, const std::string& name);
/// The value of an algorithm's own Choice parameter.
const std::string& ownChoice(const TrainConfig& config, const std::string& name);

}  // namespace pfa
