#include "core/config/parameters.h"

#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

std::string realText(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);  // shortest exact
    return std::string(buffer, result.ptr);
}

std::string shortValueText(const std::string& text) {
    double value = 0.0;
    return parsePortable(text, value) ? realText(value) : text;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double numberOf(const std::string& text) {
    double value = 0.0;
    if (!parsePortable(text, value)) throw std::logic_error("not a number: " + text);
    return value;
}

// ---- builders binding a parameter to a TrainConfig field --------------------------------------

ParamSpec base(std::string name, std::string label, ParamKind kind, std::string help) {
    ParamSpec spec;
    spec.name = std::move(name);
    spec.label = std::move(label);
    spec.kind = kind;
    spec.help = std::move(help);
    return spec;
}

ParamSpec realField(std::string name, std::string label, double TrainConfig::*field,
                    std::string help, double min, double max, bool minExclusive,
                    bool maxExclusive) {
    ParamSpec spec = base(std::move(name), std::move(label), ParamKind::Real, std::move(help));
    spec.min = min;
    spec.max = max;
    spec.minExclusive = minExclusive;
    spec.maxExclusive = maxExclusive;
    spec.get = [field](const TrainConfig& c) { return realText(c.*field); };
    spec.set = [field](TrainConfig& c, const std::string& text) { c.*field = numberOf(text); };
    spec.defaultValue = spec.get(TrainConfig{});
    return spec;
}

template <typename Int>
ParamSpec integerField(std::string name, std::string label, Int TrainConfig::*field,
                       std::string help, double min, double max) {
    ParamSpec spec = base(std::move(name), std::move(label), ParamKind::Integer, std::move(help));
    spec.min = min;
    spec.max = max;
    spec.get = [field](const TrainConfig& c) { return std::to_string(c.*field); };
    spec.set = [field](TrainConfig& c, const std::string& text) {
        Int value{};
        const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
        if (result.ec != std::errc() || result.ptr != text.data() + text.size()) {
            throw std::logic_error("not a whole number: " + text);
        }
        c.*field = value;
    };
    spec.defaultValue = spec.get(TrainConfig{});
    return spec;
}

template <typename Enum>
ParamSpec choiceField(std::string name, std::string label, Enum TrainConfig::*field,
                      std::string help, std::vector<ParamChoice> choices,
                      std::string (*nameOf)(Enum), Enum (*parse)(const std::string&)) {
    ParamSpec spec = base(std::move(name), std::move(label), ParamKind::Choice, std::move(help));
    spec.choices = std::move(choices);
    spec.get = [field, nameOf](const TrainConfig& c) { return nameOf(c.*field); };
    spec.set = [field, parse](TrainConfig& c, const std::string& text) { c.*field = parse(text); };
    spec.defaultValue = spec.get(TrainConfig{});
    return spec;
}

/// A choice whose unset state means "automatic".
template <typename Enum>
ParamSpec optionalChoiceField(std::string name, std::string label,
                              std::optional<Enum> TrainConfig::*field, std::string help,
                              std::vector<ParamChoice> choices, std::string autoMeaning,
                              std::string (*nameOf)(Enum), Enum (*parse)(const std::string&)) {
    ParamSpec spec = base(std::move(name), std::move(label), ParamKind::Choice, std::move(help));
    spec.choices = std::move(choices);
    spec.autoMeaning = std::move(autoMeaning);
    spec.autoValue = "auto";
    spec.get = [field, nameOf](const TrainConfig& c) {
        return c.*field ? nameOf(*(c.*field)) : std::string("auto");
    };
    spec.set = [field, parse](TrainConfig& c, const std::string& text) {
        if (text == "auto")
            c.*field = std::nullopt;
        else
            c.*field = parse(text);
    };
    spec.defaultValue = spec.get(TrainConfig{});
    return spec;
}

ParamSpec flagField(std::string name, std::string label, bool TrainConfig::*field,
                    std::string help) {
    ParamSpec spec = base(std::move(name), std::move(label), ParamKind::Flag, std::move(help));
    spec.get = [field](const TrainConfig& c) { return std::string(c.*field ? "true" : "false"); };
    spec.set = [field](TrainConfig& c, const std::string& text) { c.*field = text == "true"; };
    spec.defaultValue = spec.get(TrainConfig{});
    return spec;
}

void withAuto(ParamSpec& spec, std::string meaning, std::string stored = "0",
              bool byNumber = true) {
    spec.autoMeaning = std::move(meaning);
    spec.autoValue = std::move(stored);
    spec.autoByNumber = byNumber;
}

std::string projectionName(Projection projection) {
    return projection == Projection::Box ? "box" : "ball";
}
Projection parseProjection(const std::string& text) {
    if (text == "ball") return Projection::Ball;
    if (text == "box") return Projection::Box;
    throw InputError("unknown projection '" + text + "': use ball or box");
}

std::string adjacencyChoice(privacy::Adjacency adjacency) {
    return adjacency == privacy::Adjacency::Replace ? "replace" : "add-remove";
}

std::vector<ParamSpec> declareCommonParameters() {
    std::vector<ParamSpec> list;
    auto add = [&](ParamSpec spec) -> ParamSpec& {
        list.push_back(std::move(spec));
        return list.back();
    };

    // The sweep's own coordinates.
    {
        ParamSpec& p = add(choiceField<FairnessNotion>(
            "fairness", "Fairness notion", &TrainConfig::fairness,
            "which group fairness the penalty and the violation measure",
            {{"dp", "Demographic parity", "equal selection rates across groups"},
             {"eo", "Equalized odds", "equal true- and false-positive rates across groups"},
             {"eopp", "Equal opportunity", "equal true-positive rates across groups"}},
            fairnessCode, parseFairnessNotion));
        p.role = ParamRole::Coordinate;
        p.advanced = false;
    }
    {
        ParamSpec& p = add(realField("epsilon", "Privacy budget ε", &TrainConfig::epsilon,
                                     "total privacy budget of the run; inf = not private", 0, kInf,
                                     true, false));
        p.role = ParamRole::Coordinate;
        p.advanced = false;
    }
    {
        ParamSpec& p =
            add(realField("delta", "δ", &TrainConfig::delta,
                          "privacy δ of the (ε, δ) guarantee, the chance that it fails outright: "
                          "runs refuse δ ≥ 0.1 (such a guarantee promises nothing) and "
                          "warn from 1/n (n = training rows)",
                          0, 1, true, true));
        withAuto(p, "1/n², n = training rows", "0", false);
        p.autoReads = AutoReads::UnitCount;
        // Records keep any δ in (0, 1) readable; runs refuse δ ≥ 0.1 (validateCommonConfig).
        p.example = realText(0x1p-10);  // 0.0009765625: exact in every file format
        p.applies = AppliesPrivate;
        p.advanced = false;
    }
    {
        ParamSpec& p =
            add(realField("lambda", "Fairness weight λ", &TrainConfig::lambda,
                          "weight of the fairness penalty; 0 = plain loss", 0, kInf, false, false));
        p.role = ParamRole::Coordinate;
        p.advanced = false;
    }
    {
        ParamSpec& p = add(integerField<std::uint64_t>(
            "seed", "Seed", &TrainConfig::seed,
            "training seed: the same settings and seed reproduce a run exactly", 0, 0x1p64));
        p.role = ParamRole::Coordinate;
    }

    // Settings.
    {
        ParamSpec& p = add(integerField<int>("epochs", "Epochs", &TrainConfig::epochs,
                                             "passes over the training rows", 1, 1'000'000));
        p.unit = "epochs";
        p.sweepable = true;
    }
    {
        ParamSpec& p = add(integerField<int>("batch-size", "Batch size", &TrainConfig::batchSize,
                                             "(expected) rows per step", 1, 1e9));
        withAuto(p, "min(1024, n/4)");
        p.autoReads = AutoReads::UnitCount;
        p.unit = "rows";
        p.sweepable = true;
        p.keyName = "batch";
        p.formerNames = {"batch_size"};
    }
    {
        ParamSpec& p = add(realField("lr-theta", "Learning rate η_θ", &TrainConfig::lrTheta,
                                     "step size of the model", 0, kInf, true, false));
        p.sweepable = true;
        p.keyName = "lr_theta";
        p.formerNames = {"lr_theta"};
    }
    {
        ParamSpec& p =
            add(realField("lr-w", "Adversary learning rate η_W", &TrainConfig::lrW,
                          "step size of the fairness adversary W", 0, kInf, true, false));
        p.sweepable = true;
        p.applies = AppliesFairness;
        p.keyName = "lr_w";
        p.formerNames = {"lr_w"};
    }
    {
        ParamSpec& p =
            add(realField("l2", "Ridge weight", &TrainConfig::l2,
                          "L2 penalty on the model, added after clipping (never clipped)", 0, kInf,
                          false, false));
        p.sweepable = true;
    }
    {
        ParamSpec& p = add(choiceField<Calibration>(
            "calibration", "Calibration", &TrainConfig::calibration,
            "how the noise levels are chosen",
            {{"conservative", "Conservative (RDP-certified)",
              "whole-record clipping; noise solved by the Rényi-DP accountant"},
             {"published", "As published — known accounting gaps",
              "the paper's closed-form constants, reproduced as published"}},
            calibrationName, parseCalibration));
        p.applies = AppliesPrivate;
        p.advanced = false;
    }
    {
        ParamSpec& p = add(choiceField<ProtectionScope>(
            "scope", "Protected", &TrainConfig::scope, "what a neighbouring data set may change",
            {{"all-features", "Whole records",
              "a record's features, label and sensitive attribute (adjacency as chosen)"},
             {"sensitive-only", "Sensitive attribute only",
              "one record's sensitive value changed (replace-one adjacency, about twice the noise "
              "of add/remove-one at the same ε); features and labels are treated as public"}},
            scopeName, parseScope));
        p.applies = AppliesPrivate;
        p.advanced = false;
    }
    {
        ParamSpec& p = add(choiceField<privacy::Adjacency>(
            "adjacency", "Neighbouring data sets", &TrainConfig::adjacency,
            "add/remove one record, or replace one (replace-one is forced for fixed-size batches "
            "and "
            "for the sensitive-attribute-only scope)",
            {{"add-remove", "add or remove one", "neighbours differ by one record's presence"},
             {"replace", "replace one", "neighbours differ in one record's values"}},
            adjacencyChoice, parseAdjacency));
        p.applies = AppliesPrivate;
        p.keyValue = [](const std::string& value) {
            return adjacencyName(value == "replace" ? privacy::Adjacency::Replace
                                                    : privacy::Adjacency::AddRemove);
        };
    }
    add(optionalChoiceField<Sampling>(
        "sampling", "Batch sampling", &TrainConfig::sampling, "how each step's rows are drawn",
        {{"poisson", "Poisson", "each row joins a step independently with probability m/n"},
         {"shuffle", "shuffled batches", "a permutation per epoch, cut into batches"},
         {"subsample", "uniform subsample", "m rows drawn without replacement per step"}},
        "Poisson when private, shuffled batches otherwise", samplingName, parseSampling));
    {
        ParamSpec& p =
            add(realField("clip-theta", "Clip norm C_θ", &TrainConfig::clipTheta,
                          "per-example clip norm of the model gradient", 0, kInf, true, false));
        p.applies = AppliesPrivate;
        p.sweepable = true;
        p.keyName = "clip_theta";
        p.formerNames = {"clip_theta"};
    }
    {
        ParamSpec& p =
            add(realField("clip-w", "Clip norm C_W", &TrainConfig::clipW,
                          "per-example clip norm of the adversary gradient (gradient W-stream)", 0,
                          kInf, true, false));
        withAuto(p, "2λ(1/√ρ + R), never binds");
        p.applies = AppliesPrivate | AppliesFairness;
        p.sweepable = true;
        p.keyName = "clip_w";
        p.formerNames = {"clip_w"};
    }
    {
        ParamSpec& p =
            add(realField("loss-clip-share", "Loss clip share", &TrainConfig::lossClipShare,
                          "0: clip each row's whole gradient to C_θ; S in (0, 1): clip the loss "
                          "part to S·C_θ and "
                          "λ × the penalty part to (1 − S)·C_θ (same noise)",
                          0, 1, false, true));
        p.applies = AppliesPrivate | AppliesFairness;
        p.sweepable = true;
        p.keyName = "loss_clip_share";
        p.formerNames = {"loss_clip_share"};
    }
    {
        ParamSpec& p = add(optionalChoiceField<IterateAveraging>(
            "averaging", "Reported model", &TrainConfig::averaging,
            "which model the run reports and evaluates every epoch: the live curves and the "
            "final figures are those of this model",
            {{"poly", "average of iterates",
              "a running average weighted 4/(t+3) toward recent iterates (free post-processing)"},
             {"none", "last iterate", "the final model"}},
            "average for private conservative runs, last iterate otherwise", averagingName,
            parseAveraging));
        p.formerDefault = "none";
    }
    {
        ParamSpec& p = add(choiceField<WStream>(
            "w-stream", "W-player learns from", &TrainConfig::wStream,
            "how the private adversary's gradient is released (conservative calibration)",
            {{"masses", "noisy group sums",
              "noisy per-group sums of predicted probabilities (sensitivity 1)"},
             {"gradient", "clipped gradients", "clipped per-row W-gradients, C_W = 2λ(1/√ρ + R)"}},
            wStreamName, parseWStream));
        p.applies = AppliesPrivate | AppliesConservative | AppliesFairness;
        p.keyName = "w_stream";
        p.formerNames = {"w_stream"};
        p.formerDefault = "gradient";
    }
    {
        ParamSpec& p = add(realField(
            "min-group-share", "Min group share ρ", &TrainConfig::minGroupShare,
            "public lower bound on every group share; privatised shares are floored at it", 0, 1,
            true, false));
        withAuto(p, "1/(10k) for demographic parity, 1/(20k) of the within-label shares otherwise");
        p.applies = AppliesFairness;
        p.sweepable = true;
        p.keyName = "rho";
        p.formerNames = {"min_group_share"};
    }
    {
        ParamSpec& p = add(realField("w-radius", "W radius R", &TrainConfig::wRadius,
                                     "radius of the adversary's ball", 0, kInf, true, false));
        withAuto(p, "√(classes/ρ)");
        p.applies = AppliesFairness;
        p.sweepable = true;
        p.keyName = "radius";
        p.formerNames = {"w_radius"};
    }
    {
        ParamSpec& p = add(choiceField<Projection>(
            "projection", "W projection", &TrainConfig::projection, "the set W is projected onto",
            {{"ball", "ball", "a Euclidean ball of radius R"},
             {"box", "box", "entries in [−R, R]"}},
            projectionName, parseProjection));
        p.applies = AppliesFairness;
    }
    {
        ParamSpec& p =
            add(realField("share-budget", "Share budget", &TrainConfig::shareBudgetFraction,
                          "share of ε spent on the privatised group shares", 0, 0.5, true, false));
        p.applies = AppliesPrivate | AppliesConservative | AppliesFairness;
        p.sweepable = true;
        p.keyName = "share_budget";
        p.formerNames = {"share_budget_fraction"};
    }
    {
        ParamSpec& p = add(realField("feature-bound", "Feature bound B", &TrainConfig::featureBound,
                                     "norm bound of a row (x, 1) under the published calibration",
                                     0, kInf, true, false));
        withAuto(p,
                 "the public default, or the observed maximum when only the sensitive attribute is "
                 "protected");
        p.applies = AppliesPrivate | AppliesPublished;
        p.keyName = "feature_bound";
        p.formerNames = {"feature_bound"};
    }
    {
        ParamSpec& p = add(integerField<int>(
            "advantaged-class", "Advantaged class y*", &TrainConfig::advantagedClass,
            "the favourable class for equal opportunity and the per-group table", 0, 1e9));
        p.keyName = "advantaged";
        p.formerNames = {"advantaged_class"};
    }
    {
        ParamSpec& p = add(integerField<int>(
            "evaluate-every", "Evaluate every", &TrainConfig::evaluateEvery,
            "evaluate the test metrics every this many epochs, or rounds or steps for the "
            "algorithms that count those (whose long runs are evaluated at most about 50 times, "
            "ppsgd's 100, and diff2 and dp-gd no more often than every 20 rounds), and after the "
            "last",
            1, 1e9));
        p.unit = "epochs";
        p.unitIsProgress = true;
        p.keyName = "evaluate_every";
        p.formerNames = {"evaluate_every"};
    }
    {
        ParamSpec& p = add(flagField(
            "secure-noise", "Secure noise (OS entropy)", &TrainConfig::secureNoise,
            "draw every random stream of the run (noise, batch sampling) from the operating "
            "system's "
            "entropy: nobody can regenerate it, so the guarantee needs no secret, but the run is "
            "not "
            "bit-for-bit reproducible. Off: derived from the seed and the settings, and the "
            "guarantee "
            "assumes the seed stays secret. Choose it for a model that leaves this machine"));
        p.applies = AppliesPrivate;
        p.keyName = "noise";
        p.formerNames = {"secure_noise"};
        // Noise streams derive from the seed and these settings (v2); older results files, whose
        // runs shared noise across settings, do not match and are rerun on resume.
        p.keyValue = [](const std::string& value) {
            return std::string(value == "true" ? "os-entropy" : "seeded-v2");
        };
    }
    {
        ParamSpec& p = add(flagField(
            "diagnostics", "Record training diagnostics", &TrainConfig::recordDiagnostics,
            "private runs: record the training loss, objective and clip fraction (exact on the "
            "private rows, not protected)"));
        p.applies = AppliesPrivate;
        p.formerNames = {"record_diagnostics"};
        p.keyValue = [](const std::string& value) {
            return std::string(value == "true" ? "on" : "off");
        };
    }
    {
        ParamSpec& p = add(choiceField<BatchSharing>(
            "batch-sharing", "Batches", &TrainConfig::batchSharing,
            "own: the run draws its own Poisson batches. by-seed: every run with the same seed, "
            "sampler and rows draws the same batches, so a sweep trains them together in one "
            "pass over each batch (much faster); each run's ε is unchanged, and the data set's "
            "ledger charges the runs that share batches as one mechanism",
            {{"own", "own batches", "an independent Poisson sample per run"},
             {"by-seed", "shared by seed",
              "one Poisson sample per step for all runs of a seed (trained together)"}},
            batchSharingName, parseBatchSharing));
        p.applies = AppliesPrivate;
        // Added after run keys existed: in a key only when shared, so every earlier run keeps
        // its key and its noise.
        p.keyedWhenChanged = true;
    }
    return list;
}

}  // namespace

