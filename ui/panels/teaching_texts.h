#pragma once

#include <QString>
#include <optional>

#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/runs/run_entry.h"

namespace pfa::ui {

/// What the teaching panel's texts are written from: the settings chosen, the data set, and
/// the run whose numbers are shown (the one in progress, else the last one finished).
struct TeachingFacts {
    pfa::TrainConfig config;       ///< as chosen (ε and δ there are targets)
    pfa::PreparedDatasetPtr data;  ///< null: none loaded
    int runId = 0;                 ///< the run shown (0: none yet)
    bool running = false;
    pfa::TrainConfig runConfig;               ///< its settings (automatic values resolved)
    std::optional<pfa::EpochMetrics> latest;  ///< its latest epoch
    RunEntryPtr finished;                     ///< its result, once finished
    RunEntryPtr lastFinished;                 ///< the last run that finished (group rates)

    bool haveRun() const { return runId != 0; }
};

/// The teaching panel's topics in plain words (HTML), with the numbers of `facts`. Privacy
/// numbers follow the privacy statement's rules: the ε chosen is labelled as the target; an ε
/// read as "spent" is only ever one the run's accountant certified.
namespace teaching_texts {

/// What the algorithm does, and in short whether it is private, fair and trains in steps.
QString algorithmHtml(const TeachingFacts& facts);
/// What ε and δ promise (and spent, as certified), the unit protected, the neighbouring data
/// sets, and what is not protected.
QString privacyHtml(const TeachingFacts& facts);
/// What λ trades, with the run's test error and violation.
QString lambdaHtml(const TeachingFacts& facts);
/// What the fairness notion asks, each group's rates behind the gap, and ERMI.
QString fairnessHtml(const TeachingFacts& facts);
/// The data set: its rows and the sizes of its groups.
QString dataHtml(const TeachingFacts& facts);

}  // namespace teaching_texts

}  // namespace pfa::ui
