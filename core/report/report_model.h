#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/report/group_bootstrap.h"
#include "core/util/json_value.h"

namespace pfa::report {

/// A label and its value (a line of the data-set card or of the configuration).
struct ReportField {
    std::string label;
    std::string value;
};

/// One run of the results file on the tradeoff chart.
struct ReportPoint {
    double testError = 0.0;
    double violation = 0.0;
    double epsilon = 0.0;  ///< the budget the run was given (its colour; ∞ = not private)
    std::string algorithm;
    bool chosen = false;  ///< the run the report is about
    /// What the run protects: an index into ReportModel::protections (−1: not private).
    int protection = -1;
};

/// Everything the one-page report shows, computed once; rendered to PDF and HTML alike
/// (report_render.h).
struct ReportModel {
    std::string title;      ///< "dp-fermi on synthetic lending data"
    std::string generated;  ///< "2026-11-26 15:40 UTC"
    std::string version;    ///< the software's version (PFA_VERSION)
    std::string runLabel;   ///< "record 3 of 12 in results.jsonl (run key …)"
    std::vector<ReportField> dataset;
    std::vector<ReportField> configuration;
    std::string algorithmSettings;  ///< the algorithm's other settings, "name value · …"

    // The tradeoff chart.
    std::vector<ReportPoint> points;
    std::string violationName;      ///< "demographic-parity violation"
    std::size_t skippedPoints = 0;  ///< runs without a finite error/violation (regression, failed)
    std::size_t otherDataPoints = 0;  ///< runs on other data or another notion (not drawn)
    /// What the private runs drawn protect (RunProtection::label), in order of first appearance.
    std::vector<std::string> protections;
    /// The line under the chart: what every private run drawn protects, or — when they differ
    /// — a warning naming each protection (the points of every one after the first are
    /// outlined in dark red). Empty when no run drawn is private.
    std::string protectionNote;
    bool mixedProtection() const { return protections.size() > 1; }

    // The per-group table.
    std::string notionCode;          ///< "dp"
    std::string gapName;             ///< "DP gap (max |Δ selection rate|)"
    double recordedViolation = 0.0;  ///< the record's own violation of the run's notion
    std::vector<GroupRow> groups;    ///< the record's per-group rates
    std::optional<BootstrapResult> bootstrap;
    std::string bootstrapUnavailable;  ///< why there is no interval (non-binary labels, …)
    std::string intervalMethod;        ///< how the intervals were computed, in words

    // Privacy.
    bool isPrivate = false;
    std::string guarantee;  ///< "(ε = 0.9958, δ = 1.78e-08) per record, from the accountant"
    std::string statement;  ///< the record's privacy statement
    std::string ledger;     ///< the ledger total of the run's data set in the results file

    std::string reproduce;      ///< the pfa-cli command that reruns the run
    std::string reproduceNote;  ///< what the command cannot carry ("" when nothing)
};

/// What to report on.
struct ReportOptions {
    /// Which record: "" = the last completed run in the file; a 1-based record number; or a
    /// run key / run uid (exact).
    std::string run;
    int resamples = 2000;
    std::uint64_t seed = 0;
    std::string sourceName = "the results file";  ///< how the runs' file is named in the report
    std::string generated;                        ///< the date line; "" = now (UTC)
    std::string version;                          ///< "" = versionString() (PFA_VERSION + commit)
};

/// The index of the record `selector` names (see ReportOptions::run). Throws InputError
/// when there is no such record, or no completed run for the default.
std::size_t selectRecord(const std::vector<JsonValue>& records, const std::string& selector);

/// Builds the report of one record of `records` (results-file lines; every record is a point
/// on the chart and counts in the ledger). Throws InputError for no records or a bad selector.
ReportModel buildReport(const std::vector<JsonValue>& records, const ReportOptions& options);

/// The pfa-cli train command that reruns a record's run (same run key: same settings, seed
/// and noise), or "" when the record has no run key. `note` receives what the command cannot
/// carry (e.g. an own file's reading options).
std::string reproduceCommand(const JsonValue& record, std::string* note = nullptr);

/// The date and time now, "2026-11-26 15:40 UTC".
std::string utcNow();

}  // namespace pfa::report