const std::vector<ParamSpec>& commonParameters() {
    static const std::vector<ParamSpec> list = declareCommonParameters();
    return list;
}

const ParamSpec* findCommonParameter(const std::string& name) {
    for (const ParamSpec& spec : commonParameters()) {
        if (spec.answersTo(name)) return &spec;
    }
    return nullptr;
}

std::vector<ParamSpec> commonParameters(const std::vector<std::string>& names) {
    std::vector<ParamSpec> picked;
    for (const std::string& name : names) {
        const ParamSpec* spec = findCommonParameter(name);
        if (!spec || spec->name != name)
            throw std::logic_error("no common parameter '" + name + "'");
        picked.push_back(*spec);
    }
    return picked;
}

std::vector<ParamSpec> commonParameters(const std::vector<std::string>& names,
                                        std::vector<ParamSpec> own) {
    std::vector<ParamSpec> list = commonParameters(names);
    for (ParamSpec& spec : own) list.push_back(std::move(spec));
    return list;
}

namespace {

/// A bound as people write it: whole numbers in digits (1000000, not 1e+06).
std::string boundText(double value) {
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return std::to_string(static_cast<long long>(value));
    return realText(value);
}

}  // namespace

std::string valueWithUnit(const ParamSpec& spec, const std::string& value) {
    return spec.unit.empty() || spec.unitIsProgress ? value : value + " " + spec.unit;
}

