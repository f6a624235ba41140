#pragma once

namespace pfa::privacy {

/// Inputs of the closed-form DP-FERMI noise calibrations (dp-fermi.md §7.2–7.5).
struct ClosedFormInputs {
    double epsilon = 1.0;  ///< training budget (after any share split)
    double delta = 1e-5;
    double rows = 0;       ///< n
    double batch = 0;      ///< m
    double steps = 0;      ///< T
    double minShare = 0;   ///< ρ
    double radius = 0;     ///< R
    double lipschitz = 0;  ///< L_θ (model sensitivity constant, §7.3)
    double classes = 2;    ///< l
    double clipTheta = 1;  ///< C_θ (all-features conservative)
    double clipW = 1;      ///< C_W (all-features conservative)
};

/// Noise variances on the batch means of the two streams.
struct NoiseVariances {
    double theta = 0.0;  ///< σ_θ²
    double w = 0.0;      ///< σ_w²
};

/// Λ = T·ln(1/δ) / (ε²·n²).
double closedFormLambda(const ClosedFormInputs& in);

/// Checks §7.2 preconditions 1 (ε ≤ 2 ln(1/δ)) and 2 (T ≥ n²ε/(4m²)); throws InputError
/// with the minimum T ("raise epochs to at least N") when violated.
void checkClosedFormPreconditions(const ClosedFormInputs& in);

/// Smallest T satisfying precondition 2.
double minimumClosedFormSteps(const ClosedFormInputs& in);

/// §7.4 `published`, sensitive_only: σ_w² = 16Λ/ρ, σ_θ² = 16 L_θ² R² Λ/ρ.
NoiseVariances publishedSensitiveOnly(const ClosedFormInputs& in);
/// §7.5 `published`, all_features: σ_w² = 32Λ(1/ρ + R²), σ_θ² = 64 L_θ²R²Λ/ρ + 32 R⁴ L_θ² l² Λ.
NoiseVariances publishedAllFeatures(const ClosedFormInputs& in);
/// §7.4 `conservative` column, sensitive_only: both variances doubled.
NoiseVariances conservativeSensitiveOnly(const ClosedFormInputs& in);
/// §7.5 `conservative`, all_features: σ_θ² = 16 C_θ² Λ, σ_w² = 16 C_W² Λ.
NoiseVariances conservativeAllFeatures(const ClosedFormInputs& in);

/// Model sensitivity constants of §7.3 for a feature-norm bound B.
double logisticLipschitz(double featureBound);  ///< (√2/4)·B
double softmaxLipschitz(double featureBound);   ///< B/2

}  // namespace pfa::privacy
