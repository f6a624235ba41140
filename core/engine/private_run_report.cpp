#include "core/engine/private_run_report.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "core/config/parameters.h"
#include "core/util/format.h"

namespace pfa {

std::string wholeRecordProtection(const Dataset& train) {
    return "every column of each training " + train.unitName +
           " (features, label and the sensitive attribute '" + train.sensitiveDescription + "')";
}

PersonCounts countPersons(const Dataset& train) {
    PersonCounts counts;
    if (train.userId.size() == 0) return counts;
    std::unordered_map<int, long> rows;
    for (Eigen::Index i = 0; i < train.userId.size(); ++i) ++rows[train.userId(i)];
    counts.persons = static_cast<long>(rows.size());
    for (const auto& [id, count] : rows) counts.maxRows = std::max(counts.maxRows, count);
    return counts;
}

std::string siloNeighbouring(const Dataset& train) {
    std::string text = "one record of one silo replaced";
    if (!train.siloAssumption.empty()) text += " (" + train.siloAssumption + ")";
    return text;
}

std::string settingField(const std::string& name) {
    return isTopLevelRecordParameter(name) ? name : "settings." + name;
}

bool isDisclosed(const DataDerivedSetting& setting, privacy::Adjacency adjacency) {
    return setting.readsContent || adjacency == privacy::Adjacency::AddRemove;
}

void discloseStandardItems(privacy::PrivacyReport& report, const TrainConfig& config,
                           const Dataset& train) {
    if (recordsDiagnostics(config)) {
        report.disclose(
            "the training loss, the training objective and the share of clipped "
            "gradients per epoch",
            {"train_loss", "history.train_loss", "history.train_objective",
             "history.clip_fraction"},
            /*diagnostic=*/true);
    }
    const privacy::Adjacency adjacency = report.accounting.adjacency;
    if (report.accounting.unit == "user" && train.users) {
        // The unit is a user: how many rows the users hold is private under either adjacency.
        report.disclose("the number of training rows, " + std::to_string(train.rows()) +
                            " (how many rows the users hold is private at user level)",
                        {"config.train_rows"});
    }
    if (adjacency == privacy::Adjacency::AddRemove) {
        const bool users = report.accounting.unit == "user" && train.users;
        const long units = users ? train.users->units() : static_cast<long>(train.rows());
        report.disclose("the number of training " +
                            std::string(users ? "users" : train.unitName + "s") +
                            ", n = " + std::to_string(units) +
                            " (under add/remove adjacency n itself is private; it is in this "
                            "record and sets the sampling rate and the number of steps)",
                        {"config.train_rows"});
    }
    for (const DataDerivedSetting& setting : config.readFromData) {
        if (!isDisclosed(setting, adjacency)) continue;
        // Numbers to 4 significant digits for reading; the record's settings hold them exactly.
        std::string value = setting.value;
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        if (end && *end == '\0' && !value.empty()) value = formatNumber(number, 4);
        report.disclose(
            setting.name + " = " + value + ", chosen automatically as " + setting.meaning,
            {settingField(setting.name)});
    }
}

void describePrivateRun(RunResult& result, const privacy::RunAccountant& accountant,
                        const Dataset& train) {
    const TrainConfig& config = result.config;
    privacy::PrivacyReport& report = result.privacy;
    report.isPrivate = true;
    report.epsilonTarget = config.epsilon;
    if (report.epsilonNominal == 0.0) report.epsilonNominal = config.epsilon;
    report.delta = config.delta;
    report.steps = result.steps;
    report.accountant = "Rényi-DP accountant";
    report.unit = train.unitName;
    report.accounting = accountant.inputsAfter(result.steps);
    const privacy::EpsilonResult spent = accountant.after(result.steps);
    report.epsilonSpent = spent.epsilon;
    report.optimalOrder = spent.order;
    report.orderAtGridEdge = spent.orderAtGridEdge;
    report.orderGrid = accountant.grid().describe();
    report.noiseSource =
        config.secureNoise ? privacy::NoiseSource::Secure : privacy::NoiseSource::Seeded;
    report.seed = config.seed;
    report.diagnosticsRecorded = recordsDiagnostics(config);
    if (config.averaging == IterateAveraging::PolynomialDecay) {
        report.postProcessing =
            "an average of the released iterates θ_t weighted toward recent ones "
            "(polynomial-decay averaging, weight 4/(t + 3) at step t), not the "
            "last iterate";
    }
    report.sensitiveColumn = train.sensitiveDescription;

    const PersonCounts persons = countPersons(train);
    report.personColumn = train.personColumn;
    report.persons = persons.persons;
    report.maxRowsPerPerson = persons.maxRows;
    if (persons.maxRows > 1) {
        report.epsilonPerPerson =
            privacy::groupPrivacyEpsilon(accountant.grid(), accountant.curveAfter(result.steps),
                                         accountant.pureEpsilon(), persons.maxRows, config.delta);
    }
    discloseStandardItems(report, config, train);
    if (spent.orderAtGridEdge) {
        report.warnings.push_back(
            "the optimal RDP order is at the edge of the grid; the bound "
            "may be loose");
    }
    if (result.status == RunStatus::Cancelled) {
        report.warnings.push_back("run stopped early: ε covers the " +
                                  std::to_string(result.steps) + " steps executed");
    }
}

void describeNoise(privacy::PrivacyReport& report, const GaussianMechanism& noise) {
    using Stream = GaussianMechanism::Stream;
    report.noiseMultiplier = noise.noiseMultiplier();
    report.noiseMultiplierTheta = noise.stream(Stream::Theta).noiseMultiplier;
    report.noiseMultiplierW = noise.stream(Stream::W).noiseMultiplier;
    report.sigmaTheta = noise.stream(Stream::Theta).drawnSigma();
    report.sigmaW = noise.stream(Stream::W).drawnSigma();
}

}  // namespace pfa