std::string parameterRule(const ParamSpec& spec) {
    std::string rule;
    switch (spec.kind) {
        case ParamKind::Flag:
            rule = "on or off";
            break;
        case ParamKind::Text:
            rule = spec.allowEmpty ? "any text" : "a non-empty text";
            break;
        case ParamKind::Choice:
            for (const ParamChoice& choice : spec.choices)
                rule += (rule.empty() ? "" : " | ") + choice.value;
            break;
        case ParamKind::Real:
        case ParamKind::Integer: {
            const bool hasMin = std::isfinite(spec.min);
            const bool hasMax = std::isfinite(spec.max) && spec.max < 1e9;
            const std::string what = spec.kind == ParamKind::Integer ? "a whole number " : "";
            if (hasMin && hasMax) {
                rule = what + "in " + std::string(spec.minExclusive ? "(" : "[") +
                       boundText(spec.min) + ", " + boundText(spec.max) +
                       (spec.maxExclusive ? ")" : "]");
            } else if (hasMin) {
                rule = what + (spec.minExclusive ? "> " : ">= ") + boundText(spec.min);
            } else if (hasMax) {
                rule = what + (spec.maxExclusive ? "< " : "<= ") + boundText(spec.max);
            } else {
                rule = spec.kind == ParamKind::Integer ? "a whole number" : "a number";
            }
            break;
        }
    }
    if (spec.hasAuto() && spec.kind != ParamKind::Choice)
        rule += ", or auto (" + spec.autoMeaning + ")";
    else if (spec.hasAuto())
        rule += " | auto (" + spec.autoMeaning + ")";
    return rule;
}

