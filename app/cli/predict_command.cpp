// pfa-cli predict: applies the model saved in a run record to new rows.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/sweep/saved_model.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::cli {

namespace {

/// The probability columns' names: "p_" and the class name as an identifier (letters, digits
/// and "_"; "p_not_yes" for "not yes", "p_gt_50K" for ">50K"), so that pandas, R and
/// spreadsheets take them as they are; a name twice gets "_2", "_3".
std::vector<std::string> probabilityColumns(const std::vector<std::string>& classNames) {
    std::vector<std::string> columns;
    for (const std::string& name : classNames) {
        std::string column = "p_";
        for (const char c : name) {
            if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
                column += c;
            else if (c == '>')
                column += "gt_";
            else if (c == '<')
                column += "lt_";
            else if (column.back() != '_')
                column += '_';
        }
        while (column.size() > 2 && column.back() == '_') column.pop_back();
        std::string unique = column;
        for (int copy = 2; std::find(columns.begin(), columns.end(), unique) != columns.end();
             ++copy)
            unique = column + "_" + std::to_string(copy);
        columns.push_back(unique);
    }
    return columns;
}

const char* const kPredictHelp =
    "usage: pfa-cli predict --run RESULTS.jsonl[:RUN] --csv FILE --out FILE.csv [options]\n"
    "       pfa-cli predict --run RESULTS.jsonl --list\n"
    "\n"
    "Applies the model saved with a run to the rows of a CSV/TSV/ARFF file and writes, per\n"
    "row, the predicted class and the probability of every class. The rows are read and\n"
    "encoded as in training: the same reading rules (target, sensitive columns, delimiter,\n"
    "missing-value token, row filters), the training means and standard deviations, the kept\n"
    "one-hot levels (a level no training row had is encoded as all zeros) and, for runs with\n"
    "the published calibration, the same feature-norm bound.\n"
    "\n"
    "  --run FILE[:RUN]   a results file (pfa-cli train, a GUI sweep) or a model exported by\n"
    "                     PFA Explorer. Without :RUN the file must hold exactly one run with a\n"
    "                     model; otherwise choose one by its 0-based record index (FILE:#3) or\n"
    "                     by its run key (FILE:KEY, the record's \"run_key\")\n"
    "  --list             list the runs of the file (index, settings, test error, model?)\n"
    "  --csv FILE         the rows: the raw columns of the training data, with a header in\n"
    "                     any column order (extra columns are ignored); the label and\n"
    "                     sensitive columns are optional\n"
    "  --out FILE.csv     the predictions ('-' = standard output): line (the row's line in\n"
    "                     --csv), predicted, p_CLASS per class (the class name made an\n"
    "                     identifier: p_not_yes, p_gt_50K), then group and label when the\n"
    "                     file has the sensitive and label columns\n"
    "  --test-rows        only the held-out test rows of the run's train/test split; --csv\n"
    "                     must be the file the model was trained on. Reproduces the run's\n"
    "                     test error and fairness violation exactly\n"
    "  --help             this text\n"
    "\n"
    "Rows with a missing feature value, or failing the data set's row filters, are skipped\n"
    "and counted. Exit status 1 for a data problem (no model in the record, a missing\n"
    "column, a malformed row), 2 for a bad command line.\n";

/// A CSV field, quoted when it must be.
std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos &&
        (text.empty() || (text.front() != ' ' && text.back() != ' '))) {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

int listRuns(const std::string& path) {
    const std::vector<SavedRunSummary> runs = listSavedRuns(path);
    std::printf("%-6s %-9s %-6s %-8s %-8s %-5s %-11s %-6s %s\n", "index", "algorithm", "notion",
                "epsilon", "lambda", "seed", "test error", "model", "run key");
    for (const SavedRunSummary& run : runs) {
        std::printf("#%-5zu %-9s %-6s %-8s %-8s %-5s %-11s %-6s %s\n", run.index,
                    run.algorithm.c_str(), run.fairness.c_str(), formatNumber(run.epsilon).c_str(),
                    formatNumber(run.lambda).c_str(),
                    std::isfinite(run.seed) ? formatNumber(run.seed, 10).c_str() : "-",
                    std::isfinite(run.testError) ? formatNumber(run.testError, 6).c_str() : "-",
                    run.hasModel ? "yes" : "no", run.runKey.c_str());
    }
    return 0;
}

}  // namespace

