#include "core/report/report_model.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/data/catalog.h"
#include "core/generators/generator.h"
#include "core/privacy/dataset_ledger.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/run_protection.h"
#include "core/sweep/run_record.h"
#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/build_info.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::report {

namespace {

/// Groups with fewer test rows are flagged under the table.
constexpr long kSmallGroup = 30;

/// A record that can be read as a run, with what was read.
struct ReadRecord {
    RunResult result;
    RunContext context;
};

ReadRecord readRecord(const JsonValue& record) {
    ReadRecord read;
    read.result = runResultFromJson(record, &read.context);
    return read;
}

bool completed(const JsonValue& record) {
    return record.stringOr("status", "completed") == "completed";
}

std::string epsilonText(double epsilon) {
    return std::isfinite(epsilon) ? formatNumber(epsilon) : "∞";
}

std::string gapNameOf(FairnessNotion notion) {
    switch (notion) {
        case FairnessNotion::DemographicParity:
            return "DP gap: max |Δ selection rate|";
        case FairnessNotion::EqualizedOdds:
            return "EO gap: max(|ΔTPR|, |ΔFPR|)";
        case FairnessNotion::EqualOpportunity:
            return "EOpp gap: max |ΔTPR|";
    }
    return "gap";
}

std::string percent(double share) { return formatNumber(100.0 * share, 3) + " %"; }

/// The command-line option of the knob a data-set key calls `keyName` ("" when the data set
/// is not a generator or has no such knob), from the generator's declaration.
std::string knobOption(const std::string& dataset, const std::string& keyName) {
    const DataGenerator* generator = findGenerator(dataset);
    if (!generator) return {};
    for (const GeneratorKnob& knob : generator->knobs) {
        if (knob.spec.runKeyName() == keyName) return knob.spec.name;
    }
    return {};
}

/// Quotes a word for a POSIX shell when it needs it.
std::string shellWord(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789-_.,/:=+") == std::string::npos) {
        return word;
    }
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

void appendNote(std::string* note, const std::string& text) {
    if (!note) return;
    if (!note->empty()) *note += " ";
    *note += text;
}

/// The data options of a data-set key ("synthetic(n=…)|split=0,0.25").
std::string datasetOptions(const std::string& key, std::string* note) {
    std::string command;
    const std::string identity = key.substr(0, key.find('|'));
    std::string name = identity.substr(0, identity.find_first_of("(:"));
    std::string sensitive;
    if (const auto slash = name.find('/'); slash != std::string::npos) {
        sensitive = name.substr(slash + 1);
        name = name.substr(0, slash);
    }
    if (name == "file") {
        const auto colon = identity.find(':');
        const std::string file =
            colon == std::string::npos
                ? std::string("FILE")
                : identity.substr(colon + 1, identity.find(",schema=") - colon - 1);
        command += " --csv " + shellWord(file);
        appendNote(note,
                   "The record keeps only a fingerprint of how '" + file +
                       "' was read: add the reading options (--target, --sensitive, …) it was "
                       "imported with.");
    } else {
        command += " --dataset " + name;
        if (!sensitive.empty()) command += " --sensitive " + shellWord(sensitive);
        // Knobs that differ from the generator's defaults.
        DatasetRequest defaults;
        defaults.name = name;
        std::map<std::string, std::string> standard;
        for (const auto& [knob, value] : datasetKnobs(datasetKey(defaults))) standard[knob] = value;
        for (const auto& [knob, value] : datasetKnobs(key)) {
            if (standard.count(knob) && standard[knob] == value) continue;
            const std::string option = knobOption(name, knob);
            if (option.empty()) {
                appendNote(note, "The data knob " + knob + " = " + shortValueText(value) +
                                     " has no command-line option.");
                continue;
            }
            command += " --" + option + " " + shortValueText(value);
        }
    }
    // The split: "|split=SEED,FRACTION[,METHOD]".
    if (const auto split = key.find("|split="); split != std::string::npos) {
        const std::string part = key.substr(split + 7, key.find('|', split + 7) - split - 7);
        std::vector<std::string> fields;
        std::size_t start = 0;
        while (start <= part.size()) {
            const std::size_t comma = std::min(part.find(',', start), part.size());
            fields.push_back(part.substr(start, comma - start));
            start = comma + 1;
        }
        if (!fields.empty() && fields[0] != "0") command += " --split-seed " + fields[0];
        if (fields.size() > 1 && shortValueText(fields[1]) != "0.25")
            command += " --test-fraction " + shortValueText(fields[1]);
        if (fields.size() > 2) command += " --split-method " + fields[2];
    }
    if (key.find("|silos=") != std::string::npos) {
        appendNote(note, "Add the silo options (--silos, --silo-split, …) of '" +
                             key.substr(key.find("|silos=") + 1) + "'.");
    }
    return command;
}

}  // namespace

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
    return text;
}

