#pragma once

// What ppsgd's rounds need of the users besides the step: where each user's samples come from
// (fresh draws from the generator, or rows of the user's own pool) and the read-outs of the
// personalised models (test MSE per test user, the exact excess risk per user).

#include <Eigen/Dense>
#include <vector>

#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/data/personalised.h"
#include "core/data/preprocessing.h"
#include "core/util/random.h"

namespace pfa {

/// The users' samples of one round. Streaming (data from the personalised generator): m fresh
/// draws of user i. Pool (any data with user ids; ppsgd refuses data without them): m
/// of user i's rows with replacement, each with an intercept, and a local step capped at
/// 1/L_i, L_i the largest ‖(x, 1)‖² of the user's rows [ours: an uncapped local step on a user
/// with one large row diverges at any fixed η; the cap reads only the user's own rows and
/// changes nothing that is released]. Each user draws from a stream of its own that depends
/// on the seed alone (common random numbers across ε, a and η).
class PpsgdUserSamples {
public:
    PpsgdUserSamples(const Dataset& train, const TrainConfig& config, long users, double localStep);

    bool streaming() const { return m_truth != nullptr; }
    /// d: the features a model weighs (the generator's raw coordinates, or the encoded ones).
    Eigen::Index features() const { return m_features; }
    /// D: the model's length (streaming: d; pool: d + 1, the bias last).
    Eigen::Index modelSize() const { return streaming() ? m_features : m_features + 1; }
    /// User i's samples of this round into the rows of x (m × D) and y (m).
    void draw(long user, RowMatrix& x, Eigen::VectorXd& y);
    /// User i's local step.
    double localStep(long user) const;

private:
    const Dataset& m_train;
    const PersonalisedTruth* m_truth;
    Eigen::Index m_features;
    double m_localStep;
    std::vector<long> m_offsets, m_rows;  ///< pool: each user's rows
    std::vector<double> m_localSteps;     ///< pool: each user's capped step
    Eigen::VectorXd m_targets;
    std::vector<FastRandom> m_streams;
};

/// The personalised models' read-outs over the test rows (each test row predicted by its
/// training user's model w + θ_u, the global one for an unknown user) and, streaming, the
/// exact excess risk of every user.
class PpsgdReadouts {
public:
    PpsgdReadouts(const DataSplit& data, const PersonalisedTruth* truth, long users,
                  Eigen::Index features, Eigen::Index modelSize);

    /// The model of user u (the global one for u < 0) in encoded coordinates, bias last.
    void encodedModel(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta, long user,
                      Eigen::VectorXd& out) const;
    /// Test MSE of the personalised predictions; with `perUser`, also per test user
    /// (userSse / userRows).
    double testMse(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta, bool perUser);
    /// The mean over users of the exact excess risk (streaming); per user in userRisk().
    double excessRisk(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta);
    /// The spread (largest − smallest) of the per-test-user MSE of the last testMse(true).
    double testUserSpread() const;
    /// One evaluation's test read-outs: the test error (the mean excess risk when `streaming`,
    /// else the test MSE of the personal models), the users' spread; fairness not applicable.
    EpochMetrics measure(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta, bool streaming);

    const Eigen::VectorXd& userRisk() const { return m_userRisk; }
    const std::vector<double>& userSse() const { return m_userSse; }
    const std::vector<double>& userRows() const { return m_userRows; }

private:
    const Dataset& m_test;
    const PersonalisedTruth* m_truth;
    long m_users;
    Eigen::Index m_features;
    std::vector<long> m_testUserOfRow;  ///< each test row's training user (−1: unknown)
    Eigen::VectorXd m_testTargets;
    Eigen::VectorXd m_rawMean, m_rawSd;  ///< streaming: x_raw = sd·x + mean
    Eigen::VectorXd m_userRisk, m_model;
    std::vector<double> m_userSse, m_userRows;
};

}  // namespace pfa
