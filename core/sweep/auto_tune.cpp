#include "core/sweep/auto_tune.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "core/privacy/accounting_json.h"
#include "core/sweep/results_file.h"
#include "core/sweep/run_ledger.h"
#include "core/util/cpu_count.h"
#include "core/util/error.h"
#include "core/util/format.h"
#include "core/util/json_writer.h"
#include "core/util/random.h"

namespace pfa {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kValidationStream = 0x56414c4944415445ULL;  // "VALIDATE"

/// Watches a trial's evaluations and stops it when the abandon rule fires.
struct TrialWatcher : TrainingObserver {
    explicit TrialWatcher(AbandonRule rule, const CancelToken& cancel)
        : rule(rule), cancel(cancel) {}
    bool onStep(const StepInfo&) override { return cancel.cancelled(); }
    bool onEpochEnd(const EpochMetrics& m) override {
        if (rule.observe(m.trainLoss)) abandoned = true;
        return abandoned || cancel.cancelled();
    }
    AbandonRule rule;
    const CancelToken& cancel;
    bool abandoned = false;
};

std::string trialText(const TuneTrial& t, const std::string& stepSetting) {
    std::string text = "candidate " + std::to_string(t.candidate + 1) + ", " + stepSetting + " = " +
                       t.config.extra.at(stepSetting) + ": ";
    if (t.survived) return text + "kept (final training loss " + formatNumber(t.trainLoss, 4) + ")";
    return text + "abandoned (" + t.reason + ")";
}

double criterionValue(const TuneTrial& t, TuneCriterion criterion) {
    switch (criterion) {
        case TuneCriterion::TrainLoss:
            return t.trainLoss;
        case TuneCriterion::GradientNorm:
            return t.gradientNormSquared;
        case TuneCriterion::Validation:
            return t.validationError;
    }
    return t.trainLoss;
}

}  // namespace

std::string tuneCriterionName(TuneCriterion criterion) {
    switch (criterion) {
        case TuneCriterion::TrainLoss:
            return "train-loss";
        case TuneCriterion::GradientNorm:
            return "gradient-norm";
        case TuneCriterion::Validation:
            return "validation";
    }
    return "train-loss";
}

TuneCriterion parseTuneCriterion(const std::string& text) {
    if (text == "train-loss") return TuneCriterion::TrainLoss;
    if (text == "gradient-norm") return TuneCriterion::GradientNorm;
    if (text == "validation") return TuneCriterion::Validation;
    throw InputError("unknown tuning criterion '" + text +
                     "': use train-loss, gradient-norm or validation");
}

bool AbandonRule::observe(double loss) {
    ++m_seen;
    if (!std::isfinite(loss)) {
        m_reason = "training loss not finite at evaluation " + std::to_string(m_seen);
        return true;
    }
    if (loss < m_best) {
        m_best = loss;
        m_above = 0;
        return false;
    }
    if (loss > m_factor * m_best) {
        if (++m_above >= m_patience) {
            m_reason = "training loss above " + formatNumber(m_factor) + " x its best for " +
                       std::to_string(m_patience) + " evaluations in a row";
            return true;
        }
    } else {
        m_above = 0;
    }
    return false;
}

DataSplit carveValidation(const DataSplit& data, double fraction, std::uint64_t seed) {
    const long n = static_cast<long>(data.train.rows());
    const long validation = std::lround(fraction * static_cast<double>(n));
    if (!(fraction > 0.0 && fraction < 1.0) || validation < 1 || validation >= n) {
        throw InputError("validation share " + formatNumber(fraction) + " of " + std::to_string(n) +
                         " training rows leaves a part empty: use a share in (0, 1) and more rows");
    }
    std::vector<long> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0L);
    RandomStream random(seed, kValidationStream);
    for (std::size_t i = order.size() - 1; i > 0; --i)
        std::swap(order[i], order[random.uniformIndex(i + 1)]);
    std::vector<long> tuneRows(order.begin() + validation, order.end());
    std::vector<long> validationRows(order.begin(), order.begin() + validation);
    std::sort(tuneRows.begin(), tuneRows.end());
    std::sort(validationRows.begin(), validationRows.end());
    DataSplit out;
    out.train = selectRows(data.train, tuneRows);
    out.test = selectRows(data.train, validationRows);
    out.encoding = data.encoding;
    out.splitSeed = data.splitSeed;
    out.testFraction = data.testFraction;
    out.splitMethod = data.splitMethod;
    return out;
}