namespace {

[[noreturn]] void invalid(const ParamSpec& spec, const std::string& text) {
    throw InputError(spec.name + " = " + text + " is invalid: it must be " + parameterRule(spec));
}

bool inRange(const ParamSpec& spec, double value) {
    if (std::isnan(value)) return false;
    if (spec.minExclusive ? !(value > spec.min) : !(value >= spec.min)) return false;
    if (spec.maxExclusive ? !(value < spec.max) : !(value <= spec.max)) return false;
    return true;
}

}  // namespace

std::string parseParameter(const ParamSpec& spec, const std::string& text) {
    if (spec.hasAuto() && text == "auto") return spec.autoValue;
    switch (spec.kind) {
        case ParamKind::Flag:
            if (text == "true" || text == "on" || text == "yes" || text == "1") return "true";
            if (text == "false" || text == "off" || text == "no" || text == "0") return "false";
            invalid(spec, text);
        case ParamKind::Text: {
            const auto first = text.find_first_not_of(" \t\r\n");
            if (first == std::string::npos) {
                if (!spec.allowEmpty) invalid(spec, text);
                return {};
            }
            return text.substr(first, text.find_last_not_of(" \t\r\n") + 1 - first);
        }
        case ParamKind::Choice: {
            for (const ParamChoice& choice : spec.choices) {
                if (choice.value == text) return text;
            }
            if (spec.isAuto(text)) return text;
            // Earlier spellings of a value ("all_features") are read through the field's parser.
            if (spec.set && spec.get) {
                try {
                    TrainConfig scratch;
                    spec.set(scratch, text);
                    const std::string canonical = spec.get(scratch);
                    for (const ParamChoice& choice : spec.choices) {
                        if (choice.value == canonical) return canonical;
                    }
                } catch (const std::exception&) {
                }
            }
            invalid(spec, text);
        }
        case ParamKind::Real:
        case ParamKind::Integer: {
            double value = 0.0;
            if (!parsePortable(text, value)) invalid(spec, text);
            if (spec.hasAuto() && spec.autoByNumber && value == numberOf(spec.autoValue))
                return spec.autoValue;
            if (!inRange(spec, value)) invalid(spec, text);
            if (spec.kind == ParamKind::Real) return realText(value);
            if (value != std::floor(value)) invalid(spec, text);
            // Whole numbers beyond 2^53 (seeds) keep their exact digits.
            if (std::fabs(value) >= 0x1p53) {
                unsigned long long exact = 0;
                const auto result = std::from_chars(text.data(), text.data() + text.size(), exact);
                if (result.ec != std::errc() || result.ptr != text.data() + text.size())
                    invalid(spec, text);
                return std::to_string(exact);
            }
            return std::to_string(static_cast<long long>(value));
        }
    }
    invalid(spec, text);
}

