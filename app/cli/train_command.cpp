// pfa-cli train: runs a sweep (data set × algorithm × notion × axes × ε × λ × seeds) and
// appends one JSON line per finished run; resumable, shardable, with presets.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "app/cli/arguments.h"
#include "app/cli/cell_table.h"
#include "app/cli/commands.h"
#include "core/algorithms/registry.h"
#include "core/config/config_validation.h"
#include "core/data/catalog.h"
#include "core/engine/violation_stability.h"
#include "core/fairness/fairness_metrics.h"
#include "core/generators/generator.h"
#include "core/generators/silo_settings.h"
#include "core/generators/split_settings.h"
#include "core/sweep/auto_tune.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/setting_axes.h"
#include "core/sweep/sweep_manifest.h"
#include "core/sweep/sweep_preset.h"
#include "core/sweep/sweep_runner.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/cpu_count.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/number_list.h"

namespace pfa::cli {

namespace {

const char* const kTrainHelpHead =
    "usage: pfa-cli train --out FILE.jsonl [options]\n"
    "\n"
    "Runs every combination of --algorithm x --fairness x --axis x --epsilon x --lambda x\n"
    "--seeds in parallel and appends one JSON object per finished run to FILE.jsonl, flushed\n"
    "to disk at once. Runs already in FILE.jsonl are skipped, so an interrupted sweep resumes\n"
    "where it stopped. Prints a summary (mean +/- sd over seeds) at the end.\n"
    "\n"
    "data (one of):\n"
    "  --dataset NAME              a generator (synthetic by default; below) or a catalog data\n"
    "                              set (pfa-cli datasets list)\n"
    "  --csv FILE                  your own CSV/TSV/ARFF file, with:\n"
    "      --target COL            the label column\n"
    "      --positive VALUE        the positive (favourable) label value; omit for multi-class\n"
    "      --sensitive COL[,COL]   sensitive column(s); several form intersectional groups\n"
    "      --categorical COLS      columns to one-hot encode (numeric ones are detected)\n"
    "      --ignore COLS           columns not to use\n"
    "      --missing TOKEN         marks a missing value (rows with one are dropped)\n"
    "      --sensitive-threshold T two groups from one numeric sensitive column: value < T and\n"
    "                              value >= T (e.g. age at 25), instead of a group per value\n"
    "      --skip-bad-rows         skip rows whose number of fields differs from the header's\n"
    "                              (by default such a row stops with an error naming its line);\n"
    "                              the skipped lines are listed and recorded with every run\n"
    "  --sensitive CHOICE[+CHOICE] catalog data sets: which sensitive attribute (datasets info);\n"
    "                              several joined by '+' (sex+race) form intersectional groups\n"
    "  --data-dir DIR              folder with the catalog data set's files (default: the\n"
    "                              per-user data folder filled by 'pfa-cli datasets fetch')\n";

const char* const kTrainHelpSweep =
    "sweep:\n"
    "  --preset NAME|FILE.json     a ready-made sweep: adult-dp-certified, adult-eo-certified,\n"
    "                              credit-card-eo-certified, parkinsons-dp-certified (every\n"
    "                              epsilon certified), adult-dp-as-published,\n"
    "                              credit-card-eo-as-published, parkinsons-dp-as-published (the\n"
    "                              papers' calibration: nominal epsilon, certifying far more),\n"
    "                              ppsgd-personalised (personalised private SGD on synthetic\n"
    "                              users) and more (an unknown name lists them all); or a\n"
    "                              sweep file in the same form\n"
    "                              (the application's 'Run on a cluster...' writes one); other\n"
    "                              options override its settings\n"
    "  --algorithm LIST            the algorithms listed below (default dp-fermi)\n"
    "  --fairness LIST             dp, eo, eopp (default dp)\n"
    "  --epsilon LIST              privacy budgets, 'inf' = no privacy (default 1)\n"
    "  --lambda LIST               fairness weights (default 1); useful values run from about\n"
    "                              0.01 to the thousands, e.g. 0,log:0.01:1000:11\n"
    "  --seeds A-B|LIST            training seeds (default 0)\n"
    "  --tuning MODE               how choosing among the grid's K settings (lambda values x\n"
    "                              extra axes) is paid for: not-covered (default; each run\n"
    "                              spends the full epsilon and the statement says that a\n"
    "                              model picked among them is only covered by the ledger's\n"
    "                              total) | split-budget (each run gets epsilon/K, so the\n"
    "                              whole grid spends epsilon)\n"
    "  --auto-tune                 tune instead of sweeping: for each algorithm, epsilon, lambda\n"
    "                              and seed the --axis values are candidate settings; each one's\n"
    "                              step (gd-step) is halved from 1 on a validation split of the\n"
    "                              training rows (a step is abandoned on NaN or when the\n"
    "                              training loss exceeds 1.05 x its best at 5 evaluations in a\n"
    "                              row; the first surviving step is kept); the best candidate is\n"
    "                              run on all training rows and written as one record. The\n"
    "                              choice is NOT covered by that run's epsilon: its statement\n"
    "                              gives the epsilon all trials compose to\n"
    "  --tune-criterion C          train-loss (default) | gradient-norm | validation\n"
    "  --tune-validation F         share of the training rows held out for validation (0.2)\n"
    "  --axis SPEC                 extra axes over the settings marked * below, e.g.\n"
    "                              'lr-theta=0.05,0.1;epochs=100,200'; a choice setting\n"
    "                              lists names: 'trust=central,isrl,local'\n"
    "  LIST (--epsilon, --lambda, --axis values): comma-separated numbers and generators:\n"
    "    log:FROM:TO:COUNT         COUNT values log-spaced from FROM to TO inclusive\n"
    "                              (0 < FROM < TO); log:0.01:100:5 = 0.01,0.1,1,10,100\n"
    "    lin:FROM:TO:COUNT         COUNT values evenly spaced from FROM to TO inclusive;\n"
    "                              lin:0:2.5:11 = 0,0.25,...,2.5\n"
    "                              Generated values are rounded to 4 significant digits\n"
    "                              (0.03162): short in tables, and typing a printed value\n"
    "                              names the same run; a value given twice runs once; at\n"
    "                              most 1000 values\n";

const char* const kTrainHelpTail =
    "execution:\n"
    "  --out FILE                  JSON-lines results file (appended; required)\n"
    "  --no-resume                 run everything again even if FILE already has it\n"
    "  --shard I/N                 run only the runs with index % N == I (0 <= I < N)\n"
    "  --threads N                 parallel runs (default: the CPUs this process may use:\n"
    "                              its affinity mask and cgroup quota, e.g. a Slurm job's)\n"
    "  --write-manifest FILE       train nothing: write the runs' keys and shards (with\n"
    "                              --shards N) to FILE, as pfa-cli cluster does\n"
    "  --quiet                     no line per run: a progress line a minute at most\n"
    "  --stability N               also print how settled each cell's test violation is at the\n"
    "                              end, over each run's last N evaluations (epochs when\n"
    "                              evaluate-every is 1): its sd, the mean epoch-to-epoch\n"
    "                              change |v_t - v_(t-1)| and the drift v_N - v_1, mean +/- sd\n"
    "                              over the seeds; runs already in FILE are read, not rerun\n"
    "  --help                      this text\n";

std::vector<std::string> commaList(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        if (!item.empty()) items.push_back(item);
    }
    return items;
}

std::vector<SweepAxis> parseAxes(const std::string& text) {
    std::vector<SweepAxis> axes;
    std::stringstream stream(text);
    std::string part;
    while (std::getline(stream, part, ';')) {
        const std::size_t eq = part.find('=');
        if (eq == std::string::npos)
            throw UsageError("--axis: '" + part + "' is not NAME=V1,V2,...");
        SweepAxis axis;
        axis.parameter = part.substr(0, eq);
        TrainConfig probe;
        try {
            if (isChoiceSweepParameter(axis.parameter)) {
                axis.choices = commaList(part.substr(eq + 1));
                if (axis.choices.empty()) throw InputError("no values");
                for (const std::string& choice : axis.choices)
                    applySweepParameter(probe, axis.parameter, choice);
            } else {
                axis.values = parseNumberList(part.substr(eq + 1), false);
                applySweepParameter(probe, axis.parameter,
                                    axis.values.front());  // rejects unknown names
            }
        } catch (const InputError& error) {
            throw UsageError("--axis: " + axis.parameter + ": " + error.what());
        }
        axes.push_back(axis);
    }
    return axes;
}

std::pair<int, int> parseShard(const std::string& text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos) throw UsageError("--shard: '" + text + "' is not I/N");
    const double index = Arguments::parseNumber("shard", text.substr(0, slash), false);
    const double count = Arguments::parseNumber("shard", text.substr(slash + 1), false);
    if (index != std::floor(index) || count != std::floor(count) || count < 1 || index < 0 ||
        index >= count) {
        throw UsageError("--shard: '" + text + "' must be I/N with 0 <= I < N");
    }
    return {static_cast<int>(index), static_cast<int>(count)};
}