AutoTuneOutcome autoTune(const std::vector<TrainConfig>& candidates, const DataSplit& data,
                         const AutoTuneOptions& options, const CancelToken& cancel,
                         const std::function<void(const TuneProgress&)>& progress) {
    if (candidates.empty()) throw InputError("auto-tune needs at least one candidate setting");
    if (options.steps.empty()) throw InputError("auto-tune needs at least one step to try");
    const Algorithm& algorithm = findAlgorithm(candidates.front().algorithm);
    bool hasStep = false;
    for (const ParamSpec& spec : algorithm.declaredParameters())
        hasStep = hasStep || spec.name == options.stepSetting;
    if (!hasStep) {
        throw InputError("auto-tune halves the setting '" + options.stepSetting + "', which " +
                         algorithm.name() + " does not have");
    }
    const DataSplit tuning =
        carveValidation(data, options.validationFraction, options.validationSeed);

    AutoTuneOutcome outcome;
    TuneProgress p;
    p.candidates = candidates.size();
    for (std::size_t c = 0; c < candidates.size() && !outcome.cancelled; ++c) {
        p.candidate = c;
        for (double step : options.steps) {
            if (cancel.cancelled()) {
                outcome.cancelled = true;
                break;
            }
            TuneTrial trial;
            trial.candidate = c;
            trial.config = candidates[c];
            trial.config.extra[options.stepSetting] = realText(step);
            // The abandon rule and the ranking read the trials' exact training statistics (the
            // choice is stated as not covered), so trials record them whatever the final run does.
            trial.config.recordDiagnostics = true;
            TrialWatcher watcher(AbandonRule(options.abandonFactor, options.abandonPatience),
                                 cancel);
            CancelToken never;
            RunResult r;
            try {
                r = runAlgorithm(trial.config, tuning, watcher, never);
            } catch (const InputError& error) {
                r.status = RunStatus::Failed;
                r.message = error.what();
            }
            if (cancel.cancelled()) {
                outcome.cancelled = true;
            }
            trial.status = r.status;
            trial.abandoned = watcher.abandoned;
            trial.survived =
                r.status == RunStatus::Completed && !watcher.abandoned && !outcome.cancelled;
            trial.reason = watcher.abandoned ? watcher.rule.reason() : r.message;
            if (!r.history.empty()) {
                trial.trainLoss = r.history.back().trainLoss;
                trial.gradientNormSquared = r.history.back().gradientNormSquared;
            }
            trial.validationError = r.test.error;
            trial.isPrivate = r.privacy.isPrivate;
            trial.accounting = r.privacy.accounting;
            trial.runUid = r.runUid;
            trial.epsilon = r.privacy.epsilonSpent;
            trial.delta = r.privacy.delta;
            outcome.trials.push_back(trial);
            if (options.onTrial) options.onTrial(trial);
            ++p.trials;
            p.last = trialText(trial, options.stepSetting);
            if (progress) progress(p);
            if (trial.survived || outcome.cancelled) break;  // the first surviving step is kept
        }
    }

    // The best surviving candidate by the criterion (ties: the earlier one).
    for (std::size_t i = 0; i < outcome.trials.size(); ++i) {
        const TuneTrial& t = outcome.trials[i];
        if (!t.survived || !std::isfinite(criterionValue(t, options.criterion))) continue;
        if (!outcome.chosen ||
            criterionValue(t, options.criterion) <
                criterionValue(outcome.trials[*outcome.chosen], options.criterion)) {
            outcome.chosen = i;
        }
    }
    if (!outcome.cancelled && !outcome.chosen) {
        outcome.final.config = candidates.front();
        outcome.final.status = RunStatus::Failed;
        outcome.final.message = "auto-tune: no step survived for any candidate (" +
                                std::to_string(outcome.trials.size()) + " trials)";
        outcome.final.test.error = outcome.final.trainLoss = kNaN;
    }
    if (!outcome.cancelled && outcome.chosen) {
        TrainingObserver quiet;
        TrainConfig chosen = outcome.trials[*outcome.chosen].config;
        chosen.recordDiagnostics =
            candidates[outcome.trials[*outcome.chosen].candidate].recordDiagnostics;
        outcome.final = runAlgorithm(chosen, data, quiet, cancel);
        if (cancel.cancelled()) outcome.cancelled = true;
    }

    // Every trial ran on training rows: composed with the final run exactly as the privacy
    // ledger composes them, so the statement and the ledger state the same total.
    privacy::DatasetLedger all("auto-tune", "auto-tune");
    for (const privacy::LedgerEntry& entry : autoTuneLedgerEntries(outcome, options.stepSetting))
        all.add(entry);
    if (!all.entries().empty()) {
        const privacy::LedgerTotals totals = all.totals();
        outcome.composedEpsilon = totals.epsilon;
        outcome.composedDelta = totals.delta;
    }
    if (outcome.cancelled) return outcome;

    privacy::PrivacyReport& report = outcome.final.privacy;
    if (report.isPrivate) {
        // Not "not-covered": that mode says the composed cost covers a choice among the
        // candidates, and here the choice rests on exact statistics that no ε covers.
        report.tuning = "auto-tune";
        report.tuningCandidates = static_cast<int>(outcome.trials.size());
        report.tuningGridEpsilon = outcome.final.config.epsilon;
        const std::string statistic =
            options.criterion == TuneCriterion::TrainLoss ? "the final training loss"
            : options.criterion == TuneCriterion::GradientNorm
                ? "the final squared gradient norm on the training rows"
                : "the error on validation rows carved from the training rows";
        report.uncoveredReleases.push_back(
            "the choice of this run's settings by auto-tune: " +
            std::to_string(outcome.trials.size()) + " trial runs on the training " + report.unit +
            "s (" + std::to_string(candidates.size()) + " candidate setting(s), " +
            options.stepSetting + " halved from " + formatNumber(options.steps.front()) +
            ") were stopped on their exact training loss and ranked by " + statistic +
            " — exact, not noisy, statistics of the private rows, so the choice is NOT covered "
            "by any ε, neither this run's nor the composed one; the trials and this run compose "
            "to ε = " +
            formatNumber(outcome.composedEpsilon, 4) +
            " at δ = " + formatNumber(outcome.composedDelta, 3) +
            " by the RDP accountant, and each is charged to the privacy ledger");
        report.disclose(
            "which auto-tune trials ran, how each ended and how many steps it made "
            "(decided on exact training losses)",
            {"tuning_trials[].**"});
        report.statement = privacy::renderPrivacyStatement(report, "", "");
    }
    return outcome;
}