std::string reproduceCommand(const JsonValue& record, std::string* note) {
    std::string key = record.stringOr("run_key", "");
    if (key.empty()) {
        appendNote(note, "The record has no run key (an older file): it cannot be rerun exactly.");
        return {};
    }
    if (key.rfind("auto-tune|", 0) == 0) {
        key = key.substr(10);
        appendNote(note,
                   "The run was chosen by --auto-tune: the command reruns the chosen candidate "
                   "alone (the same candidate only with the tuned step it was given).");
    }
    std::string command = "pfa-cli train";
    std::string algorithm;
    std::string settings;
    for (const auto& [name, value] : runKeySettings(key)) {
        if (name == "dataset") {
            command += datasetOptions(value, note);
            continue;
        }
        if (name == "algorithm") {
            algorithm = value;
            continue;
        }
        const ParamSpec* spec = nullptr;
        for (const ParamSpec& common : commonParameters()) {
            if (common.runKeyName() == name) spec = &common;
        }
        std::vector<ParamSpec> own;
        if (!spec && !algorithm.empty()) {
            try {
                own = findAlgorithm(algorithm).parameters();
            } catch (const InputError&) {
            }
            for (const ParamSpec& candidate : own) {
                if (candidate.name == name) spec = &candidate;
            }
        }
        if (!spec) {
            appendNote(note, "The setting '" + name + "=" + value +
                                 "' of the run key is unknown to this version.");
            continue;
        }
        // The key's text back to the option's: frozen spellings, exact numbers shortened.
        std::string text = value;
        if (spec->keyValue) {
            std::vector<std::string> candidates = {"true", "false"};
            for (const ParamChoice& choice : spec->choices) candidates.push_back(choice.value);
            for (const std::string& candidate : candidates) {
                if (spec->keyValue(candidate) == value) text = candidate;
            }
        } else if (spec->kind == ParamKind::Real) {
            text = shortValueText(value);
        }
        if (spec->role == ParamRole::Coordinate) {
            settings +=
                " --" + std::string(spec->name == "seed" ? "seeds" : spec->name) + " " + text;
            continue;
        }
        if (text == spec->defaultValue ||
            (spec->kind == ParamKind::Real && shortValueText(spec->defaultValue) == text)) {
            continue;
        }
        if (spec->kind == ParamKind::Flag) {
            settings += text == "true" ? " --" + spec->name : " --no-" + spec->name;
        } else {
            settings += " --" + spec->name + " " + (spec->isAuto(text) ? "auto" : shellWord(text));
        }
    }
    if (!algorithm.empty()) command += " --algorithm " + algorithm;
    return command + settings + " --out rerun.jsonl";
}

std::size_t selectRecord(const std::vector<JsonValue>& records, const std::string& selector) {
    if (records.empty()) throw InputError("no run records to report on");
    if (selector.empty()) {
        for (std::size_t i = records.size(); i-- > 0;) {
            if (completed(records[i])) return i;
        }
        throw InputError("none of the " + std::to_string(records.size()) +
                         " run(s) completed: choose one with --run");
    }
    if (selector.find_first_not_of("0123456789") == std::string::npos) {
        const unsigned long index = std::stoul(selector);
        if (index < 1 || index > records.size()) {
            throw InputError("--run " + selector + ": the file holds runs 1 to " +
                             std::to_string(records.size()));
        }
        return index - 1;
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (records[i].stringOr("run_key", "") == selector ||
            records[i].stringOr("run_uid", "") == selector)
            return i;
    }
    throw InputError("--run: no run with the key or uid '" + selector + "'");
}