Schema schemaFromOptions(const Arguments& args) {
    Schema schema;
    if (!args.has("target")) throw UsageError("--csv needs --target COL");
    if (!args.has("sensitive")) throw UsageError("--csv needs --sensitive COL[,COL]");
    schema.target = args.text("target");
    if (args.has("positive")) schema.positiveValues = {args.text("positive")};
    schema.sensitive = commaList(args.text("sensitive"));
    for (const std::string& column : commaList(args.text("categorical"))) {
        schema.columns[column].role = ColumnRole::Categorical;
    }
    for (const std::string& column : commaList(args.text("ignore"))) {
        schema.columns[column].role = ColumnRole::Ignore;
    }
    schema.missingToken = args.text("missing");
    schema.missingPolicy = MissingPolicy::DropRow;
    schema.skipMalformedRows = args.has("skip-bad-rows");
    if (args.has("sensitive-threshold")) {
        schema.sensitiveThreshold =
            Arguments::parseNumber("sensitive-threshold", args.text("sensitive-threshold"), false);
    }
    schema.validate();
    return schema;
}

/// The settings' command-line options: --NAME VALUE, and --NAME / --no-NAME for on/off
/// settings. The sweep's coordinates (fairness, epsilon, lambda, seed) are lists and have
/// options of their own.
std::vector<const ParamSpec*> settingOptions() {
    std::vector<const ParamSpec*> options;
    for (const ParamSpec& spec : allParameters()) {
        if (spec.role == ParamRole::Setting) options.push_back(&spec);
    }
    return options;
}