std::string trialOutcome(const TuneTrial& trial) {
    if (trial.survived) return "kept";
    if (trial.abandoned) return "abandoned";
    return runStatusName(trial.status);
}

std::optional<privacy::LedgerEntry> trialLedgerEntry(const TuneTrial& trial,
                                                     const std::string& stepSetting) {
    if (!trial.isPrivate) return std::nullopt;
    privacy::LedgerEntry entry;
    entry.runUid = trial.runUid;
    const auto step = trial.config.extra.find(stepSetting);
    entry.label = "auto-tune trial, candidate " + std::to_string(trial.candidate + 1) + ", " +
                  stepSetting + " = " + (step == trial.config.extra.end() ? "?" : step->second) +
                  " (" + trialOutcome(trial) + "): " + runLabel(trial.config);
    entry.status = trialOutcome(trial);
    entry.epsilon = trial.epsilon;
    entry.delta = trial.delta;
    entry.accountingKnown = true;
    entry.accounting = trial.accounting;
    return entry;
}

std::vector<privacy::LedgerEntry> autoTuneLedgerEntries(const AutoTuneOutcome& outcome,
                                                        const std::string& stepSetting) {
    std::vector<privacy::LedgerEntry> entries;
    for (const TuneTrial& trial : outcome.trials) {
        if (auto entry = trialLedgerEntry(trial, stepSetting)) entries.push_back(*entry);
    }
    RunContext context;  // the final run's charge id is its run uid
    if (auto entry = ledgerEntryForRun(outcome.final, context, runLabel(outcome.final.config)))
        entries.push_back(*entry);
    return entries;
}

std::string withTuningTrials(const std::string& recordLine, const std::vector<TuneTrial>& trials,
                             const std::string& stepSetting) {
    const std::size_t end = recordLine.rfind('}');
    if (end == std::string::npos) throw std::logic_error("not a record line");
    JsonWriter json;
    json.beginArray();
    for (const TuneTrial& trial : trials) {
        json.beginObject();
        json.key("candidate").value(static_cast<long>(trial.candidate + 1));
        json.key("setting").beginObject();
        const auto step = trial.config.extra.find(stepSetting);
        if (step != trial.config.extra.end()) json.key(stepSetting).value(step->second);
        json.endObject();
        json.key("outcome").value(trialOutcome(trial));
        if (!trial.reason.empty()) json.key("reason").value(trial.reason);
        if (const auto entry = trialLedgerEntry(trial, stepSetting)) {
            json.key("run_uid").value(entry->runUid);
            json.key("label").value(entry->label);
            json.key("status").value(entry->status);
            json.key("epsilon").value(entry->epsilon);
            json.key("delta").value(entry->delta);
            json.key("accounting");
            privacy::writeAccountingJson(json, entry->accounting);
        }
        json.endObject();
    }
    json.endArray();
    // The record's writer is shared with every run; the trials belong to auto-tune's records
    // only, so they are added here, as the record's last key.
    std::string line = recordLine;
    line.insert(end, ",\"tuning_trials\":" + json.text());
    return line;
}

