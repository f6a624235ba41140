// pfa-cli train: runs the grid ε × λ × seeds and appends one JSON line per finished run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/algorithms/registry.h"
#include "core/data/builtin_datasets.h"
#include "core/data/preprocessing.h"
#include "core/fairness/fairness_metrics.h"
#include "core/sweep/grid_runner.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

const char* const kTrainHelp =
    "usage: pfa-cli train --out FILE.jsonl [options]\n"
    "\n"
    "Trains every combination of --epsilon x --lambda x --seeds in parallel and appends one\n"
    "JSON object per finished run to FILE.jsonl (flushed at once), then prints a summary.\n"
    "\n"
    "data:\n"
    "  --dataset synthetic|adult   data set (default synthetic)\n"
    "  --data-dir DIR              folder with the data files (adult: adult.data, adult.test)\n"
    "  --split-seed N              seed of the 75/25 train/test split (default 0)\n"
    "  --test-fraction X           share of rows held out for testing (default 0.25)\n"
    "  --synthetic-rows N          synthetic: number of rows (default 10000)\n"
    "  --synthetic-features D      synthetic: number of features (default 8)\n"
    "  --synthetic-minority X      synthetic: share of the minority group (default 0.35)\n"
    "  --synthetic-bias X          synthetic: how strongly the label depends on the group (1.0)\n"
    "  --synthetic-noise X         synthetic: label noise (default 0.05)\n"
    "algorithm:\n"
    "  --algorithm NAME            erm | fermi | dp-fermi | dp-sgd (default dp-fermi)\n"
    "  --fairness dp|eo|eopp       demographic parity, equalized odds, equal opportunity (dp)\n"
    "  --epsilon LIST              privacy budgets, comma-separated, 'inf' = no privacy\n"
    "                              (default 1 for private algorithms, inf otherwise)\n"
    "  --delta X                   privacy delta (default 1/n^2, n = training rows)\n"
    "  --lambda LIST               fairness weights (default 1 for fermi/dp-fermi, else 0)\n"
    "  --seeds A-B|LIST            training seeds (default 0)\n"
    "  --epochs N                  epochs (default 200)\n"
    "  --batch-size B              (expected) minibatch size (default 1024)\n"
    "  --lr-theta X                model learning rate (default 0.1)\n"
    "  --lr-w X                    adversary learning rate (default 0.01)\n"
    "  --l2 X                      ridge weight (default 0)\n"
    "  --calibration MODE          conservative (default) | published (the paper's constants)\n"
    "  --scope SCOPE               all-features (default) | sensitive-only\n"
    "  --adjacency ADJ             add-remove (default) | replace\n"
    "  --sampling MODE             poisson | shuffle | subsample (default: poisson if private)\n"
    "  --clip-theta C              per-example clip norm of the model gradient (default 3)\n"
    "  --clip-w C                  per-example clip norm of the W gradient (default auto)\n"
    "  --min-group-share RHO       public lower bound on group shares (default 1/(2k); eo/eopp 1/(4k))\n"
    "  --w-radius R                radius of the W ball (default sqrt(classes/rho))\n"
    "  --feature-bound B           published calibration: feature norm bound (default auto)\n"
    "  --evaluate-every N          evaluate metrics every N epochs (default 1)\n"
    "execution:\n"
    "  --threads N                 parallel runs (default: all cores)\n"
    "  --out FILE                  JSON-lines results file (appended; required)\n"
    "  --quiet                     no per-run progress lines\n"
    "  --help                      this text\n";

struct Aggregate {
    double epsilon = 0, lambda = 0;
    std::vector<double> error, violation, spent, seconds;
};

double mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return v.empty() ? NAN : sum / static_cast<double>(v.size());
}

double sd(const std::vector<double>& v) {
    if (v.size() < 2) return 0.0;
    const double m = mean(v);
    double sum = 0;
    for (double x : v) sum += (x - m) * (x - m);
    return std::sqrt(sum / static_cast<double>(v.size() - 1));
}

std::string meanSd(const std::vector<double>& v, int decimals) {
    return formatFixed(mean(v), decimals) + " ± " + formatFixed(sd(v), decimals);
}

}  // namespace