void applySettings(const Arguments& args, TrainConfig& base) {
    for (const ParamSpec* spec : settingOptions()) {
        if (spec->kind == ParamKind::Flag) {
            if (args.has(spec->name) && args.has("no-" + spec->name)) {
                throw UsageError("give --" + spec->name + " or --no-" + spec->name + ", not both");
            }
            if (args.has(spec->name)) spec->set(base, "true");
            if (args.has("no-" + spec->name)) spec->set(base, "false");
        } else if (args.has(spec->name)) {
            setParameter(base, *spec, args.text(spec->name));
        }
    }
}

/// `text` wrapped to lines of at most `width` characters, every line after the first
/// indented by `indent`.
std::string wrapped(const std::string& text, std::size_t indent, std::size_t width) {
    std::string out, line;
    std::stringstream words(text);
    std::string word;
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > width - indent) {
            out += line + "\n" + std::string(indent, ' ');
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    return out + line;
}

/// Where --help's descriptions start, and how wide its lines are.
constexpr std::size_t kColumn = 30;
constexpr std::size_t kWidth = 96;

/// A help line's first column: its option, padded to the description column.
std::string helpColumn(std::string line) {
    if (line.size() + 1 > kColumn) return line + "\n" + std::string(kColumn, ' ');
    return line + std::string(kColumn - line.size(), ' ');
}

/// The canonical value of declared option --NAME (a UsageError naming the option and its rule
/// when the value is invalid).
std::string optionValue(const Arguments& args, const ParamSpec& spec) {
    try {
        return parseParameter(spec, args.text(spec.name));
    } catch (const InputError&) {
        throw UsageError("--" + spec.name + " " + args.text(spec.name) +
                         " is invalid: " + parameterRule(spec));
    }
}

/// The declared settings of the request (`settings`: the split's) given on the command line.
void applyDeclaredOptions(const Arguments& args, const std::vector<GeneratorKnob>& settings,
                          DatasetRequest& request) {
    for (const GeneratorKnob& setting : settings) {
        if (args.has(setting.spec.name)) setting.set(request, optionValue(args, setting.spec));
    }
}

/// The help lines of declared options: --NAME VALUE, its help, default and rule.
std::string declaredOptionsHelp(const std::vector<GeneratorKnob>& settings, const char* indent) {
    std::string help;
    for (const GeneratorKnob& setting : settings) {
        const ParamSpec& spec = setting.spec;
        std::string text =
            spec.help + ". Default " + spec.defaultValue + "; " + parameterRule(spec) + ".";
        if (!setting.needs.empty()) text += " Needs --" + setting.needs + ".";
        const char* metavar = spec.kind == ParamKind::Integer  ? " N"
                              : spec.kind == ParamKind::Choice ? " M"
                              : spec.kind == ParamKind::Text   ? " TEXT"
                                                               : " X";
        help += helpColumn(indent + ("--" + spec.name) + metavar) + wrapped(text, kColumn, kWidth) +
                "\n";
    }
    return help;
}

/// The generators' part of --help, generated from their declarations: each generator with its
/// knobs (--NAME, only with that --dataset).
std::string generatorsHelp() {
    std::string help = "generated data (each knob only with its --dataset):\n";
    for (const DataGenerator& generator : dataGenerators()) {
        help += helpColumn("  " + generator.name) +
                wrapped(generator.title + ": " + generator.description, kColumn, kWidth) + "\n";
        help += declaredOptionsHelp(generator.knobs, "    ");
    }
    return help;
}

/// The generator knobs given on the command line (--NAME VALUE for each declared knob) on top
/// of the request's (a preset's, or the defaults). A knob of another generator than the
/// request's, an invalid value, or a knob whose companion is zero is a usage error.
void applyGeneratorKnobs(const Arguments& args, DatasetRequest& request) {
    std::vector<const GeneratorKnob*> given;
    for (const DataGenerator& generator : dataGenerators()) {
        for (const GeneratorKnob& knob : generator.knobs) {
            const std::string& name = knob.spec.name;
            if (!args.has(name)) continue;
            if (generator.name != request.name)
                throw UsageError("--" + name + " only goes with --dataset " + generator.name);
            knob.set(request, optionValue(args, knob.spec));
            given.push_back(&knob);
        }
    }
    for (const GeneratorKnob* knob : given) {
        if (const GeneratorKnob* needed = unmetNeed(request, *knob))
            throw UsageError("--" + knob->spec.name + " needs --" + needed->spec.name);
    }
}

