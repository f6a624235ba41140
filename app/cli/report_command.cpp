// pfa-cli report: the one-page report (PDF or HTML) of a run in a results file — data set,
// configuration, tradeoff chart, per-group table with bootstrap intervals, privacy statement and
// ledger, version, date and the command that reruns it.
#include <cstdio>
#include <string>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/report/report_model.h"
#include "core/report/report_render.h"
#include "core/sweep/results_file.h"
#include "core/util/error.h"

namespace pfa::cli {

namespace {

const char* const kReportHelp =
    "usage: pfa-cli report RESULTS.jsonl [--out FILE.pdf|FILE.html] [--run N|KEY]\n"
    "                      [--bootstrap B] [--seed S]\n"
    "\n"
    "Writes a one-page report of one run in the results file: the data set, the run's\n"
    "configuration, the tradeoff chart of every run in the file (test error against the\n"
    "fairness violation, coloured by epsilon; the run ringed), the run's per-group rates on the\n"
    "test rows with 95% bootstrap confidence intervals, its privacy statement and the privacy\n"
    "ledger of its data set in the file, the software version, the date and the pfa-cli\n"
    "command that reruns it.\n"
    "\n"
    "The intervals are percentile intervals of a bootstrap stratified by group: each group's\n"
    "test rows are drawn again with replacement from its confusion counts (exact for binary\n"
    "labels). They cover the sampling of the test rows only, not the training data or the\n"
    "randomness of training (seed, privacy noise). Runs whose rates are not frequencies of\n"
    "a 2x2 table (more than two classes, a randomised classifier's expected rates) are\n"
    "reported without intervals, and the report says why.\n"
    "\n"
    "  --out FILE          FILE.pdf (one A4 page) or FILE.html (self-contained page); default:\n"
    "                      RESULTS.pdf beside the results file\n"
    "  --run N|KEY         the run: its record number in the file (1 = the first record), or\n"
    "                      its run key or run uid; default: the last completed run in the file\n"
    "  --bootstrap B       bootstrap resamples (default 2000, at least 100)\n"
    "  --seed S            seed of the bootstrap (default 0): the same seed gives the same\n"
    "                      intervals\n"
    "  --help              this text\n";

std::string defaultOutput(const std::string& results) {
    const auto slash = results.rfind('/');
    const auto dot = results.rfind('.');
    const std::string stem = dot != std::string::npos && (slash == std::string::npos || dot > slash)
                                 ? results.substr(0, dot)
                                 : results;
    return stem + ".pdf";
}

}  // namespace

int reportCommand(int argc, char** argv) {
    std::string results;
    std::vector<char*> options = {argv[0], argv[1]};
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0) {
            options.push_back(argv[i]);
            // The value of a valued option is the next word.
            if (arg.find('=') == std::string::npos && arg != "--help" && i + 1 < argc)
                options.push_back(argv[++i]);
            continue;
        }
        if (!results.empty())
            throw UsageError("one results file only (got '" + results + "' and '" + arg + "')");
        results = arg;
    }
    const Arguments args(static_cast<int>(options.size()), options.data(), 2,
                         {"out", "run", "bootstrap", "seed"}, {"help"});
    if (args.has("help")) {
        std::fputs(kReportHelp, stdout);
        return 0;
    }
    if (results.empty()) throw UsageError("needs a results file (RESULTS.jsonl)");
    report::ReportOptions reportOptions;
    reportOptions.run = args.text("run");
    const long resamples = args.integer("bootstrap", 2000);
    if (resamples < 100 || resamples > 1000000) {
        throw UsageError("--bootstrap " + args.text("bootstrap") +
                         " is invalid: it must be between 100 and 1000000");
    }
    reportOptions.resamples = static_cast<int>(resamples);
    const long seed = args.integer("seed", 0);
    if (seed < 0) throw UsageError("--seed must be >= 0");
    reportOptions.seed = static_cast<std::uint64_t>(seed);
    const std::string out = args.text("out", defaultOutput(results));

    ResultsFileContent content = readResultsFile(results);
    if (content.records.empty() && content.damagedLines == 0) {
        throw InputError(results + ": no result records (missing or empty file)");
    }
    if (content.records.empty()) throw InputError(notAResultsFile(results, content));
    const auto slash = results.rfind('/');
    reportOptions.sourceName = slash == std::string::npos ? results : results.substr(slash + 1);
    const report::ReportModel model = report::buildReport(content.records, reportOptions);
    report::writeReport(model, out);
    std::printf("report of %s written to %s\n", model.runLabel.c_str(), out.c_str());
    if (!model.bootstrap)
        std::printf("note: no confidence intervals: %s\n", model.bootstrapUnavailable.c_str());
    if (content.damagedLines > 0) {
        std::fprintf(stderr, "warning: %zu damaged line(s) of %s were skipped\n",
                     content.damagedLines, results.c_str());
    }
    return 0;
}

}  // namespace pfa::cli