int trainCommand(int argc, char** argv) {
    const Arguments args(
        argc, argv, 2,
        {"dataset", "data-dir", "split-seed", "test-fraction", "synthetic-rows", "synthetic-features",
         "synthetic-minority", "synthetic-bias", "synthetic-noise", "algorithm", "fairness",
         "epsilon", "delta", "lambda", "seeds", "epochs", "batch-size", "lr-theta", "lr-w", "l2",
         "calibration", "scope", "adjacency", "sampling", "clip-theta", "clip-w",
         "min-group-share", "w-radius", "feature-bound", "evaluate-every", "threads", "out"},
        {"help", "quiet"});
    if (args.has("help")) {
        std::fputs(kTrainHelp, stdout);
        return 0;
    }
    if (!args.has("out")) throw UsageError("--out FILE.jsonl is required");

    DatasetRequest request;
    request.name = args.text("dataset", "synthetic");
    request.dataDirectory = args.text("data-dir");
    request.synthetic.rows = static_cast<int>(args.integer("synthetic-rows", request.synthetic.rows));
    request.synthetic.features =
        static_cast<int>(args.integer("synthetic-features", request.synthetic.features));
    request.synthetic.minorityShare = args.number("synthetic-minority", request.synthetic.minorityShare);
    request.synthetic.groupLabelDependence =
        args.number("synthetic-bias", request.synthetic.groupLabelDependence);
    request.synthetic.labelNoise = args.number("synthetic-noise", request.synthetic.labelNoise);

    GridSpec grid;
    TrainConfig& base = grid.base;
    base.algorithm = args.text("algorithm", "dp-fermi");
    const Algorithm& algorithm = findAlgorithm(base.algorithm);
    base.fairness = parseFairnessNotion(args.text("fairness", "dp"));
    grid.epsilons = args.numberList(
        "epsilon", {algorithm.supportsPrivacy() ? 1.0 : INFINITY}, true);
    grid.lambdas = args.numberList("lambda", {algorithm.usesFairness() ? 1.0 : 0.0}, false);
    grid.seeds = args.seedList("seeds", {0});
    base.delta = args.number("delta", 0.0);
    base.epochs = static_cast<int>(args.integer("epochs", base.epochs));
    base.batchSize = static_cast<int>(args.integer("batch-size", base.batchSize));
    base.lrTheta = args.number("lr-theta", base.lrTheta);
    base.lrW = args.number("lr-w", base.lrW);
    base.l2 = args.number("l2", base.l2);
    base.calibration = parseCalibration(args.text("calibration", "conservative"));
    base.scope = parseScope(args.text("scope", "all-features"));
    base.adjacency = parseAdjacency(args.text("adjacency", "add-remove"));
    if (args.has("sampling")) base.sampling = parseSampling(args.text("sampling"));
    base.clipTheta = args.number("clip-theta", base.clipTheta);
    base.clipW = args.number("clip-w", base.clipW);
    base.minGroupShare = args.number("min-group-share", base.minGroupShare);
    base.wRadius = args.number("w-radius", base.wRadius);
    base.featureBound = args.number("feature-bound", base.featureBound);
    base.evaluateEvery = static_cast<int>(args.integer("evaluate-every", base.evaluateEvery));
    const long threads = args.integer("threads", 0);
    if (threads < 0 || threads > 1024) throw UsageError("--threads must be between 0 and 1024");
    const bool quiet = args.has("quiet");

    SplitOptions split;
    split.seed = static_cast<std::uint64_t>(args.integer("split-seed", 0));
    split.testFraction = args.number("test-fraction", split.testFraction);

    const auto loadStart = std::chrono::steady_clock::now();
    const TabularData table = loadBuiltinDataset(request);
    const DataSplit data = splitAndEncode(table, split);
    validateGrid(grid, data);  // bad values end here, with a one-line reason
    std::fprintf(stderr, "data: %s — %ld training rows, %ld test rows, %ld features, %d groups "
                 "(%s) [%.2f s]\n",
                 describeDatasetRequest(request).c_str(), static_cast<long>(data.train.rows()),
                 static_cast<long>(data.test.rows()), static_cast<long>(data.train.features()),
                 data.train.numGroups(), data.train.sensitiveDescription.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - loadStart).count());

    GridOptions options;
    options.threads = static_cast<int>(threads);
    options.outputPath = args.text("out");
    options.context.datasetDescription = describeDatasetRequest(request);
    options.context.splitSeed = split.seed;
    options.context.testFraction = split.testFraction;
    options.context.trainRows = static_cast<long>(data.train.rows());
    options.context.testRows = static_cast<long>(data.test.rows());
    options.context.features = static_cast<long>(data.train.features());
    const std::size_t total = grid.configurations().size();
    std::size_t done = 0;
    options.onRunFinished = [&](std::size_t, const RunResult& r) {
        ++done;
        if (quiet) return;
        std::fprintf(stderr,
                     "[%zu/%zu] %s eps=%s lambda=%s seed=%llu: %s, test error %.4f, %s violation "
                     "%.4f, eps spent %s (%.1f s)\n",
                     done, total, r.config.algorithm.c_str(), formatNumber(r.config.epsilon).c_str(),
                     formatNumber(r.config.lambda).c_str(),
                     static_cast<unsigned long long>(r.config.seed), runStatusName(r.status).c_str(),
                     r.test.error, fairnessCode(r.config.fairness).c_str(),
                     r.test.violation(r.config.fairness),
                     formatNumber(r.privacy.isPrivate ? r.privacy.epsilonSpent : INFINITY).c_str(),
                     r.seconds);
    };

    const auto started = std::chrono::steady_clock::now();
    CancelToken never;
    const std::vector<RunResult> results = runGrid(grid, data, options, never);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // Summary: mean ± sd over seeds per (ε, λ).
    std::vector<Aggregate> rows;
    for (const RunResult& r : results) {
        auto it = std::find_if(rows.begin(), rows.end(), [&](const Aggregate& a) {
            return a.epsilon == r.config.epsilon && a.lambda == r.config.lambda;
        });
        if (it == rows.end()) {
            rows.push_back({r.config.epsilon, r.config.lambda, {}, {}, {}, {}});
            it = rows.end() - 1;
        }
        if (r.status == RunStatus::Failed || r.status == RunStatus::Diverged) continue;
        it->error.push_back(r.test.error);
        it->violation.push_back(r.test.violation(r.config.fairness));
        it->spent.push_back(r.privacy.isPrivate ? r.privacy.epsilonSpent : INFINITY);
        it->seconds.push_back(r.seconds);
    }
    int failed = 0;
    for (const RunResult& r : results) {
        if (r.status == RunStatus::Failed || r.status == RunStatus::Diverged) {
            ++failed;
            std::fprintf(stderr, "run eps=%s lambda=%s seed=%llu %s: %s\n",
                         formatNumber(r.config.epsilon).c_str(), formatNumber(r.config.lambda).c_str(),
                         static_cast<unsigned long long>(r.config.seed),
                         runStatusName(r.status).c_str(), r.message.c_str());
        }
    }

    const std::string notion = fairnessName(base.fairness);
    std::printf("\n%s on %s, %s, %d epochs, batch %d, %zu seed(s) per cell\n", base.algorithm.c_str(),
                data.train.name.c_str(), notion.c_str(), base.epochs, base.batchSize, grid.seeds.size());
    std::printf("%-8s %-8s %-18s %-20s %-10s %-8s\n", "epsilon", "lambda", "test error",
                (fairnessCode(base.fairness) + " violation").c_str(), "eps spent", "sec/run");
    for (const Aggregate& a : rows) {
        double maxSpent = 0;
        for (double s : a.spent) maxSpent = std::max(maxSpent, s);
        std::printf("%-8s %-8s %-18s %-20s %-10s %-8.1f\n", formatNumber(a.epsilon).c_str(),
                    formatNumber(a.lambda).c_str(), meanSd(a.error, 4).c_str(),
                    meanSd(a.violation, 4).c_str(),
                    a.spent.empty() ? "-" : formatNumber(maxSpent, 4).c_str(), mean(a.seconds));
    }
    if (!results.empty() && results.front().privacy.isPrivate) {
        const privacy::PrivacyReport& p = results.front().privacy;
        std::printf("eps spent: the largest certified epsilon over the seeds (%s, %s, delta = %s)\n",
                    p.accountant.c_str(), p.adjacency.c_str(), formatNumber(p.delta, 3).c_str());
    }
    std::printf("\n%s", fairnessFormulaText().c_str());
    std::printf("\n%zu run(s) in %.1f s wall time; %d failed or diverged; results appended to %s\n",
                results.size(), wall, failed, options.outputPath.c_str());
    return failed > 0 ? 1 : 0;
}

}  // namespace pfa::cli
