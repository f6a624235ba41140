// pfa-cli audit: the empirical privacy audit (membership inference with a canary record).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/algorithms/registry.h"
#include "core/audit/audit_export.h"
#include "core/audit/privacy_audit.h"
#include "core/config/parameters.h"
#include "core/sweep/prepared_dataset.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/sweep/run_record.h"
#include "core/sweep/sweep_summary.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

const char* const kAuditHelp =
    "usage: pfa-cli audit [--dataset NAME] [--algorithm NAME] [--epsilons LIST]\n"
    "                     [--method many-models|one-run|white-box] [--models M] [--canaries M]\n"
    "                     [--settings-from RESULTS.jsonl [--record N]]\n"
    "                     [--broken-noise-divisor K] [--threads N] [--seed S]\n"
    "                     [--confidence C] [--out audit.json]\n"
    "\n"
    "Empirical privacy audit: for each target epsilon, trains M models on the training rows\n"
    "and M models on the same rows plus one canary record (a point far outside the data,\n"
    "labelled with the class the data predicts against there: for two classes the losing\n"
    "side of the linear discriminant, otherwise the rarest class), each with its own seed,\n"
    "and scores the canary under every released model. Half of the models choose the\n"
    "attack's threshold, the other half measure its\n"
    "true- and false-positive rates; one-sided Clopper-Pearson bounds on them (error\n"
    "(1 - C)/2 each) give a lower bound on epsilon that holds with confidence C if the\n"
    "mechanism is (epsilon, delta)-DP. A lower bound above the claimed epsilon proves the\n"
    "claim false; one below it is consistent with the claim but never proves it.\n"
    "\n"
    "--method one-run (black box) and white-box audit in one training run, or a few\n"
    "(Steinke, Nasr and Jagielski 2023): M canaries, each put in with probability 1/2\n"
    "by a coin flip; the attack calls the r highest-scoring canaries members and the\n"
    "number it gets right bounds epsilon (r tried among 10, 20, 50, 100, ... with the\n"
    "error split between them). one-run inserts records far outside the data along\n"
    "random directions (at most one per 20 training rows and run) and scores their\n"
    "margins under the released model. white-box inserts gradient canaries: each adds\n"
    "the clip bound to one coordinate of the clipped gradient sum whenever the run's\n"
    "Poisson sampler draws it; the rows' own gradients are removed from the sum (the\n"
    "data set on which the claim is hardest to keep), and the attack sees every\n"
    "released noisy gradient and sums each canary's likelihood ratio over the steps.\n"
    "It needs an algorithm with a clipped, noised gradient step (dp-sgd, dp-fermi, ...).\n"
    "Per epsilon it prints the accountant's epsilon, the lower bound, TPR and FPR with their\n"
    "bounds, the models trained and the seconds taken. Every model trained is a private run\n"
    "on the training rows: each is charged to the data set's persistent privacy ledger\n"
    "('pfa-cli ledger --help'), and the audit ends with that ledger's total.\n"
    "\n"
    "  --dataset NAME              synthetic (default) or a catalog data set\n"
    "  --data-dir DIR              folder of a catalog data set's files\n"
    "  --synthetic-rows N          rows of the synthetic data (default 2000: 1500 training\n"
    "                              rows, so that many models train quickly)\n"
    "  --algorithm NAME            a private record-level algorithm analysed under add/remove\n"
    "                              adjacency with Poisson sampling (default dp-sgd)\n"
    "  --epsilons LIST             target epsilons, e.g. 1,4,16 (default 1,4,16)\n"
    "  --method NAME               many-models (default), one-run or white-box\n"
    "  --models M                  many-models: models per world (with / without the\n"
    "                              canary), >= 4 (default 200; 2*M models per epsilon)\n"
    "  --canaries M                one-run, white-box: canaries in all, >= 10 (default 1000)\n"
    "  --settings-from FILE        audit the settings of a run in a results file (its\n"
    "                              algorithm and every setting; its epsilon unless\n"
    "                              --epsilons is given) on its data set (give --dataset,\n"
    "                              --data-dir as for the run)\n"
    "  --record N                  with --settings-from: the N-th record (default: the last)\n"
    "  --broken-noise-divisor K    DELIBERATELY BROKEN dp-sgd, for demonstration: claims the\n"
    "                              target epsilon but adds its noise divided by K (> 1)\n"
    "  --threads N                 training threads (default: all cores)\n"
    "  --seed S                    seed of the models' seeds (default 1)\n"
    "  --confidence C              confidence of the lower bound, in (0, 1) (default 0.95)\n"
    "  --epochs E, --batch-size B, --lr-theta X, --clip-theta C, --delta D, --lambda L\n"
    "                              the trained configuration (defaults: 40 epochs, batch 64,\n"
    "                              clip 10 - a large clip lets one record move the model, a\n"
    "                              sharper test - otherwise the algorithm's defaults)\n"
    "  --out FILE                  also write the audit as JSON\n"
    "  --help                      this text\n";