/// A choice's values for --help: " VALUE: HELP; …; auto: MEANING." ("" for other kinds).
std::string choicesHelp(const ParamSpec& spec) {
    std::string text;
    for (const ParamChoice& choice : spec.choices)
        text += " " + choice.value + ": " + choice.help + ";";
    if (spec.kind == ParamKind::Choice && spec.hasAuto())
        text += " auto: " + spec.autoMeaning + ";";
    if (!text.empty()) text.back() = '.';
    return text;
}

/// The silo split's part of --help, generated from its declarations (silo_settings.h): a
/// required setting has no default, and a setting of some methods says which.
std::string siloOptionsHelp() {
    std::string help = "silos (for privacy per institution; any data set):\n";
    for (const SiloSetting& setting : siloSettings()) {
        const ParamSpec& spec = setting.knob.spec;
        std::string text = spec.help + "." + choicesHelp(spec);
        const std::string withMethods = " --silo-split " + setting.methodNames();
        text += setting.required ? " Needed with" + withMethods : " Default " + spec.defaultValue;
        if (spec.kind == ParamKind::Real || spec.kind == ParamKind::Integer)
            text += "; " + parameterRule(spec);
        if (!setting.required && !setting.methods.empty()) text += ". Only with" + withMethods;
        help += helpColumn("  --" + spec.name + " " + setting.metavar) +
                wrapped(text + ".", kColumn, kWidth) + "\n";
    }
    return help;
}

/// The "algorithms:" and "settings:" parts of --help, generated from the declarations.
std::string settingsHelp() {
    std::string help = "algorithms:\n";
    for (const auto& algorithm : algorithmRegistry()) {
        help += helpColumn("  " + algorithm->name()) +
                wrapped(algorithm->description(), kColumn, kWidth) + "\n";
    }
    help += "settings (the algorithms each applies to in [ ]; * = may be an --axis):\n";
    for (const ParamSpec* spec : settingOptions()) {
        std::string line = "  --" + spec->name;
        switch (spec->kind) {
            case ParamKind::Flag:
                line += ", --no-" + spec->name;
                break;
            case ParamKind::Integer:
                line += " N";
                break;
            case ParamKind::Real:
                line += " X";
                break;
            case ParamKind::Choice:
                line += " MODE";
                break;
            case ParamKind::Text:
                line += " TEXT";
                break;
        }
        if (spec->sweepable) line += " *";
        std::string text = spec->help + "." + choicesHelp(*spec);
        text += " Default: ";
        if (spec->isAuto(spec->defaultValue))
            text += "auto";
        else if (spec->kind == ParamKind::Flag)
            text += spec->defaultValue == "true" ? "on" : "off";
        else
            text += valueWithUnit(*spec, spec->defaultValue);
        if (spec->kind == ParamKind::Real || spec->kind == ParamKind::Integer) {
            text += "; " + parameterRule(*spec);
        }
        text += ". [" + algorithmsReading(spec->name) + "]";
        help += helpColumn(line) + wrapped(text, kColumn, kWidth) + "\n";
    }
    return help;
}

/// The silo options given on the command line (--silos, --silo-split, …: silo_settings.h) on
/// top of the request's silos (a preset's, or none).
void applySiloOptions(const Arguments& args, DatasetRequest& request) {
    std::map<std::string, std::string> given;
    for (const SiloSetting& setting : siloSettings()) {
        if (args.has(setting.name())) given[setting.name()] = args.text(setting.name());
    }
    try {
        applySiloSettings(request, given, "--");
    } catch (const InputError& error) {
        throw UsageError(error.what());
    }
}

/// One line each for the users and the silos of the data, when it has them (the privacy unit
/// of user- and silo-level algorithms).
void printUnitSummary(const DataSplit& split) {
    const Dataset& train = split.train;
    if (train.users) {
        std::fprintf(stderr,
                     "users: %ld people (column '%s') in the training rows, %ld to %ld %ss each; "
                     "%ld in the test rows\n",
                     train.users->units(), train.personColumn.c_str(),
                     train.users->minRowsPerUnit(), train.users->maxRowsPerUnit(),
                     train.unitName.c_str(), split.test.users ? split.test.users->units() : 0L);
    }
    if (train.silos) {
        std::fprintf(stderr, "silos: %ld with training rows, %ld to %ld rows each (%s)\n",
                     train.silos->units(), train.silos->minRowsPerUnit(),
                     train.silos->maxRowsPerUnit(), train.siloDescription.c_str());
    }
}

}  // namespace