ReportModel buildReport(const std::vector<JsonValue>& records, const ReportOptions& options) {
    const std::size_t index = selectRecord(records, options.run);
    const JsonValue& record = records[index];
    const ReadRecord read = readRecord(record);
    const RunResult& run = read.result;
    const RunContext& context = read.context;
    const TrainConfig& config = run.config;

    ReportModel model;
    model.generated = options.generated.empty() ? utcNow() : options.generated;
    model.version = options.version.empty() ? pfa::versionString() : options.version;
    std::string datasetTitle =
        context.datasetDescription.empty() ? run.dataset : context.datasetDescription;
    const CatalogEntry* catalog = nullptr;
    try {
        catalog = &findCatalogEntry(run.dataset);
        datasetTitle = catalog->title;
    } catch (const InputError&) {
    }
    const std::string shortTitle = datasetTitle.substr(0, datasetTitle.find(" ("));
    model.title = config.algorithm + " on " + shortTitle;
    model.runLabel = "run " + std::to_string(index + 1) + " of " + std::to_string(records.size()) +
                     " in " + options.sourceName + " (" + runStatusName(run.status) + ")";

    // The data-set card.
    model.dataset.push_back({"Data set", datasetTitle});
    if (catalog && !catalog->citation.empty()) model.dataset.push_back({"Cite", catalog->citation});
    model.dataset.push_back({"Rows", std::to_string(context.trainRows) + " training, " +
                                         std::to_string(context.testRows) + " test"});
    model.dataset.push_back({"Features", std::to_string(context.features) + " (after encoding)"});
    std::string groups;
    for (const GroupRow& row : run.test.groups) {
        groups += (groups.empty() ? "" : ", ") + row.group + ": " + std::to_string(row.n);
    }
    if (!groups.empty()) {
        const std::string column =
            run.privacy.sensitiveColumn.empty() ? "" : " of '" + run.privacy.sensitiveColumn + "'";
        // Many groups: their sizes are in the per-group table; the card names only how many.
        const std::string sizes = run.test.groups.size() > 4 ? " (test rows in the table below)"
                                                             : " (test rows) — " + groups;
        model.dataset.push_back(
            {"Groups", std::to_string(run.test.groups.size()) + " groups" + column + sizes});
    }
    model.dataset.push_back({"Split", percent(context.testFraction) + " test, " +
                                          splitMethodName(context.splitMethod) + " split, seed " +
                                          std::to_string(context.splitSeed)});

    // The configuration.
    std::string algorithmText = config.algorithm;
    std::vector<ParamSpec> declared;
    try {
        const Algorithm& algorithm = findAlgorithm(config.algorithm);
        algorithmText += " — " + algorithm.description();
        declared = algorithm.parameters();
    } catch (const InputError&) {
    }
    model.configuration.push_back({"Algorithm", algorithmText});
    model.configuration.push_back({"Fairness notion", fairnessName(config.fairness) + " (" +
                                                          fairnessCode(config.fairness) + ")"});
    model.configuration.push_back(
        {"Privacy budget ε", std::isfinite(config.epsilon)
                                 ? formatNumber(config.epsilon) + " (asked for)"
                                 : "∞ (not private)"});
    if (run.privacy.isPrivate)
        model.configuration.push_back({"δ", formatNumber(run.privacy.delta, 3)});
    model.configuration.push_back({"Fairness weight λ", formatNumber(config.lambda)});
    model.configuration.push_back(
        {"Seed, epochs", std::to_string(config.seed) + ", " + std::to_string(config.epochs)});
    for (const ParamSpec& spec : declared) {
        if (spec.role == ParamRole::Coordinate || spec.name == "delta" || spec.name == "epochs")
            continue;
        std::string value = spec.get(config);
        if (spec.kind == ParamKind::Real) {
            double number = 0.0;
            if (parsePortable(value, number)) value = formatNumber(number, 4);
        }
        if (spec.kind == ParamKind::Flag) value = value == "true" ? "on" : "off";
        model.algorithmSettings +=
            (model.algorithmSettings.empty() ? "" : " · ") + spec.name + " " + value;
    }

    // The chart: every run of the file on the same data and notion (one violation, one
    // test set on each axis) with a finite error and violation.
    auto dataOf = [](const JsonValue& r) {
        const std::string data = datasetOfRunKey(r.stringOr("run_key", ""));
        return data.empty() ? recordLedgerKey(r) : data;
    };
    const std::string chosenData = dataOf(record);
    std::vector<RunProtection> protections;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const JsonValue& r = records[i];
        if (i != index && (dataOf(r) != chosenData ||
                           r.stringOr("fairness", "") != record.stringOr("fairness", ""))) {
            ++model.otherDataPoints;
            continue;
        }
        ReportPoint point;
        point.testError = r.numberOr("test_error", NAN);
        point.violation = r.numberOr("violation", NAN);
        point.epsilon = r.numberOr("epsilon", NAN);
        if (r.has("epsilon") && r.at("epsilon").type() == JsonValue::Type::String) {
            point.epsilon = r.at("epsilon").asString() == "inf" ? INFINITY : NAN;
        }
        point.algorithm = r.stringOr("algorithm", "");
        point.chosen = i == index;
        if (!std::isfinite(point.testError) || !std::isfinite(point.violation) ||
            r.has("regression") || (!completed(r) && !point.chosen)) {
            ++model.skippedPoints;
            continue;
        }
        const RunProtection protection = runProtectionOfRecord(r);
        protections.push_back(protection);
        if (protection.isPrivate) {
            const auto kind =
                std::find(model.protections.begin(), model.protections.end(), protection.label());
            point.protection = static_cast<int>(kind - model.protections.begin());
            if (kind == model.protections.end()) model.protections.push_back(protection.label());
        }
        model.points.push_back(point);
    }
    const std::string mixed = mixedProtectionWarning(protections);
    if (!mixed.empty()) {
        std::string outlined;
        for (std::size_t k = 1; k < model.protections.size(); ++k)
            outlined += (k > 1 ? "; " : "") + model.protections[k];
        model.protectionNote = mixed + " Dark red outline: " + outlined + ".";
    } else if (!model.protections.empty()) {
        model.protectionNote =
            "Protects: " + model.protections.front() + " (every private run drawn).";
    }
    model.violationName = fairnessName(config.fairness) + " violation";

    // The per-group table with its intervals.
    model.notionCode = fairnessCode(config.fairness);
    model.gapName = gapNameOf(config.fairness);
    model.recordedViolation = run.test.violation(config.fairness);
    model.groups = run.test.groups;
    const CountsOrReason counts = countsFromRates(run.test.groups);
    if (run.regression.known) {
        model.bootstrapUnavailable = "a regression run has no per-group classification rates";
    } else if (!counts.reason.empty()) {
        model.bootstrapUnavailable = counts.reason;
    } else if (options.resamples < 100) {
        throw InputError("--bootstrap " + std::to_string(options.resamples) +
                         ": at least 100 resamples are needed for 95 % intervals");
    } else {
        model.bootstrap =
            bootstrapGroups(counts.counts, config.fairness, options.resamples, options.seed);
        model.intervalMethod =
            "95 % intervals: percentile bootstrap, " + std::to_string(options.resamples) +
            " resamples (seed " + std::to_string(options.seed) +
            "). Each resample draws every group's test rows again with replacement, as many as it "
            "has, "
            "from the group's confusion counts (which its recorded rates give exactly for binary "
            "labels). "
            "They cover the sampling of the test rows only: the trained model is held fixed, so "
            "neither "
            "the training data nor the randomness of training (seed, privacy noise) is covered.";
        std::size_t small = 0;
        for (const GroupRow& row : run.test.groups) small += row.n < kSmallGroup ? 1 : 0;
        if (small > 0) {
            model.intervalMethod +=
                " " + std::to_string(small) + " group(s) have fewer than " +
                std::to_string(kSmallGroup) +
                " test rows: their rates and intervals rest on very few people and can "
                "collapse to a single value.";
        }
    }

    // Privacy: the accountant's ε (the record's), and the ledger of the run's data set.
    model.isPrivate = run.privacy.isPrivate;
    if (run.privacy.isPrivate) {
        model.guarantee =
            "(ε = " + epsilonText(run.privacy.epsilonSpent) +
            ", δ = " + formatNumber(run.privacy.delta, 3) + ") per " + run.privacy.unit +
            ", certified by the " +
            (run.privacy.accountant.empty() ? std::string("accountant") : run.privacy.accountant);
    } else {
        model.guarantee = "not private (ε = ∞): no differential-privacy guarantee";
    }
    model.statement = run.privacy.statement.empty() ? "The record holds no privacy statement."
                                                    : run.privacy.statement;
    const std::string ledgerKey = recordLedgerKey(record);
    for (const privacy::DatasetLedger& ledger : ledgersFromRecords(records)) {
        if (ledger.key() != ledgerKey) continue;
        model.ledger = "All private runs on these rows in " + options.sourceName + ": " +
                       privacy::describeTotals(ledger.totals()) + ".";
    }
    if (model.ledger.empty())
        model.ledger = "No private run on these rows in " + options.sourceName + ": nothing spent.";

    model.reproduce = reproduceCommand(record, &model.reproduceNote);
    return model;
}

}  // namespace pfa::report