const char* const kConfigOptions[] = {"epochs",     "batch-size", "lr-theta",
                                      "clip-theta", "delta",      "lambda"};

}  // namespace

int auditCommand(int argc, char** argv) {
    std::set<std::string> valued = {"dataset",
                                    "data-dir",
                                    "synthetic-rows",
                                    "algorithm",
                                    "epsilons",
                                    "models",
                                    "broken-noise-divisor",
                                    "threads",
                                    "seed",
                                    "confidence",
                                    "out",
                                    "method",
                                    "canaries",
                                    "settings-from",
                                    "record"};
    for (const char* option : kConfigOptions) valued.insert(option);
    const Arguments args(argc, argv, 2, valued, {"help"});
    if (args.has("help")) {
        std::fputs(kAuditHelp, stdout);
        return 0;
    }

    DatasetRequest request;
    request.name = args.text("dataset", "synthetic");
    request.dataDirectory = args.text("data-dir");
    request.knobs<SyntheticOptions>().rows = static_cast<int>(args.integer("synthetic-rows", 2000));
    if (args.has("synthetic-rows") && request.name != "synthetic") {
        throw UsageError("--synthetic-rows only goes with --dataset synthetic");
    }

    audit::AuditOptions options;
    std::optional<double> recordEpsilon;
    std::string recordDataset;  // the data set's key in the record's run key
    std::string recordDatasetName;
    if (args.has("settings-from")) {
        if (args.has("algorithm"))
            throw UsageError("--algorithm goes with its own settings, not --settings-from");
        const ResultsFileContent content = readResultsFile(args.text("settings-from"));
        if (content.records.empty()) {
            throw InputError(notAResultsFile(args.text("settings-from"), content));
        }
        const long index = args.integer("record", static_cast<long>(content.records.size()));
        if (index < 1 || index > static_cast<long>(content.records.size())) {
            throw UsageError("--record must be between 1 and " +
                             std::to_string(content.records.size()));
        }
        RunContext context;
        const RunResult run =
            runResultFromJson(content.records[static_cast<std::size_t>(index - 1)], &context);
        options.config = run.config;
        recordEpsilon = run.config.epsilon;
        recordDataset = datasetOfRunKey(context.runKey);
        recordDatasetName =
            context.datasetDescription.empty() ? run.dataset : context.datasetDescription;
    } else {
        if (args.has("record")) throw UsageError("--record goes with --settings-from");
        options.config.algorithm = args.text("algorithm", audit::kAuditedAlgorithm);
        // Unknown names throw, listing the known ones. λ: a fairness method keeps its default.
        if (!findAlgorithm(options.config.algorithm).usesFairness()) options.config.lambda = 0.0;
        options.config.epochs = 40;
        options.config.batchSize = 64;
        options.config.clipTheta = 10.0;
    }
    options.method = audit::auditMethodFromKey(args.text("method", "many-models"));
    const long canaries = args.integer("canaries", 1000);
    if (canaries < 10 || canaries > 1000000)
        throw UsageError("--canaries must be between 10 and 1000000");
    options.canaries = canaries;
    for (const char* option : kConfigOptions) {
        if (!args.has(option)) continue;
        const ParamSpec* spec = findParameter(option);
        if (spec == nullptr) throw UsageError(std::string("--") + option + " is not a setting");
        setParameter(options.config, *spec, args.text(option));
    }
    options.epsilons = args.numberList(
        "epsilons",
        recordEpsilon ? std::vector<double>{*recordEpsilon} : std::vector<double>{1.0, 4.0, 16.0},
        false);
    const long models = args.integer("models", 200);
    if (models < 4 || models > 1000000) throw UsageError("--models must be between 4 and 1000000");
    options.modelsPerWorld = static_cast<int>(models);
    options.brokenNoiseDivisor = args.number("broken-noise-divisor", 1.0);
    if (args.has("broken-noise-divisor") && !(options.brokenNoiseDivisor > 1.0)) {
        throw UsageError("--broken-noise-divisor must be greater than 1");
    }
    const long threads = args.integer("threads", 0);
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be between 0 and 1024");
    options.threads = static_cast<int>(threads);
    const long seed = args.integer("seed", 1);
    if (seed < 0) throw UsageError("--seed must be a non-negative integer");
    options.seed = static_cast<std::uint64_t>(seed);
    options.confidence = args.number("confidence", 0.95);
    if (!(options.confidence > 0.0 && options.confidence < 1.0)) {
        throw UsageError("--confidence must lie strictly between 0 and 1 (e.g. 0.95)");
    }

    const PreparedDatasetPtr dataset = prepareDataset(request);
    // The run's data set and split, by the record's run key: the audit must train on those.
    if (!recordDataset.empty() && recordDataset != dataset->key) {
        throw InputError("the record's run was trained on " + recordDatasetName + " (" +
                         recordDataset + "), not on " + dataset->context.datasetDescription + " (" +
                         dataset->key +
                         "): give its data set (--dataset, --data-dir, --synthetic-rows, ...)");
    }
    const std::string problem = audit::auditApplicability(options, dataset->split);
    if (!problem.empty()) throw InputError("the audit does not apply: " + problem);

    std::printf("privacy audit of %s on %s (%ld training rows + canary)\n",
                options.brokenNoiseDivisor > 1.0 ? ("DELIBERATELY BROKEN dp-sgd (noise / " +
                                                    formatNumber(options.brokenNoiseDivisor) + ")")
                                                       .c_str()
                                                 : options.config.algorithm.c_str(),
                dataset->context.datasetDescription.c_str(),
                static_cast<long>(dataset->split.train.rows()));
    if (!audit::isOneRun(options.method)) {
        std::printf("%s: %d models per world per epsilon, confidence %s\n",
                    audit::auditMethodName(options.method).c_str(), options.modelsPerWorld,
                    formatNumber(options.confidence).c_str());
    } else {
        std::printf("%s: %ld canaries, confidence %s\n",
                    audit::auditMethodName(options.method).c_str(), options.canaries,
                    formatNumber(options.confidence).c_str());
    }
    std::fflush(stdout);

    // Every model trained on the rows is a private run on them: charged to their ledger (in
    // batches; what is pending when the audit fails is charged as the batch goes).
    const privacy::LedgerStore ledgerStore(ledgerDirectory());
    LedgerChargeBatch charges([&](const std::vector<privacy::LedgerEntry>& entries) {
        chargeLedgerStore(ledgerStore, dataset->context, entries, "pfa-cli audit");
    });
    options.onModelTrained = [&](const RunResult& model, bool withCanary) {
        charges.add(model, dataset->context,
                    "privacy audit model (" + std::string(withCanary ? "rows + canary" : "rows") +
                        "): " + runLabel(model.config));
    };
    const CancelToken cancel;
    const audit::AuditResult result = audit::runPrivacyAudit(options, dataset->split, cancel);
    charges.flush();
    std::printf("canary: %s\nscore: %s\n", result.canary.description.c_str(), result.score.c_str());
    const bool oneRun = audit::isOneRun(result.method);
    if (oneRun) {
        std::printf("%-8s %-10s %-10s %-26s %-7s %-8s %s\n", "target", "claimed", "lower",
                    "right guesses [of m in]", "runs", "seconds", "verdict");
    } else {
        std::printf("%-8s %-10s %-10s %-22s %-22s %-7s %-8s %s\n", "target", "claimed", "lower",
                    "TPR [lower]", "FPR [upper]", "models", "seconds", "verdict");
    }
    for (const audit::AuditPoint& p : result.points) {
        const char* verdict =
            p.contradictsClaim() ? "VIOLATED: lower bound > claimed epsilon" : "consistent";
        if (oneRun) {
            const std::string guesses =
                std::to_string(p.correctGuesses) + " of " + std::to_string(p.guesses) + " [" +
                std::to_string(p.canariesIncluded) + " of " + std::to_string(p.canaries) + " in]";
            std::printf(
                "%-8s %-10s %-10s %-26s %-7ld %-8.1f %s\n", formatNumber(p.targetEpsilon).c_str(),
                formatNumber(p.claimedEpsilon).c_str(), formatNumber(p.epsilonLower).c_str(),
                guesses.c_str(), p.runs, p.seconds, verdict);
        } else {
            const std::string tpr =
                formatNumber(p.tpr, 3) + " [>= " + formatNumber(p.tprLower, 3) + "]";
            const std::string fpr =
                formatNumber(p.fpr, 3) + " [<= " + formatNumber(p.fprUpper, 3) + "]";
            std::printf("%-8s %-10s %-10s %-22s %-22s %-7ld %-8.1f %s\n",
                        formatNumber(p.targetEpsilon).c_str(),
                        formatNumber(p.claimedEpsilon).c_str(),
                        formatNumber(p.epsilonLower).c_str(), tpr.c_str(), fpr.c_str(),
                        p.modelsTrained, p.seconds, verdict);
        }
        if (result.broken) {
            std::printf("         (the accountant's epsilon for the noise actually added: %s)\n",
                        formatNumber(p.actualEpsilon).c_str());
        }
    }
    printStoredLedger(ledgerStore.read(dataset->context.dataFingerprint), false);
    if (args.has("out")) {
        const std::string path = args.text("out");
        std::ofstream out(path);
        out << audit::auditJson(result, dataset->context.datasetDescription) << '\n';
        if (!out) throw InputError("could not write " + path);
        std::printf("audit written to %s\n", path.c_str());
    }
    return 0;
}

}  // namespace pfa::cli