int trainCommand(int argc, char** argv) {
    std::set<std::string> valued = {"dataset",
                                    "csv",
                                    "target",
                                    "positive",
                                    "sensitive",
                                    "categorical",
                                    "ignore",
                                    "missing",
                                    "data-dir",
                                    "preset",
                                    "algorithm",
                                    "fairness",
                                    "epsilon",
                                    "lambda",
                                    "seeds",
                                    "axis",
                                    "threads",
                                    "out",
                                    "shard",
                                    "tuning",
                                    "tune-criterion",
                                    "tune-validation",
                                    "sensitive-threshold",
                                    "stability",
                                    "write-manifest",
                                    "shards"};
    for (const DataGenerator& generator : dataGenerators()) {
        for (const GeneratorKnob& knob : generator.knobs) valued.insert(knob.spec.name);
    }
    for (const GeneratorKnob& setting : splitSettings()) valued.insert(setting.spec.name);
    for (const SiloSetting& setting : siloSettings()) valued.insert(setting.name());
    std::set<std::string> flags = {"help", "quiet", "no-resume", "skip-bad-rows", "auto-tune"};
    for (const ParamSpec* spec : settingOptions()) {
        if (spec->kind == ParamKind::Flag) {
            flags.insert(spec->name);
            flags.insert("no-" + spec->name);
        } else {
            valued.insert(spec->name);
        }
    }
    const Arguments args(argc, argv, 2, valued, flags);
    if (args.has("help")) {
        std::fputs(kTrainHelpHead, stdout);
        std::fputs(declaredOptionsHelp(splitSettings(), "  ").c_str(), stdout);
        std::fputs(generatorsHelp().c_str(), stdout);
        std::fputs(siloOptionsHelp().c_str(), stdout);
        std::fputs(kTrainHelpSweep, stdout);
        std::fputs(settingsHelp().c_str(), stdout);
        std::fputs(kTrainHelpTail, stdout);
        return 0;
    }
    if (!args.has("out")) throw UsageError("--out FILE.jsonl is required");
    if (args.has("csv") && args.has("dataset"))
        throw UsageError("give --dataset or --csv, not both");

    // The sweep: a preset's, then every explicit option on top.
    SweepSpec spec;
    DatasetRequest request;
    const SweepPreset* preset = nullptr;
    SweepPreset presetFromFile;
    if (args.has("preset")) {
        // A name, or a sweep file (a preset description, e.g. written by the application).
        const std::string named = args.text("preset");
        const bool isFile = named.find('/') != std::string::npos ||
                            (named.size() > 5 && named.compare(named.size() - 5, 5, ".json") == 0);
        if (isFile) {
            presetFromFile = readSweepPresetFile(named);
            preset = &presetFromFile;
        } else {
            preset = &findSweepPreset(named);
            if (preset->name != named)
                std::fprintf(stderr, "note: preset %s is now called %s\n", named.c_str(),
                             preset->name.c_str());
        }
        spec = preset->spec;
        request = preset->dataset;
        std::fprintf(stderr, "preset %s: %s\n", preset->name.c_str(), preset->title.c_str());
    }
    if (args.has("csv")) {
        request.name = "file";
        request.filePath = args.text("csv");
        request.schema = schemaFromOptions(args);
    } else {
        if (args.has("dataset")) request.name = args.text("dataset");
        // A clear error early (a sweep file's own file was read above).
        if (request.name != "file" && !findGenerator(request.name)) findCatalogEntry(request.name);
        if (args.has("sensitive")) request.sensitive = args.text("sensitive");
        for (const char* csvOnly : {"target", "positive", "categorical", "ignore", "missing",
                                    "skip-bad-rows", "sensitive-threshold"}) {
            if (args.has(csvOnly))
                throw UsageError(std::string("--") + csvOnly + " only goes with --csv");
        }
    }
    request.dataDirectory = args.text("data-dir", request.dataDirectory);
    applyGeneratorKnobs(args, request);
    applySiloOptions(args, request);
    applyDeclaredOptions(args, splitSettings(), request);

    if (args.has("algorithm")) spec.algorithms = commaList(args.text("algorithm"));
    for (const std::string& algorithm : spec.algorithms) findAlgorithm(algorithm);
    if (args.has("fairness")) {
        spec.notions.clear();
        for (const std::string& notion : commaList(args.text("fairness"))) {
            spec.notions.push_back(parseFairnessNotion(notion));
        }
    }
    spec.epsilons = args.numberList("epsilon", spec.epsilons, true);
    // The budgets a person may ask for, as in the GUI (a split budget's shares may be smaller).
    for (double epsilon : spec.epsilons) {
        if (const std::string problem = offeredEpsilonProblem(epsilon); !problem.empty())
            throw InputError(problem);
    }
    spec.lambdas = args.numberList("lambda", spec.lambdas, false);
    spec.seeds = args.seedList("seeds", spec.seeds);
    if (args.has("axis")) spec.axes = parseAxes(args.text("axis"));
    if (args.has("tuning")) spec.tuning = parseTuning(args.text("tuning"));
    for (const std::string& name : spec.algorithms) {
        const Algorithm& algorithm = findAlgorithm(name);
        const bool finiteEpsilon = std::any_of(spec.epsilons.begin(), spec.epsilons.end(),
                                               [](double e) { return std::isfinite(e); });
        if (!algorithm.supportsPrivacy() && args.has("epsilon") && finiteEpsilon) {
            std::fprintf(stderr, "note: %s is not private: it runs once, at epsilon = inf\n",
                         name.c_str());
        }
        if (!algorithm.usesFairness() && args.has("lambda")) {
            std::fprintf(stderr, "note: %s has no fairness term: it runs once, at lambda = 0\n",
                         name.c_str());
        }
    }
    applySettings(args, spec.base);
    // The data sets: the request, or each data set of a preset's data axes (a generator's knob
    // swept), with the folder, split and silos asked for here. Options that change the data
    // itself replace the preset's data axes by that one data set.
    std::vector<DatasetRequest> requests{request};
    if (preset && !preset->dataVariants.empty()) {
        DatasetRequest asGiven = preset->dataset;
        asGiven.split = request.split;
        asGiven.silos = request.silos;
        if (datasetKey(asGiven) == datasetKey(request)) {
            requests = preset->dataVariants;
            for (DatasetRequest& variant : requests) {
                variant.dataDirectory = request.dataDirectory;
                variant.split = request.split;
                variant.silos = request.silos;
            }
        } else {
            std::fprintf(stderr,
                         "note: the data options given replace the preset's data axes (%zu data "
                         "sets) by one "
                         "data set\n",
                         preset->dataVariants.size());
        }
    }
    spec.datasets.clear();
    for (const DatasetRequest& r : requests) spec.datasets.push_back(datasetKey(r));

    SweepOptions options;
    options.outputPath = args.text("out");
    options.resume = !args.has("no-resume");
    const long threads = args.integer("threads", 0);
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be between 0 and 1024");
    options.threads = static_cast<int>(threads);
    if (args.has("shard"))
        std::tie(options.shardIndex, options.shardCount) = parseShard(args.text("shard"));
    const bool quiet = args.has("quiet");
    const long stabilityWindow = args.has("stability") ? args.integer("stability", 50) : 0;
    if (args.has("stability") && stabilityWindow < 2) {
        throw UsageError("--stability needs a number of evaluations >= 2");
    }

    auto prepareOne = [&](const DatasetRequest& wanted) -> PreparedDatasetPtr {
        try {
            return prepareDataset(wanted);
        } catch (const DataFileError& error) {
            // A short or long row stops the read unless asked otherwise: say how to ask, on the
            // same one line as the reason.
            const std::string message = error.what();
            if (wanted.name == "file" && !wanted.schema.skipMalformedRows &&
                message.find(" fields, found ") != std::string::npos) {
                std::string where = error.file();
                if (error.line() > 0) where.append(":").append(std::to_string(error.line()));
                if (!error.column().empty())
                    where.append(" (column '").append(error.column()).append("')");
                where.append(": ");
                const std::string problem =
                    message.rfind(where, 0) == 0 ? message.substr(where.size()) : message;
                throw DataFileError(error.file(), error.line(), error.column(),
                                    problem + " (--skip-bad-rows skips such rows and lists them)");
            }
            throw;
        }
    };
    std::vector<PreparedDatasetPtr> preparedAll;
    std::map<std::string, PreparedDatasetPtr> preparedByKey;
    for (const DatasetRequest& r : requests) {
        preparedAll.push_back(prepareOne(r));
        preparedByKey[datasetKey(r)] = preparedAll.back();
    }
    const PreparedDatasetPtr& prepared = preparedAll.front();
    const DatasetProvider provider = [&](const std::string& key) {
        const auto it = preparedByKey.find(key);
        if (it == preparedByKey.end()) throw InputError("no data set with the key " + key);
        return it->second;
    };
    // Bad values end here, before any run, with a one-line reason.
    const std::vector<SweepRun> runs =
        shardRuns(spec.expand(), options.shardIndex, options.shardCount);
    validateSweep(runs, provider);
    if (args.has("write-manifest")) {
        // The plan of a sharded sweep: every run's key and shard (as --shard I/N picks them).
        const long shards = args.integer("shards", 0);
        if (shards < 0 || shards > 100000)
            throw UsageError("--shards must be between 0 and 100000");
        SweepManifest manifest =
            planShards(spec.expand(), static_cast<long>(spec.seeds.size()), shards);
        manifest.name = std::filesystem::path(options.outputPath).stem().string();
        // The sweep's options, for the job scripts of its shards (what each task sets itself
        // left out).
        for (int i = 2; i < argc; ++i) {
            const std::string argument = argv[i];
            if (isSetByShardTask(argument)) {
                ++i;  // and its value
                continue;
            }
            if (isLeftOutOfShardTask(argument)) continue;
            manifest.trainArguments.push_back(argument);
        }
        manifest.shardFile = options.outputPath + ".{I}";
        manifest.mergedFile = options.outputPath;
        manifest.trainRows = prepared->context.trainRows;
        manifest.testRows = prepared->context.testRows;
        manifest.features = prepared->context.features;
        std::ofstream out(args.text("write-manifest"), std::ios::trunc);
        if (!(out << manifestJson(manifest)) || !out.flush())
            throw InputError("cannot write the manifest '" + args.text("write-manifest") + "'");
        std::printf("%zu run(s) in %d shard(s): manifest written to %s\n", manifest.runs.size(),
                    manifest.shards, args.text("write-manifest").c_str());
        return 0;
    }
    if (args.has("shards")) throw UsageError("--shards only goes with --write-manifest");
    for (const PreparedDatasetPtr& data : preparedAll) {
        std::fprintf(stderr,
                     "data: %s — %ld training rows, %ld test rows, %ld features, %d groups (%s)\n",
                     data->context.datasetDescription.c_str(), data->context.trainRows,
                     data->context.testRows, data->context.features, data->split.train.numGroups(),
                     data->split.train.sensitiveDescription.c_str());
    }
    for (const BadRow& bad : prepared->skippedBadRowList) {
        std::fprintf(stderr, "skipped %s: %s\n", request.filePath.c_str(),
                     describeBadRow(bad).c_str());
    }
    if (prepared->skippedBadRows > prepared->skippedBadRowList.size()) {
        std::fprintf(stderr, "skipped %zu more malformed row(s) of %s\n",
                     prepared->skippedBadRows - prepared->skippedBadRowList.size(),
                     request.filePath.c_str());
    }
    printUnitSummary(prepared->split);
    // δ is one setting of the whole sweep: warned about once, for its first private run.
    for (const SweepRun& run : runs) {
        if (!run.config.isPrivate()) continue;
        const std::string warning = deltaWarning(run.config, prepared->context.trainRows);
        if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
        break;
    }

    // Quiet: no line per run, but a line a minute at most, so that a batch job's log shows
    // that the sweep moves (and how far it is) before it ends.
    auto lastQuietLine = std::chrono::steady_clock::now();
    options.onRunFinished = [&](const SweepRun& run, const RunResult& r, const SweepProgress& p) {
        if (quiet) {
            const auto now = std::chrono::steady_clock::now();
            if (now - lastQuietLine < std::chrono::seconds(60)) return;
            lastQuietLine = now;
            std::fprintf(stderr, "[%zu/%zu] runs done, %zu failed, %.0f s so far (ETA %.0f s)\n",
                         p.finished + p.alreadyDone, p.total, p.failed, p.elapsedSeconds,
                         p.etaSeconds);
            return;
        }
        if (r.regression.known) {
            // A regression run: its error is the test MSE and it has no fairness metric.
            std::fprintf(
                stderr,
                "[%zu/%zu] %s eps=%s seed=%llu: %s, test MSE %.4f (RMSE %.4f, |w - w*| %s), "
                "violation n/a, eps spent %s (%.1f s; ETA %.0f s)\n",
                p.finished + p.alreadyDone, p.total, r.config.algorithm.c_str(),
                formatNumber(r.config.epsilon).c_str(),
                static_cast<unsigned long long>(run.config.seed), runStatusName(r.status).c_str(),
                r.regression.testMse, r.regression.testRmse,
                std::isnan(r.regression.weightError)
                    ? "unknown"
                    : formatNumber(r.regression.weightError, 4).c_str(),
                formatNumber(r.privacy.isPrivate ? r.privacy.epsilonSpent : INFINITY).c_str(),
                r.seconds, p.etaSeconds);
            if (r.status == RunStatus::Failed || r.status == RunStatus::Diverged) {
                std::fprintf(stderr, "    %s\n", r.message.c_str());
            }
            return;
        }
        std::fprintf(
            stderr,
            "[%zu/%zu] %s %s eps=%s lambda=%s seed=%llu: %s, test error %.4f, violation %.4f, "
            "eps spent %s (%.1f s; ETA %.0f s)\n",
            p.finished + p.alreadyDone, p.total, r.config.algorithm.c_str(),
            fairnessCode(r.config.fairness).c_str(), formatNumber(r.config.epsilon).c_str(),
            formatNumber(r.config.lambda).c_str(), static_cast<unsigned long long>(run.config.seed),
            runStatusName(r.status).c_str(), r.test.error, r.test.violation(r.config.fairness),
            formatNumber(r.privacy.isPrivate ? r.privacy.epsilonSpent : INFINITY).c_str(),
            r.seconds, p.etaSeconds);
        if (r.status == RunStatus::Failed || r.status == RunStatus::Diverged) {
            std::fprintf(stderr, "    %s\n", r.message.c_str());
        }
    };
    // Every execution is charged to the persistent ledger of its rows at once, whatever becomes
    // of the results file.
    const privacy::LedgerStore ledgerStore(ledgerDirectory());
    options.onCharge = [&ledgerStore](const RunContext& context,
                                      const std::vector<privacy::LedgerEntry>& entries) {
        chargeLedgerStore(ledgerStore, context, entries, "pfa-cli train");
    };
    CancelToken never;
    const bool autoTuned = args.has("auto-tune");
    AutoTuneOptions tune;
    if (args.has("tune-criterion"))
        tune.criterion = parseTuneCriterion(args.text("tune-criterion"));
    tune.validationFraction = args.number("tune-validation", tune.validationFraction);
    if (autoTuned && spec.tuning == Tuning::SplitBudget) {
        throw UsageError(
            "--auto-tune goes with --tuning not-covered: its trials are chosen by their results");
    }
    if (!autoTuned && (args.has("tune-criterion") || args.has("tune-validation"))) {
        throw UsageError("--tune-criterion and --tune-validation only go with --auto-tune");
    }
    const SweepOutcome outcome = autoTuned ? runAutoTuneSweep(spec, provider, options, tune, never)
                                           : runSweep(spec, provider, options, never);

    // Summary over every run of this sweep in the results file (including resumed ones).
    std::set<std::string> keys;
    for (const SweepRun& run : runs) keys.insert(autoTuned ? "auto-tune|" + run.key : run.key);
    // One read of the results file serves the summary (this sweep's runs) and the ledger
    // (every run on the same data in the file).
    const std::vector<JsonValue> fileRecords = readResultsFile(options.outputPath).records;
    std::vector<JsonValue> records, sameData;
    for (const JsonValue& record : fileRecords) {
        if (record.has("run_key") && keys.count(record.at("run_key").asString()))
            records.push_back(record);
        const std::string ledger = recordLedgerKey(record);
        if (std::any_of(preparedAll.begin(), preparedAll.end(),
                        [&](const PreparedDatasetPtr& data) {
                            return data->context.ledgerKey == ledger;
                        })) {
            sameData.push_back(record);
        }
    }
    // One line per cell at each run's headline point; a run's own curve (post-processing's γ)
    // would add dozens of lines per ε: it is named below and drawn by the tradeoff views.
    const std::vector<SweepCell> cells = summarizeRecords(records, false);
    const std::string described = preparedAll.size() == 1
                                      ? prepared->context.datasetDescription
                                      : std::to_string(preparedAll.size()) + " data sets";
    std::printf("\n%s, %zu run(s): %zu finished now, %zu already in %s, %zu failed\n",
                described.c_str(), runs.size(), outcome.progress.finished,
                outcome.progress.alreadyDone, options.outputPath.c_str(), outcome.progress.failed);
    std::size_t failed = 0;
    printCellTable(cells, records, failed);
    if (stabilityWindow > 0) {
        std::printf(
            "\nviolation over each run's last %ld evaluations (mean +/- sd over the seeds):\n",
            stabilityWindow);
        std::printf("%-9s %-5s %-8s %-10s %-18s %-18s %-18s %-6s\n", "algorithm", "notion",
                    "epsilon", "lambda", "sd", "mean |change|", "drift", "evals");
        for (const SweepCell& cell : cells) {
            std::vector<double> sd, step, drift;
            std::size_t evaluations = 0;
            for (std::size_t index : cell.recordIndices) {
                const JsonValue& record = records[index];
                if (!record.has("history") || !record.at("history").has("violation")) continue;
                const ViolationStability s =
                    violationStability(record.at("history").at("violation").numbers(),
                                       static_cast<std::size_t>(stabilityWindow));
                sd.push_back(s.sd);
                step.push_back(s.meanStep);
                drift.push_back(s.drift);
                evaluations = std::max(evaluations, s.evaluations);
            }
            std::printf("%-9s %-5s %-8s %-10s %-18s %-18s %-18s %-6zu\n", cell.algorithm.c_str(),
                        cell.fairness.c_str(), formatNumber(cell.epsilon).c_str(),
                        curvePointOf(cell).c_str(), meanSdText(meanSd(sd), 4).c_str(),
                        meanSdText(meanSd(step), 4).c_str(), meanSdText(meanSd(drift), 4).c_str(),
                        evaluations);
        }
    }
    if (!records.empty()) {
        std::printf(
            "eps spent: the largest certified epsilon over the seeds, from the Rényi-DP accountant "
            "(see each line's privacy statement for delta and what is protected)\n");
    }
    // The privacy ledger of this data set: every private run on it in the results file
    // (this sweep, resumed runs and earlier sweeps), composed by the accountant.
    {
        std::printf("\n");
        const std::vector<privacy::DatasetLedger> ledgers = ledgersFromRecords(sameData);
        if (ledgers.empty()) {
            std::printf("privacy ledger of %s: nothing spent (no private run in %s)\n",
                        prepared->context.ledgerKey.c_str(), options.outputPath.c_str());
        }
        for (const privacy::DatasetLedger& ledger : ledgers) printLedger(ledger, false);
        std::printf(
            "(every private run on this data set in %s; 'pfa-cli ledger %s --runs' lists them)\n",
            options.outputPath.c_str(), options.outputPath.c_str());
        // The ledger of the rows themselves: every program, session and results file.
        std::set<std::string> shown;
        for (const PreparedDatasetPtr& data : preparedAll) {
            if (data->context.dataFingerprint.empty() ||
                !shown.insert(data->context.dataFingerprint).second)
                continue;
            printStoredLedger(ledgerStore.read(data->context.dataFingerprint), false);
        }
    }
    if (!outcome.chargeError.empty()) {
        std::fprintf(stderr, "error: the persistent privacy ledger could not be charged: %s\n",
                     outcome.chargeError.c_str());
        return 1;
    }
    std::printf("\n%s", fairnessFormulaText().c_str());
    std::printf("\nwall time %.1f s with %d thread(s)\n", outcome.progress.elapsedSeconds,
                options.threads > 0 ? options.threads : availableCpus());
    return failed > 0 ? 1 : 0;
}

}  // namespace pfa::cli
