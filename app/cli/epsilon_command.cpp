// pfa-cli epsilon: the RDP accountant on the command line.
#include <cmath>
#include <cstdio>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/config/train_config.h"
#include "core/privacy/accounting_inputs.h"
#include "core/privacy/accounting_json.h"
#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_mechanisms.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

/// ", + N Gaussian release(s) of WHAT at z = Z" for each scheduled Gaussian release.
std::string gaussianReleaseSummary(const privacy::AccountingInputs& inputs) {
    std::string text;
    for (const privacy::GaussianRelease& release : inputs.gaussianReleases) {
        text += ", + " + std::to_string(release.releasesAfter(inputs.steps)) +
                " Gaussian release(s) of " + release.what +
                " at z = " + formatNumber(release.noiseMultiplier);
    }
    return text;
}

const char* const kEpsilonHelp =
    "usage: pfa-cli epsilon --q Q --steps T --delta D (--sigma S | --target-epsilon E)\n"
    "       pfa-cli epsilon --record RESULTS.jsonl\n"
    "\n"
    "With --record: recomputes the epsilon of every private run in a results file from the\n"
    "accounting inputs its record carries (privacy.accounting: curve, sampling rate, noise\n"
    "multiplier, releases, delta, adjacency, extra releases) and prints it next to the epsilon\n"
    "the run reported; exits 1 if any differs.\n"
    "\n"
    "Poisson-subsampled Gaussian mechanism, Renyi-DP accountant (signed series, tightened\n"
    "RDP->DP conversion). With --sigma: prints the epsilon spent after T steps at sampling\n"
    "rate Q and noise multiplier S (noise std / clip norm), ending with the lines\n"
    "'epsilon: E' and 'order: A'. With --target-epsilon: solves for the smallest noise\n"
    "multiplier whose epsilon does not exceed the target, ending with 'noise_multiplier: Z'.\n"
    "\n"
    "  --q Q                 sampling rate in (0, 1]\n"
    "  --sigma S             noise multiplier z >= 0\n"
    "  --target-epsilon E    target epsilon > 0 (instead of --sigma)\n"
    "  --steps T             number of steps >= 1\n"
    "  --delta D             delta in (0, 1)\n"
    "  --adjacency ADJ       add-remove (default) | replace (group-of-two bound)\n"
    "  --grid NAME           standard (default, 156 orders) | opacus\n"
    "  --help                this text\n";

/// Recomputes every private run's ε of a results file from its recorded accounting inputs.
int recomputeRecords(const std::string& path) {
    const ResultsFileContent content = readResultsFile(path);
    if (content.records.empty())
        throw InputError(path + ": no result records (missing or empty file)");
    std::size_t checked = 0, mismatched = 0, withoutInputs = 0;
    for (const JsonValue& record : content.records) {
        if (!record.has("privacy") || !record.at("privacy").at("is_private").asBool()) continue;
        const JsonValue& privacyJson = record.at("privacy");
        const std::string label = record.stringOr("algorithm", "?") +
                                  " eps=" + formatNumber(record.numberOr("epsilon", NAN)) +
                                  " lambda=" + formatNumber(record.numberOr("lambda", NAN)) +
                                  " seed=" + formatNumber(record.numberOr("seed", NAN));
        if (!privacyJson.has("accounting")) {
            ++withoutInputs;
            std::printf("%s: no accounting inputs (written by an older version)\n", label.c_str());
            continue;
        }
        const privacy::AccountingInputs inputs =
            privacy::accountingFromJson(privacyJson.at("accounting"));
        const double recorded = privacyJson.at("epsilon_spent").asNumber();
        const double recomputed = privacy::certifiedEpsilon(inputs).epsilon;
        const bool same = recorded == recomputed || std::fabs(recorded - recomputed) <=
                                                        1e-9 * std::max(1.0, std::fabs(recorded));
        ++checked;
        if (!same) ++mismatched;
        std::printf(
            "%s: recorded %.12g, recomputed %.12g%s (%s, q = %.6g, z = %.6g, %ld release(s), "
            "%s, delta = %.3g%s)\n",
            label.c_str(), recorded, recomputed, same ? "" : "  MISMATCH",
            privacy::releaseKindName(inputs.kind).c_str(), inputs.samplingRate,
            inputs.noiseMultiplier, inputs.releases(),
            privacy::adjacencyCode(inputs.adjacency).c_str(), inputs.delta,
            (inputs.pureEpsilon() > 0 ? ", + eps0 = " + formatNumber(inputs.pureEpsilon())
                                      : std::string())
                .append(inputs.interimReleases() > 0
                            ? ", + " + std::to_string(inputs.interimReleases()) +
                                  " interim Gaussian release(s) at z = " +
                                  formatNumber(inputs.interimNoiseMultiplier)
                            : std::string())
                .append(gaussianReleaseSummary(inputs))
                .c_str());
    }
    std::printf("%zu private run(s) recomputed, %zu mismatch(es), %zu without accounting inputs\n",
                checked, mismatched, withoutInputs);
    return mismatched > 0 ? 1 : 0;
}

}  // namespace