std::string parseParameter(const ParamSpec& spec, double value) {
    if (spec.kind == ParamKind::Integer && std::isfinite(value) && value == std::floor(value) &&
        std::fabs(value) < 0x1p63) {
        return parseParameter(spec, std::to_string(static_cast<long long>(value)));
    }
    return parseParameter(spec, realText(value));
}

std::string exampleValue(const ParamSpec& spec) {
    if (!spec.example.empty()) return spec.example;
    switch (spec.kind) {
        case ParamKind::Flag:
            return spec.defaultValue == "true" ? "false" : "true";
        case ParamKind::Text:
            return spec.defaultValue == "example" ? "other" : "example";
        case ParamKind::Choice:
            for (const ParamChoice& choice : spec.choices) {
                if (choice.value != spec.defaultValue) return choice.value;
            }
            break;
        case ParamKind::Real:
        case ParamKind::Integer:
            // Small values first: they are the likeliest to suit any data (a class index, a
            // share of 1/k); halves are exact in every file format.
            for (double candidate : spec.kind == ParamKind::Integer
                                        ? std::vector<double>{0, 1, 2, 3, 4, 8, 16}
                                        : std::vector<double>{0.5, 0.25, 1, 2, 0, 4, 8}) {
                if (!inRange(spec, candidate) || spec.isAuto(realText(candidate))) continue;
                const std::string text = parseParameter(spec, candidate);
                if (text != spec.defaultValue) return text;
            }
            break;
    }
    throw std::logic_error("no example value for " + spec.name);
}