std::vector<std::vector<SweepRun>> tuningGroups(const SweepSpec& spec,
                                                const std::vector<SweepRun>& runs) {
    std::vector<std::vector<SweepRun>> groups;
    std::map<std::string, std::size_t> groupOf;
    for (const SweepRun& run : runs) {
        TrainConfig base = run.config;
        for (const SweepAxis& axis : spec.axes) base.extra.erase(axis.parameter);
        const std::string key = run.dataset + "|" + settingsKey(base);
        const auto found = groupOf.find(key);
        if (found == groupOf.end()) {
            groupOf.emplace(key, groups.size());
            groups.push_back({run});
        } else {
            groups[found->second].push_back(run);
        }
    }
    return groups;
}

SweepOutcome runAutoTuneSweep(const SweepSpec& spec, const DatasetProvider& provider,
                              const SweepOptions& options, const AutoTuneOptions& tune,
                              const CancelToken& cancel) {
    using Clock = std::chrono::steady_clock;
    const auto started = Clock::now();
    const std::vector<SweepRun> runs =
        shardRuns(spec.expand(), options.shardIndex, options.shardCount);
    const std::vector<std::vector<SweepRun>> groups = tuningGroups(spec, runs);
    SweepOutcome outcome;
    outcome.progress.total = groups.size();
    std::set<std::string> done;
    if (options.resume && !options.outputPath.empty()) done = completedRunKeys(options.outputPath);
    std::vector<std::size_t> todo;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (done.count("auto-tune|" + groups[g].front().key)) {
            ++outcome.progress.alreadyDone;
        } else {
            todo.push_back(g);
        }
    }
    std::map<std::string, PreparedDatasetPtr> data;
    for (std::size_t g : todo) {
        const std::string& dataset = groups[g].front().dataset;
        if (!data.count(dataset)) data[dataset] = provider(dataset);
    }

    ResultsAppender output(options.outputPath);
    std::mutex mutex;
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= todo.size() || cancel.cancelled()) return;
            const std::vector<SweepRun>& group = groups[todo[i]];
            const PreparedDataset& prepared = *data.at(group.front().dataset);
            std::vector<TrainConfig> candidates;
            for (const SweepRun& run : group) candidates.push_back(run.config);
            RunContext context = prepared.context;
            context.runKey = "auto-tune|" + group.front().key;
            // Each trial and the final run are charged as soon as they end (serialised).
            auto charge = [&](const privacy::LedgerEntry& entry) {
                if (!options.onCharge) return;
                const std::lock_guard<std::mutex> lock(mutex);
                try {
                    options.onCharge(context, {entry});
                } catch (const std::exception& error) {
                    if (outcome.chargeError.empty()) outcome.chargeError = error.what();
                }
            };
            // The trials as they end: recorded even when the tuning fails later.
            std::vector<TuneTrial> trials;
            AutoTuneOptions charged = tune;
            charged.onTrial = [&](const TuneTrial& trial) {
                trials.push_back(trial);
                if (auto entry = trialLedgerEntry(trial, tune.stepSetting)) charge(*entry);
                if (tune.onTrial) tune.onTrial(trial);
            };
            RunResult result;
            try {
                AutoTuneOutcome tuned = autoTune(candidates, prepared.split, charged, cancel);
                if (auto entry =
                        ledgerEntryForRun(tuned.final, context, runLabel(tuned.final.config)))
                    charge(*entry);
                if (tuned.cancelled) return;
                result = std::move(tuned.final);
            } catch (const std::exception& error) {
                result.config = group.front().config;
                result.dataset = prepared.split.train.name;
                result.status = RunStatus::Failed;
                result.message = error.what();
                result.test.error = result.trainLoss = kNaN;
            }
            const std::string line =
                withTuningTrials(runRecordJson(result, context), trials, tune.stepSetting);
            const std::lock_guard<std::mutex> lock(mutex);
            output.append(line);
            SweepProgress& p = outcome.progress;
            ++p.finished;
            if (result.status == RunStatus::Failed || result.status == RunStatus::Diverged)
                ++p.failed;
            p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - started).count();
            p.etaSeconds = p.elapsedSeconds / static_cast<double>(p.finished) *
                           static_cast<double>(todo.size() - p.finished);
            if (options.onRunFinished) options.onRunFinished(group.front(), result, p);
            outcome.runs.push_back(group.front());
            outcome.results.push_back(std::move(result));
        }
    };
    unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                           : static_cast<unsigned>(availableCpus());
    threads =
        std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(1, todo.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& thread : pool) thread.join();
    outcome.cancelled = cancel.cancelled();
    outcome.progress.elapsedSeconds = std::chrono::duration<double>(Clock::now() - started).count();
    return outcome;
}

}  // namespace pfa
