#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/privacy/accounting_inputs.h"

namespace pfa::privacy {

/// Noise source of a run, as stated in its privacy statement.
enum class NoiseSource {
    Seeded,  ///< pseudo-random from the seed and every setting: reproducible, seed must be secret
    Secure,  ///< operating-system entropy (libsodium, ChaCha20): cannot be regenerated
};
/// "seeded" / "os-entropy".
std::string noiseSourceName(NoiseSource source);
/// Inverse of noiseSourceName; throws InputError for an unknown name.
NoiseSource parseNoiseSource(const std::string& name);

/// Something a run's record holds that is computed from the private training data and is not
/// covered by the run's guarantee. The statement names every one; the record lists them with
/// the fields that hold them (tests check the record against this list).
struct Disclosure {
    std::string what;                 ///< for the statement: "the training loss per epoch"
    std::vector<std::string> fields;  ///< record field patterns ("history.train_loss")
    /// A training-set diagnostic: recorded only when diagnostics are on (--no-diagnostics
    /// leaves it out); otherwise something the run cannot do without.
    bool diagnostic = false;
};

/// The privacy side of a run: what was certified, how, and the generated statement.
struct PrivacyReport {
    std::string algorithm;    ///< e.g. "dp-fermi"
    std::string calibration;  ///< "conservative (RDP-calibrated)", "published (as published — known
                              ///< accounting gaps)"
    std::string unit = "record";  ///< what one unit of privacy is: "record", "recording", "user"
    std::string orderGrid;        ///< description of the order grid
    double epsilonWithoutAmplification = 0.0;  ///< rigorous ε for non-Poisson sampling (0 = n/a)
    std::string sampling;  ///< "Poisson", "shuffled batches", "uniform subsample"
    long expectedBatch = 0;
    bool isPrivate = false;
    double epsilonTarget = 0.0;   ///< the ε the user asked for (total)
    double epsilonSpent = 0.0;    ///< certified by the RDP accountant (+ pure ε of side releases)
    double epsilonNominal = 0.0;  ///< closed-form target (published calibration), else = target
    double epsilonShares = 0.0;   ///< ε_π spent on the privatised group shares (0 if none)
    double delta = 0.0;
    double optimalOrder = 0.0;  ///< α* of the final conversion
    bool orderAtGridEdge = false;
    double noiseMultiplier = 0.0;  ///< effective z of the joint per-step release
    double noiseMultiplierTheta = 0.0, noiseMultiplierW = 0.0;
    double sigmaTheta = 0.0;  ///< noise std on the θ batch mean, per coordinate
    double sigmaW = 0.0;      ///< noise std on the W batch mean, per entry
    double clipTheta = 0.0, clipW = 0.0;
    double samplingRate = 0.0;  ///< q
    long steps = 0;
    std::string accountant;       ///< e.g. "Rényi-DP accountant"
    std::string mechanism;        ///< e.g. "Poisson-subsampled Gaussian, signed series"
    std::string clipDescription;  ///< e.g. "C_θ = 1, C_W = 17.3"
    std::string extraReleases;    ///< e.g. "group shares via Laplace, ε₀ = 0.05"
    /// A run that releases once instead of training by noisy steps (e.g. one Laplace-noised
    /// table): what it releases, shown as the statement's mechanism in place of steps,
    /// sampling and noise multipliers; empty for step-wise runs.
    std::string oneShotRelease;
    /// How the reported model is derived from the released iterates, e.g. "a running average
    /// of the iterates" (post-processing: no privacy cost); empty = the last iterate.
    std::string postProcessing;
    /// Set when the run is one of the candidates of a sweep's hyper-parameter grid:
    /// "split-budget" (the candidates share the grid's ε) or "not-covered" (each spends it all).
    std::string tuning;
    int tuningCandidates = 0;  ///< K, the candidates sharing one (ε, seed) of the grid
    double tuningGridEpsilon =
        0.0;  ///< the ε the user gave the grid (split-budget: K × ε of the run)
    std::string sensitiveColumn;  ///< e.g. "sex"
    bool knownGaps = false;       ///< published calibration: label results accordingly
    /// False when the run's ε rests on an assumption no proof covers (a heuristic mode): then
    /// epsilonSpent is +∞ (nothing certified, and the ledger charges it so), and the heuristic
    /// value is epsilonHeuristic, computed from heuristicAccounting, shown only as "heuristic,
    /// not a guarantee".
    bool certified = true;
    double epsilonHeuristic = 0.0;
    AccountingInputs heuristicAccounting;
    double epsilonPoissonAssumed = 0.0;  ///< non-Poisson sampling: ε if Poisson were assumed
    std::string adjacency;               ///< "add/remove-one" or "replace-one"
    std::string protectedData;           ///< what a neighbouring data set may change
    /// What a neighbouring data set is, in words ("all rows of one user replaced", "one record
    /// of one silo"); empty = one unit added or removed, as the adjacency says.
    std::string neighbouring;
    /// Who must be trusted and who sees what ("no one: each silo adds its own noise before
    /// anything leaves it"); empty = the party that runs the training (the usual central DP).
    std::string trustModel;
    std::string statement;  ///< privacy-accounting.md §9 text
    std::vector<std::string> warnings;

    /// The exact inputs of `epsilonSpent`: certifiedEpsilon(accounting) recomputes it.
    AccountingInputs accounting;
    /// False for runs read from records written before the accounting inputs were stored.
    bool accountingKnown = true;
    NoiseSource noiseSource = NoiseSource::Seeded;
    std::uint64_t seed = 0;  ///< the run seed (seeded noise only)
    /// Training-set diagnostics were recorded (they are never protected; see disclosures).
    bool diagnosticsRecorded = true;
    /// Further releases this run makes that its ε does not cover (e.g. exact group shares of
    /// the published calibration), one sentence each.
    std::vector<std::string> uncoveredReleases;
    /// What the record holds that is computed from the private training data and not covered
    /// (diagnostics, counts, settings read from the data), each with its record fields.
    std::vector<Disclosure> disclosures;
    /// Adds a disclosure (see Disclosure).
    void disclose(std::string what, std::vector<std::string> fields, bool diagnostic = false) {
        disclosures.push_back({std::move(what), std::move(fields), diagnostic});
    }

    /// Rows that are not persons: the column identifying a person ("" when each row is a
    /// person, or unknown), the number of persons among the training rows, the largest number
    /// of rows one person contributes, and the group-privacy ε for all of one person's rows
    /// at the same δ (privacy-accounting.md §7 fallback; loose).
    std::string personColumn;
    long persons = 0;
    long maxRowsPerPerson = 0;
    double epsilonPerPerson = 0.0;
};

/// Renders the privacy statement of privacy-accounting.md §9 for a run.
/// `runId` and `date` may be empty (they are filled in by whoever stores the run).
std::string renderPrivacyStatement(const PrivacyReport& report, const std::string& runId,
                                   const std::string& date);

/// The report of a non-private run: ε = ∞, nothing protected, with a statement saying so.
PrivacyReport nonPrivateReport(const std::string& algorithm, long steps);

/// Turns `report`'s accounting into a heuristic kept beside the certified ε, which becomes ∞:
/// for runs whose noise scale no accountant can certify (read from the private rows, or a
/// paper's formula with an unstated constant). The ε and the releases move to
/// `epsilonHeuristic` and `heuristicAccounting`; nothing is certified.
void keepAccountingAsHeuristic(PrivacyReport& report);

}  // namespace pfa::privacy