int predictCommand(int argc, char** argv) {
    const Arguments args(argc, argv, 2, {"run", "csv", "out"}, {"help", "list", "test-rows"});
    if (args.has("help")) {
        std::fputs(kPredictHelp, stdout);
        return 0;
    }
    if (!args.has("run")) throw UsageError("--run RESULTS.jsonl[:RUN] is required");
    const auto [file, selector] = splitModelSpec(args.text("run"));
    if (args.has("list")) {
        if (!selector.empty()) throw UsageError("--list takes the file alone, without :RUN");
        return listRuns(file);
    }
    if (!args.has("csv")) throw UsageError("--csv FILE is required (the rows to predict)");
    if (!args.has("out")) throw UsageError("--out FILE.csv is required ('-' for standard output)");
    const std::string csv = args.text("csv");
    const std::string outPath = args.text("out");
    if (outPath == csv || outPath == file)
        throw UsageError("--out must not overwrite an input file");

    const SavedModel model = loadSavedModel(file, selector);
    PredictionOptions options;
    options.testRowsOnly = args.has("test-rows");
    const Predictions p = predictFile(model, csv, options);

    std::FILE* out = outPath == "-" ? stdout : std::fopen(outPath.c_str(), "w");
    if (!out) throw DataFileError(outPath, 0, "", "cannot write the predictions here");
    // One row per line, fields appended (GCC 12 warns falsely about "literal" + string).
    std::string header = "line,predicted";
    for (const std::string& name : probabilityColumns(p.classNames))
        header.append(",").append(name);
    if (p.hasGroups) header.append(",group");
    if (p.hasLabels) header.append(",label");
    std::fprintf(out, "%s\n", header.c_str());
    for (Eigen::Index i = 0; i < p.predicted.size(); ++i) {
        const auto row = static_cast<std::size_t>(i);
        std::string line = std::to_string(p.lines[row]);
        line.append(",").append(csvField(p.classNames[static_cast<std::size_t>(p.predicted(i))]));
        for (Eigen::Index c = 0; c < p.probabilities.cols(); ++c) {
            line.append(",").append(formatNumber(p.probabilities(i, c), 10));
        }
        if (p.hasGroups) line.append(",").append(csvField(p.groups[row]));
        if (p.hasLabels) line.append(",").append(csvField(p.labels[row]));
        std::fprintf(out, "%s\n", line.c_str());
    }
    const bool written = std::fflush(out) == 0 && !std::ferror(out);
    if (out != stdout) std::fclose(out);
    if (!written) throw DataFileError(outPath, 0, "", "writing the predictions failed");

    const RunResult& run = model.run;
    const std::string seed = model.seedKnown ? "seed " + std::to_string(run.config.seed)
                                             : std::string("seed not in the file");
    std::fprintf(stderr,
                 "model: %s, %s, epsilon %s, lambda %s, %s (%s record #%zu), trained on %s\n",
                 run.config.algorithm.c_str(), fairnessCode(run.config.fairness).c_str(),
                 formatNumber(run.config.epsilon).c_str(), formatNumber(run.config.lambda).c_str(),
                 seed.c_str(), model.file.c_str(), model.recordIndex,
                 model.context.datasetDescription.c_str());
    std::fprintf(stderr, "%ld %srow(s) of %s predicted%s%s\n", p.rows(),
                 options.testRowsOnly ? "held-out test " : "", csv.c_str(),
                 outPath == "-" ? "" : " into ", outPath == "-" ? "" : outPath.c_str());
    if (p.droppedMissing > 0) {
        std::fprintf(stderr,
                     "skipped %zu row(s) with a missing feature value (not in the output)\n",
                     p.droppedMissing);
    }
    if (p.droppedFiltered > 0) {
        std::fprintf(
            stderr, "skipped %zu row(s) that fail the data set's row filters (not in the output)\n",
            p.droppedFiltered);
    }
    if (!p.unseenLevels.empty()) {
        long total = 0;
        std::string list;
        for (std::size_t k = 0; k < p.unseenLevels.size(); ++k) {
            total += p.unseenLevels[k].count;
            if (k < 6) {
                list += (k ? ", " : "") + p.unseenLevels[k].column + "='" +
                        p.unseenLevels[k].value + "' (" + std::to_string(p.unseenLevels[k].count) +
                        ")";
            }
        }
        if (p.unseenLevels.size() > 6) list += ", ...";
        std::fprintf(
            stderr, "note: %ld value(s) no training row had were encoded as all-zero one-hot: %s\n",
            total, list.c_str());
    }
    if (p.metrics) {
        std::fprintf(stderr, "error %s, %s violation %s on these %ld rows",
                     formatNumber(p.metrics->error, 10).c_str(),
                     fairnessCode(run.config.fairness).c_str(),
                     formatNumber(p.metrics->violation(run.config.fairness), 10).c_str(), p.rows());
        if (options.testRowsOnly && !model.testMetricsKnown) {
            std::fprintf(stderr, "; the model file holds no test metrics to compare them with\n");
        } else if (options.testRowsOnly) {
            const bool same =
                p.metrics->error == run.test.error && p.metrics->violation(run.config.fairness) ==
                                                          run.test.violation(run.config.fairness);
            std::fprintf(stderr, "; the run recorded test error %s, violation %s (%s)\n",
                         formatNumber(run.test.error, 10).c_str(),
                         formatNumber(run.test.violation(run.config.fairness), 10).c_str(),
                         same ? "identical" : "DIFFERENT");
            if (!same) return 1;  // the saved model does not reproduce its run: a defect
        } else {
            std::fprintf(stderr, "\n");
        }
    } else if (p.labelledRows() > 0) {
        std::fprintf(stderr, "error %s on the %ld row(s) with a label\n",
                     formatNumber(p.error(), 10).c_str(), p.labelledRows());
    }
    return 0;
}

}  // namespace pfa::cli
