// pfa-cli export-model: writes the model file of one run (what File → Export model… writes).
#include <cstdio>
#include <string>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/report/report_model.h"
#include "core/sweep/run_record.h"
#include "core/sweep/saved_model.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/error.h"

namespace pfa::cli {

namespace {

const char* const kExportModelHelp =
    "usage: pfa-cli export-model --run RESULTS.jsonl[:RUN] --out MODEL.json [options]\n"
    "\n"
    "Writes the model of one run as a file to hand on (pfa-cli predict --run MODEL.json\n"
    "applies it). The file holds the model parameters, the settings, the protected unit\n"
    "and adjacency, the privacy statement with the exact inputs of its epsilon, and what is\n"
    "needed to apply the model to raw rows: the columns and their encoding. The encoding's\n"
    "statistics (the categories kept, the means and standard deviations of the numeric\n"
    "columns) are computed from the training rows without noise; the file labels them as\n"
    "not protected. It never holds the wall time or the run's ledger identity, and for a\n"
    "private run never its seed or its run key (which contains the seed).\n"
    "\n"
    "A private run whose noise was derived from its seed is refused: its guarantee holds\n"
    "only while nobody can regenerate that noise, which a file that leaves the machine\n"
    "cannot promise. Train it again with Secure noise (OS entropy), --secure-noise (the\n"
    "refusal prints the command), or pass --allow-seeded-noise.\n"
    "\n"
    "  --run FILE[:RUN]       a results file (pfa-cli train, a GUI sweep) or a model file;\n"
    "                         choose a run as in pfa-cli predict (FILE:#3, FILE:RUN_KEY)\n"
    "  --out MODEL.json       the model file to write\n"
    "  --with-test-metrics    add the test error, fairness violations and per-group rates\n"
    "                         (computed on the test rows, which are not protected)\n"
    "  --with-diagnostics     add the training-set diagnostics the run recorded (training\n"
    "                         loss, objective, clip fraction per epoch) and the number of\n"
    "                         training rows: exact on the private rows, not protected\n"
    "  --allow-seeded-noise   export a run with seeded noise anyway (the seed is left out)\n"
    "  --help                 this text\n"
    "\n"
    "Exit status 1 for a data problem (no model in the record, a file that cannot be\n"
    "written), 2 for a bad command line or a refused run.\n";

/// The pfa-cli command that trains `model`'s run again with secure noise ("" when its
/// record has no run key).
std::string secureRerunCommand(const SavedModel& model) {
    if (model.context.runKey.empty()) return {};
    RunContext context = model.context;
    context.runKey = withKeySetting(context.runKey, "noise", "os-entropy");
    const JsonValue record = parseJson(runRecordJson(model.run, context));
    std::string command = report::reproduceCommand(record);
    const std::string out = " --out rerun.jsonl";
    if (command.size() >= out.size() &&
        command.compare(command.size() - out.size(), out.size(), out) == 0)
        command.replace(command.size() - out.size(), out.size(), " --out secure.jsonl");
    return command;
}

void printList(const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    std::fprintf(stderr, "%s\n", title);
    for (const std::string& item : items) std::fprintf(stderr, "  - %s\n", item.c_str());
}

}  // namespace

int exportModelCommand(int argc, char** argv) {
    const Arguments args(argc, argv, 2, {"run", "out"},
                         {"help", "with-test-metrics", "with-diagnostics", "allow-seeded-noise"});
    if (args.has("help")) {
        std::fputs(kExportModelHelp, stdout);
        return 0;
    }
    if (!args.has("run")) throw UsageError("--run RESULTS.jsonl[:RUN] is required");
    if (!args.has("out")) throw UsageError("--out MODEL.json is required");
    const auto [file, selector] = splitModelSpec(args.text("run"));
    const std::string outPath = args.text("out");
    if (outPath == file) throw UsageError("--out must not overwrite the input file");

    const SavedModel model = loadSavedModel(file, selector);
    ModelExportOptions options;
    options.testMetrics = args.has("with-test-metrics");
    options.diagnostics = args.has("with-diagnostics");
    if (model.fromExport && options.diagnostics)
        throw InputError("--with-diagnostics: " + file +
                         " is a model file, which holds no "
                         "training-set diagnostics; export from the results file instead");
    if (model.fromExport && options.testMetrics && !model.testMetricsKnown)
        throw InputError("--with-test-metrics: " + file +
                         " is a model file without test "
                         "metrics; export from the results file instead");
    const std::string warning = seededNoiseWarning(model.run);
    if (!warning.empty() && !args.has("allow-seeded-noise")) {
        const std::string command = secureRerunCommand(model);
        throw InputError("refused: " + warning +
                         (command.empty()
                              ? std::string()
                              : " To train it again with secure noise: " + command + ".") +
                         " To export this run anyway, add --allow-seeded-noise");
    }
    const std::string text = modelExportJson(model.run, model.context, options) + "\n";

    std::FILE* out = std::fopen(outPath.c_str(), "w");
    if (!out) throw DataFileError(outPath, 0, "", "cannot write the model here");
    const bool written = std::fwrite(text.data(), 1, text.size(), out) == text.size() &&
                         std::fflush(out) == 0 && !std::ferror(out);
    std::fclose(out);
    if (!written) throw DataFileError(outPath, 0, "", "writing the model failed");

    const ModelExportContents contents = modelExportContents(model.run, model.context, options);
    std::fprintf(stderr, "model of %s record #%zu written to %s (protected: %s)\n", file.c_str(),
                 model.recordIndex, outPath.c_str(), contents.protection.c_str());
    printList("it holds:", contents.holds);
    printList("it holds, NOT protected:", contents.notProtected);
    printList("left out:", contents.leftOut);
    if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
    return 0;
}

}  // namespace pfa::cli
