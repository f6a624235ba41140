#include "core/privacy/privacy_report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/util/error.h"

namespace pfa::privacy {

namespace {

std::string number(double value, int digits = 4) {
    if (std::isinf(value)) return value > 0 ? "∞" : "−∞";
    if (std::isnan(value)) return "n/a";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

std::string plural(const std::string& unit) { return unit.empty() ? "records" : unit + "s"; }

}  // namespace

std::string noiseSourceName(NoiseSource source) {
    return source == NoiseSource::Secure ? "os-entropy" : "seeded";
}

NoiseSource parseNoiseSource(const std::string& name) {
    if (name == "seeded") return NoiseSource::Seeded;
    if (name == "os-entropy") return NoiseSource::Secure;
    throw InputError("unknown noise source '" + name + "': use seeded or os-entropy");
}

std::string renderPrivacyStatement(const PrivacyReport& r, const std::string& runId,
                                   const std::string& date) {
    std::ostringstream text;
    text << "Privacy statement — " << r.algorithm << " (" << r.calibration << ")";
    if (!runId.empty()) text << ", run " << runId;
    if (!date.empty()) text << ", " << date;
    text << "\n";
    if (!r.isPrivate) {
        text << "Guarantee: none. This run is not differentially private (ε = ∞); nothing about "
                "the training data is protected.\n";
        return text.str();
    }
    if (!r.certified) {
        text << "Guarantee: none. ε = " << number(r.epsilonHeuristic)
             << " at δ = " << number(r.delta, 3) << " per " << r.unit << " under " << r.adjacency
             << " adjacency is a heuristic, not a guarantee: it rests on an assumption no proof "
                "covers (see the warning below); the privacy ledger counts this run as "
                "unbounded (ε = ∞).\n";
    } else if (std::isinf(r.epsilonSpent)) {
        text << "Guarantee: none certified (ε = ∞ by the " << r.accountant << "). " << r.mechanism
             << "\n";
    } else {
        text << "Guarantee: (ε = " << number(r.epsilonSpent) << ", δ = " << number(r.delta, 3)
             << ")-differential privacy per " << r.unit << " under " << r.adjacency
             << " adjacency, computed with the " << r.accountant << " (" << r.mechanism << "; "
             << r.orderGrid << "; optimal order " << number(r.optimalOrder)
             << "; RDP→DP conversion: tightened bound)";
        if (r.epsilonShares > 0) {
            text << ": ε = " << number(r.epsilonSpent - r.epsilonShares)
                 << " for the training steps plus ε₀ = " << number(r.epsilonShares)
                 << " for the privatised group shares (Laplace, basic composition)";
        }
        text << ".\n";
    }
    if (!r.neighbouring.empty()) text << "Neighbouring data sets: " << r.neighbouring << ".\n";
    if (!r.trustModel.empty()) text << "Trust: " << r.trustModel << ".\n";
    if (r.maxRowsPerPerson > 1) {
        text << "Persons: the unit is one " << r.unit << ", not one person. Each person ("
             << (r.personColumn.empty() ? std::string("user id") : "'" + r.personColumn + "'")
             << ") contributes up to " << r.maxRowsPerPerson << " " << plural(r.unit);
        if (r.persons > 0) text << " (" << r.persons << " persons in the training rows)";
        text << ", so a person is protected only at the group-privacy level of their row count: "
                "ε = "
             << number(r.epsilonPerPerson) << " at δ = " << number(r.delta, 3) << " for all of one "
             << "person's " << plural(r.unit)
             << " (group privacy through the RDP curve; a loose bound). User-level privacy needs "
                "a user-level algorithm.\n";
    }
    text << "Protected: " << r.protectedData
         << ". Test rows used for the displayed metrics are not protected. Preprocessing "
            "statistics (category lists, means, standard deviations) are computed from the "
            "training rows and are not privatised.\n";
    if (!r.oneShotRelease.empty()) {
        text << "Mechanism: " << r.oneShotRelease << ".\n";
    } else {
        text << "Mechanism: " << r.steps << " steps, sampling " << r.sampling;
        if (r.samplingRate > 0) {
            text << ", rate q = " << number(r.samplingRate) << " (expected batch "
                 << r.expectedBatch << ")";
        }
        text << ", noise multiplier(s) z_θ = " << number(r.noiseMultiplierTheta);
        if (r.noiseMultiplierW > 0) text << ", z_W = " << number(r.noiseMultiplierW);
        text << " → effective z = " << number(r.noiseMultiplier)
             << "; noise std on the batch mean σ_θ = " << number(r.sigmaTheta);
        if (r.sigmaW > 0) text << ", σ_W = " << number(r.sigmaW);
        if (!r.clipDescription.empty()) text << "; clip " << r.clipDescription;
        if (!r.extraReleases.empty()) text << "; extra releases: " << r.extraReleases;
        text << ".\n";
    }
    if (!r.accounting.sharedBatches.empty() && r.accounting.nestedSample) {
        text << "Batches: shared, nested (" << r.accounting.sharedBatches
             << "): at each step every training row joins one Poisson sample and draws a level; "
                "this run's batch is its own private rows whose level falls below its rate q, so "
                "each private row still joins independently with probability q and its ε above is "
                "its own and unchanged. Runs at other rates (other public shares) with this seed "
                "take their rows from the same sample, so a row in a lower-rate batch is in every "
                "higher-rate batch it is private to; the data set's ledger charges them together "
                "as one mechanism at the highest rate among them (at each step, effective z = "
                "(Σ 1/z_r²)^(-1/2) over the runs still training), or as independent runs where "
                "that costs more.\n";
    } else if (!r.accounting.sharedBatches.empty()) {
        text << "Batches: shared (" << r.accounting.sharedBatches
             << "): every run with this seed, sampler and these training rows drew the same "
                "Poisson sample at each step (so a sweep trains them in one pass). This run's ε "
                "above is its own and unchanged; the runs that share one sample are not "
                "independent of each other, so the data set's ledger charges them together as one "
                "mechanism on the shared sample (at each step, effective z = (Σ 1/z_r²)^(-1/2) "
                "over the runs still training), or as independent runs where that costs more.\n";
    }
    if (!r.postProcessing.empty()) {
        text << "Reported model: " << r.postProcessing
             << " — post-processing of the privately released iterates, at no privacy cost.\n";
    }
    if (r.epsilonPoissonAssumed > 0) {
        text << "Rigorous ε without sampling amplification: " << number(r.epsilonSpent)
             << ". ε assuming Poisson sampling (approximation, not a guarantee): "
             << number(r.epsilonPoissonAssumed) << ".\n";
    }
    if (r.epsilonNominal > 0 && r.knownGaps) {
        text << "Target ε of the published closed-form calibration: " << number(r.epsilonNominal)
             << " (nominal; the certified value above is what the accountant computes).\n";
    }
    if (r.noiseSource == NoiseSource::Secure) {
        text << "Noise: drawn from the operating system's entropy (libsodium, ChaCha20); it "
                "cannot be regenerated by anyone, so this run is not bit-for-bit reproducible.\n";
    } else {
        text << "Noise: pseudo-random, derived from the seed (" << r.seed
             << ") and every setting of the run, so the run is reproducible from its record; the "
                "guarantee assumes the seed is kept secret (whoever knows it can regenerate the "
                "noise). Choose Secure noise (OS entropy) for a model that leaves this machine.\n";
    }
    text << "Limits: noise is sampled in floating point, which deviates from the ideal "
            "distributions the analysis assumes (Mironov 2012); the guarantee is that of the "
            "idealised mechanism.\n";
    // What the record holds that is computed from the private rows and not covered.
    std::string diagnostics, other;
    for (const Disclosure& d : r.disclosures) {
        std::string& list = d.diagnostic ? diagnostics : other;
        list += (list.empty() ? "" : "; ") + d.what;
    }
    if (!diagnostics.empty()) {
        text << "Not protected — diagnostics, computed exactly on the private training rows and "
                "recorded for this run (they can be switched off): "
             << diagnostics << ".\n";
    } else if (!r.diagnosticsRecorded) {
        text << "Training-set diagnostics: not recorded for this run.\n";
    }
    if (!other.empty()) {
        text << "Not protected — read from the private training data: " << other << ".\n";
    }
    text << "Covers all intermediate models of this run and every curve computed from them on "
            "test rows, and the ε curve. Not covered: other runs on this data set (the privacy "
            "ledger composes them), hyperparameter choices, what is listed as not protected above";
    for (const std::string& release : r.uncoveredReleases) text << "; " << release;
    text << ".";
    if (r.tuning == "split-budget") {
        text << " Tuning: this run is one of " << r.tuningCandidates
             << " candidate settings that split the grid's ε = " << number(r.tuningGridEpsilon)
             << " evenly, so the whole grid spends ε = " << number(r.tuningGridEpsilon)
             << " (and δ = " << r.tuningCandidates << " × " << number(r.delta)
             << ") on the training " << r.unit
             << "s; choosing a candidate by its test numbers uses the test rows, which are not "
                "protected.";
    } else if (r.tuning == "not-covered" && r.tuningCandidates > 1) {
        text << " Tuning is not covered: this run is one of " << r.tuningCandidates
             << " candidate settings, each spending the full ε; a model picked among them by "
                "their results is only covered by their composed cost (the privacy ledger's "
                "total), not by its own ε.";
    }
    if (r.knownGaps) text << " Published calibration: known accounting gaps apply.";
    text << "\n";
    for (const std::string& warning : r.warnings) text << "Warning: " << warning << "\n";
    return text.str();
}

PrivacyReport nonPrivateReport(const std::string& algorithm, long steps) {
    PrivacyReport report;
    report.algorithm = algorithm;
    report.calibration = "not private";
    report.isPrivate = false;
    report.epsilonTarget = INFINITY;
    report.epsilonSpent = INFINITY;
    report.steps = steps;
    report.accountant = "none";
    report.protectedData = "nothing";
    report.accounting.kind = ReleaseKind::Uncertifiable;
    report.accounting.steps = steps;
    report.statement = renderPrivacyStatement(report, "", "");
    return report;
}

void keepAccountingAsHeuristic(PrivacyReport& report) {
    report.certified = false;
    report.epsilonHeuristic = report.epsilonSpent;
    report.heuristicAccounting = report.accounting;
    report.epsilonSpent = INFINITY;
    report.epsilonPerPerson = INFINITY;
    report.accounting.kind = ReleaseKind::Uncertifiable;
    report.accounting.pureReleases.clear();
    report.accounting.gaussianReleases.clear();
}

}  // namespace pfa::privacy
