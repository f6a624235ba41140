#include "core/privacy/privacy_report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace pfa::privacy {

namespace {

std::string number(double value, int digits = 4) {
    if (std::isinf(value)) return value > 0 ? "∞" : "−∞";
    if (std::isnan(value)) return "n/a";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
}

}  // namespace

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
    if (std::isinf(r.epsilonSpent)) {
        text << "Guarantee: none certified (ε = ∞ by the " << r.accountant << "). " << r.mechanism
             << "\n";
    } else {
        text << "Guarantee: (ε = " << number(r.epsilonSpent) << ", δ = " << number(r.delta, 3)
             << ")-differential privacy per " << r.unit << " under " << r.adjacency
             << " adjacency, computed with the " << r.accountant << " (" << r.mechanism
             << "; " << r.orderGrid << "; optimal order " << number(r.optimalOrder)
             << "; RDP→DP conversion: tightened bound)";
        if (r.epsilonShares > 0) {
            text << ": ε = " << number(r.epsilonSpent - r.epsilonShares)
                 << " for the training steps plus ε₀ = " << number(r.epsilonShares)
                 << " for the privatised group shares (Laplace, basic composition)";
        }
        text << ".\n";
    }
    text << "Protected: " << r.protectedData
         << ". Test rows used for the displayed metrics are not protected. Preprocessing "
            "statistics (category lists, means, standard deviations) are computed from the "
            "training rows and are not privatised.\n";
    text << "Mechanism: " << r.steps << " steps, sampling " << r.sampling;
    if (r.samplingRate > 0) {
        text << ", rate q = " << number(r.samplingRate) << " (expected batch " << r.expectedBatch
             << ")";
    }
    text << ", noise multiplier(s) z_θ = " << number(r.noiseMultiplierTheta);
    if (r.noiseMultiplierW > 0) text << ", z_W = " << number(r.noiseMultiplierW);
    text << " → effective z = " << number(r.noiseMultiplier) << "; noise std on the batch mean σ_θ = "
         << number(r.sigmaTheta);
    if (r.sigmaW > 0) text << ", σ_W = " << number(r.sigmaW);
    if (!r.clipDescription.empty()) text << "; clip " << r.clipDescription;
    if (!r.extraReleases.empty()) text << "; extra releases: " << r.extraReleases;
    text << ".\n";
    if (r.epsilonPoissonAssumed > 0) {
        text << "Rigorous ε without sampling amplification: " << number(r.epsilonSpent)
             << ". ε assuming Poisson sampling (approximation, not a guarantee): "
             << number(r.epsilonPoissonAssumed) << ".\n";
    }
    if (r.epsilonNominal > 0 && r.knownGaps) {
        text << "Target ε of the published closed-form calibration: " << number(r.epsilonNominal)
             << " (nominal; the certified value above is what the accountant computes).\n";
    }
    text << "Covers all intermediate models and curves of this run. Not covered: other runs on "
            "this data set (see the ledger), hyperparameter choices, items marked \"developer "
            "diagnostics\".";
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
    report.statement = renderPrivacyStatement(report, "", "");
    return report;
}

}  // namespace pfa::privacy