int epsilonCommand(int argc, char** argv) {
    const Arguments args(
        argc, argv, 2,
        {"q", "sigma", "target-epsilon", "steps", "delta", "adjacency", "grid", "record"},
        {"help"});
    if (args.has("help")) {
        std::fputs(kEpsilonHelp, stdout);
        return 0;
    }
    if (args.has("record")) return recomputeRecords(args.text("record"));
    for (const char* required : {"q", "steps", "delta"}) {
        if (!args.has(required)) throw UsageError(std::string("--") + required + " is required");
    }
    if (args.has("sigma") == args.has("target-epsilon")) {
        throw UsageError("give exactly one of --sigma and --target-epsilon");
    }
    const double q = args.number("q", 0);
    const long steps = args.integer("steps", 0);
    const double delta = args.number("delta", 0);
    if (!(q > 0 && q <= 1)) throw UsageError("--q must lie in (0, 1]");
    if (steps < 1) throw UsageError("--steps must be at least 1");
    if (!(delta > 0 && delta < 1)) throw UsageError("--delta must lie in (0, 1)");
    const privacy::Adjacency adjacency = parseAdjacency(args.text("adjacency", "add-remove"));
    const std::string gridName = args.text("grid", "standard");
    if (gridName != "standard" && gridName != "opacus") {
        throw UsageError("--grid must be standard or opacus");
    }
    const privacy::OrderGrid grid =
        gridName == "opacus" ? privacy::OrderGrid::opacus() : privacy::OrderGrid::standard();

    std::printf("mechanism: Poisson-subsampled Gaussian, %s adjacency, %s\n",
                adjacencyName(adjacency).c_str(), grid.describe().c_str());
    std::printf("q: %.10g\nsteps: %ld\ndelta: %.10g\n", q, steps, delta);
    if (args.has("sigma")) {
        const double sigma = args.number("sigma", 0);
        if (sigma < 0) throw UsageError("--sigma must be >= 0");
        const privacy::RdpCurve curve =
            privacy::scaled(privacy::subsampledGaussianStepCurve(grid, q, sigma, adjacency),
                            static_cast<double>(steps));
        const privacy::EpsilonResult result = privacy::epsilonFromRdp(grid, curve, delta);
        if (result.orderAtGridEdge) {
            std::printf("warning: the optimal order is at the edge of the grid\n");
        }
        std::printf("epsilon: %.12g\norder: %.10g\n", result.epsilon, result.order);
        return 0;
    }
    const double target =
        Arguments::parseNumber("target-epsilon", args.text("target-epsilon"), false);
    const privacy::MultiplierSolution solution =
        privacy::solveSgmMultiplier(grid, q, steps, target, delta, adjacency);
    std::printf("epsilon: %.12g\nnoise_multiplier: %.12g\n", solution.epsilon,
                solution.noiseMultiplier);
    return 0;
}

}  // namespace pfa::cli