void setParameter(TrainConfig& config, const ParamSpec& spec, const std::string& text) {
    spec.set(config, parseParameter(spec, text));
}

void validateParameters(const TrainConfig& config, const std::vector<ParamSpec>& specs) {
    for (const ParamSpec& spec : specs) {
        const std::string text = spec.get(config);
        if (spec.isAuto(text)) continue;
        parseParameter(spec, text);  // throws "NAME = TEXT is invalid: …"
    }
}

namespace {

/// Own settings added after run keys existed, each with its default: a run key leaves one out
/// at its default, so that earlier runs keep their keys (and their noise). Keys are made from a
/// configuration alone, without the algorithm's declarations, hence this list; ownParameter
/// checks every declaration against it (ParamSpec::keyedWhenChanged).
const std::map<std::string, std::string>& ownSettingsKeyedWhenChanged() {
    static const std::map<std::string, std::string> list = {{"row-precision", "double"},
                                                            {"shared-sample", "per-population"}};
    return list;
}

}  // namespace

std::string settingsKey(const TrainConfig& config) {
    std::string key = "algorithm=" + config.algorithm;
    for (const ParamSpec& spec : commonParameters()) {
        const std::string text = spec.get(config);
        if (spec.keyedWhenChanged && text == spec.defaultValue) continue;
        key += ';';
        key += spec.runKeyName();
        key += '=';
        if (spec.keyValue)
            key += spec.keyValue(text);
        else if (spec.kind == ParamKind::Real)
            key += formatPortable(numberOf(text));
        else
            key += text;
    }
    // An algorithm's own parameters, by name (absent for algorithms that declare none, so the
    // keys of those runs are what they always were).
    for (const auto& [name, text] : config.extra) {
        const auto added = ownSettingsKeyedWhenChanged().find(name);
        if (added != ownSettingsKeyedWhenChanged().end() && added->second == text) continue;
        key += ';' + name + '=' + text;
    }
    return key;
}

