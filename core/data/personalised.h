#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>

#include "core/data/dataset.h"
#include "core/data/schema.h"
#include "core/data/tabular_data.h"

namespace pfa {

/// Knobs of the synthetic personalised linear regression data ("synthetic-personalised"): N
/// users who share most of a linear model and differ in a few coordinates, the benchmark on
/// which personalised private SGD is judged. All draws of the truth come from one seeded stream:
///   θ₀ ~ N(0, g² I_d)                                  (g = globalScale)
///   θ*_i = θ₀, plus s·N(0, 1) on the last p coordinates (s = heterogeneity, p =
///   personalCoordinates)
/// A sample of user i: x ~ N(0, diag(λ)), λ_k = 1/k (k = 1 … d), y = θ*_iᵀx + τ·N(0, 1).
/// The table holds `rowsPerUser` such samples per user (with the user id, for the train/test
/// split and per-user metrics); an algorithm that knows the generator (Dataset::personalised)
/// draws fresh samples instead and measures the exact excess risk.
struct PersonalisedOptions {
    int users = 1000;             ///< N (2 … 100000)
    int features = 100;           ///< d (1 … 1000)
    int personalCoordinates = 5;  ///< p: the last p coordinates differ between users (0 … d)
    double heterogeneity = 0.01;  ///< s ≥ 0: std of the per-user offsets
    double noise = 0.01;          ///< τ ≥ 0: label noise std
    double globalScale = 10.0;    ///< g > 0: std of the shared coefficients θ₀
    int rowsPerUser = 4;          ///< table rows per user (1 … 1000)
    std::uint64_t seed = 42;      ///< generator seed (independent of the run seed)
};

/// The generative description of "synthetic-personalised" data: every user's optimum, the
/// feature variances and the label noise. Lets an algorithm draw fresh samples per round
/// (online learning: nothing is stored) and compute the exact excess risk.
struct PersonalisedTruth {
    Eigen::MatrixXd optimum;      ///< d × N: column i is θ*_i (user id i)
    Eigen::VectorXd variances;    ///< λ_k = 1/k, the diagonal of the feature covariance
    Eigen::VectorXd scales;       ///< √λ_k
    double noise = 0.0;           ///< τ
    int personalCoordinates = 0;  ///< p

    int users() const { return static_cast<int>(optimum.cols()); }
    int features() const { return static_cast<int>(optimum.rows()); }

    /// Excess risk of user i with the model u = w + θ_i: Σ_k λ_k (u − θ*_i)_k² (the expected
    /// squared error minus τ², un-halved).
    double userExcessRisk(int user, const Eigen::Ref<const Eigen::VectorXd>& model) const;
    /// The mean over users: E(w, θ) = (1/N) Σ_i Σ_k λ_k (w + θ_i − θ*_i)_k², with θ_i column i
    /// of `offsets` (d × N). Not divided by d (a common alternative normalisation).
    double excessRisk(const Eigen::VectorXd& global, const Eigen::MatrixXd& offsets) const;
    /// The smallest excess risk a model shared by all users can reach: Σ_k λ_k Var_i(θ*_i,k)
    /// with the empirical variance over users (≈ s²·Σ_{k>d−p} 1/k).
    double globalModelFloor() const;

    /// Fills `x` (m × d, one sample per row) with m fresh feature vectors of user `user` and
    /// `y` (m) with their labels, drawing from `random` (ziggurat normals). Never allocates.
    void sample(int user, class FastRandom& random, Eigen::Ref<RowMatrix> x,
                Eigen::Ref<Eigen::VectorXd> y) const;
};

/// A fast, portable generator for bulk data simulation (xoshiro256++, seeded through
/// splitmix64): about a nanosecond per 64 bits. Not for privacy noise, which comes from
/// RandomStream (seeded per run, or from the operating system).
class FastRandom {
public:
    explicit FastRandom(std::uint64_t seed, std::uint64_t streamLabel);
    std::uint64_t next64() {
        const std::uint64_t result = rotl(m_s[0] + m_s[3], 23) + m_s[0];
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    /// Uniform in (0, 1), never 0 or 1.
    double uniformOpen() { return (static_cast<double>(next64() >> 11) + 0.5) * 0x1.0p-53; }
    /// Uniform integer in [0, bound), bound ≥ 1 (Lemire's method, without bias).
    std::uint64_t uniformIndex(std::uint64_t bound);

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

/// A standard normal sample by the ziggurat method (256 layers): a few nanoseconds, for bulk
/// data generation.
double fastNormal(FastRandom& random);

/// Validates `options` (InputError naming the bad knob) and makes the truth.
std::shared_ptr<const PersonalisedTruth> makePersonalisedTruth(const PersonalisedOptions& options);

/// Generates the data set: numeric columns x1 … xd, the real-valued target, user ids
/// ("user 1" …) and the truth (TabularData::personalised).
TabularData generatePersonalised(const PersonalisedOptions& options = {});

/// The data as a file would hold it: numeric columns x1 … xd, target "y", person column "user".
Schema personalisedSchema(const PersonalisedOptions& options = {});

/// One line describing the knobs, for reports.
std::string describePersonalised(const PersonalisedOptions& options);

}  // namespace pfa