bool isTopLevelRecordParameter(const std::string& name) {
    for (const char* top : {"fairness", "epsilon", "delta", "lambda", "seed", "epochs"}) {
        if (name == top) return true;
    }
    return false;
}

ParamSpec ownParameter(ParamSpec spec) {
    const auto listed = ownSettingsKeyedWhenChanged().find(spec.name);
    const bool isListed = listed != ownSettingsKeyedWhenChanged().end();
    if (spec.keyedWhenChanged != isListed || (isListed && listed->second != spec.defaultValue)) {
        throw std::logic_error("own setting " + spec.name +
                               ": keyed only when changed must be declared and listed alike, "
                               "with the same default");
    }
    const std::string name = spec.name;
    const std::string fallback = spec.defaultValue;
    spec.get = [name, fallback](const TrainConfig& c) {
        const auto found = c.extra.find(name);
        return found == c.extra.end() ? fallback : found->second;
    };
    spec.set = [name](TrainConfig& c, const std::string& text) { c.extra[name] = text; };
    return spec;
}

ParamDeclaration::ParamDeclaration(std::string name, std::string label, ParamKind kind,
                                   std::string help) {
    m_spec.name = std::move(name);
    m_spec.label = std::move(label);
    m_spec.kind = kind;
    m_spec.help = std::move(help);
    m_spec.advanced = false;
}

ParamDeclaration& ParamDeclaration::defaultValue(std::string text) {
    m_spec.defaultValue = std::move(text);
    return *this;
}

ParamDeclaration& ParamDeclaration::unit(std::string text) {
    m_spec.unit = std::move(text);
    return *this;
}

ParamDeclaration& ParamDeclaration::atLeast(double min, bool exclusive) {
    m_spec.min = min;
    m_spec.minExclusive = exclusive;
    return *this;
}

ParamDeclaration& ParamDeclaration::atMost(double max, bool exclusive) {
    m_spec.max = max;
    m_spec.maxExclusive = exclusive;
    return *this;
}

ParamDeclaration& ParamDeclaration::choices(std::vector<ParamChoice> values) {
    m_spec.choices = std::move(values);
    return *this;
}

ParamDeclaration& ParamDeclaration::sweepable(bool on) {
    m_spec.sweepable = on;
    return *this;
}

ParamDeclaration& ParamDeclaration::advanced(bool on) {
    m_spec.advanced = on;
    return *this;
}

ParamDeclaration& ParamDeclaration::applies(unsigned when) {
    m_spec.applies = when;
    return *this;
}

ParamDeclaration& ParamDeclaration::automatic(std::string value, std::string meaning,
                                              bool byNumber) {
    m_spec.autoValue = std::move(value);
    m_spec.autoMeaning = std::move(meaning);
    m_spec.autoByNumber = byNumber;
    return *this;
}

ParamDeclaration& ParamDeclaration::readsData(AutoReads what) {
    m_spec.autoReads = what;
    return *this;
}

ParamDeclaration& ParamDeclaration::example(std::string text) {
    m_spec.example = std::move(text);
    return *this;
}

ParamDeclaration& ParamDeclaration::formerNames(std::vector<std::string> names) {
    m_spec.formerNames = std::move(names);
    return *this;
}

ParamDeclaration& ParamDeclaration::formerDefault(std::string text) {
    m_spec.formerDefault = std::move(text);
    return *this;
}

double ownNumber(const TrainConfig& config, const std::string& name) {
    const auto found = config.extra.find(name);
    if (found == config.extra.end())
        throw std::logic_error("parameter '" + name + "' was not prepared");
    return numberOf(found->second);
}

const std::string& ownChoice(const TrainConfig& config, const std::string& name) {
    const auto found = config.extra.find(name);
    if (found == config.extra.end())
        throw std::logic_error("parameter '" + name + "' was not prepared");
    return found->second;
}

}  // namespace pfa
