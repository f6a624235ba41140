#include "core/algorithms/ppsgd/ppsgd_users.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/data/units.h"

namespace pfa {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kUserSamplesStream = 0x5050534744415441ULL;  // "PPSGDATA"

}  // namespace

PpsgdUserSamples::PpsgdUserSamples(const Dataset& train, const TrainConfig& config, long users,
                                   double localStep)
    : m_train(train),
      m_truth(train.personalised.get()),
      m_features(m_truth ? m_truth->features() : train.features()),
      m_localStep(localStep),
      m_targets(regressionTargets(train)) {
    if (!streaming()) {
        if (train.users) {
            m_offsets = train.users->offsets();
            m_rows = train.users->rowOrder();
        } else {
            m_offsets.resize(static_cast<std::size_t>(users) + 1);
            std::iota(m_offsets.begin(), m_offsets.end(), 0L);
            m_rows.resize(static_cast<std::size_t>(users));
            std::iota(m_rows.begin(), m_rows.end(), 0L);
        }
        m_localSteps.assign(static_cast<std::size_t>(users), localStep);
        for (long i = 0; i < users; ++i) {
            double largest = 0.0;
            for (long k = m_offsets[static_cast<std::size_t>(i)];
                 k < m_offsets[static_cast<std::size_t>(i) + 1]; ++k) {
                largest = std::max(
                    largest, train.X.row(m_rows[static_cast<std::size_t>(k)]).squaredNorm() + 1.0);
            }
            m_localSteps[static_cast<std::size_t>(i)] = std::min(localStep, 1.0 / largest);
        }
    }
    // The users' samples are the protected data, not a privacy mechanism: they depend on the
    // seed alone, one stream per user, so one user's data never changes another's draws.
    m_streams.reserve(static_cast<std::size_t>(users));
    for (long i = 0; i < users; ++i)
        m_streams.emplace_back(config.seed, kUserSamplesStream + static_cast<std::uint64_t>(i));
}

void PpsgdUserSamples::draw(long user, RowMatrix& x, Eigen::VectorXd& y) {
    FastRandom& own = m_streams[static_cast<std::size_t>(user)];
    if (streaming()) {
        m_truth->sample(static_cast<int>(user), own, x, y);
        return;
    }
    const long begin = m_offsets[static_cast<std::size_t>(user)];
    const long size = m_offsets[static_cast<std::size_t>(user) + 1] - begin;
    for (Eigen::Index k = 0; k < x.rows(); ++k) {
        const long row = m_rows[static_cast<std::size_t>(
            begin + static_cast<long>(own.uniformIndex(static_cast<std::uint64_t>(size))))];
        x.row(k).head(m_features) = m_train.X.row(row);
        x(k, m_features) = 1.0;
        y(k) = m_targets(row);
    }
}

double PpsgdUserSamples::localStep(long user) const {
    return streaming() ? m_localStep : m_localSteps[static_cast<std::size_t>(user)];
}

PpsgdReadouts::PpsgdReadouts(const DataSplit& data, const PersonalisedTruth* truth, long users,
                             Eigen::Index features, Eigen::Index modelSize)
    : m_test(data.test),
      m_truth(truth),
      m_users(users),
      m_features(features),
      m_testUserOfRow(static_cast<std::size_t>(data.test.rows()), -1),
      m_testTargets(regressionTargets(data.test)),
      m_rawMean(Eigen::VectorXd::Zero(features)),
      m_rawSd(Eigen::VectorXd::Ones(features)),
      m_userRisk(users),
      m_model(modelSize) {
    const Dataset& test = data.test;
    if (!truth && test.users && data.train.users) {
        const std::vector<long> match = matchUnits(*test.users, *data.train.users);
        for (Eigen::Index r = 0; r < test.rows(); ++r) {
            m_testUserOfRow[static_cast<std::size_t>(r)] =
                match[static_cast<std::size_t>(test.users->unitOf(r))];
        }
    } else if (truth && test.userId.size() == test.rows()) {
        for (Eigen::Index r = 0; r < test.rows(); ++r)
            m_testUserOfRow[static_cast<std::size_t>(r)] = test.userId(r);
    }
    // Streaming models live in raw units; the table is standardised: x_raw = sd·x + mean.
    if (truth && static_cast<Eigen::Index>(data.encoding.means.size()) == features) {
        for (Eigen::Index j = 0; j < features; ++j) {
            m_rawMean(j) = data.encoding.means[static_cast<std::size_t>(j)];
            const double sd = data.encoding.standardDeviations[static_cast<std::size_t>(j)];
            m_rawSd(j) = sd > 0.0 ? sd : 1.0;
        }
    }
}

void PpsgdReadouts::encodedModel(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta, long user,
                                 Eigen::VectorXd& out) const {
    out = w;
    if (user >= 0 && user < m_users) out += theta.col(user);
    if (!m_truth) return;
    Eigen::VectorXd encoded(m_features + 1);
    encoded.head(m_features) = out.cwiseProduct(m_rawSd);
    encoded(m_features) = out.dot(m_rawMean);
    out = std::move(encoded);
}

double PpsgdReadouts::testMse(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta,
                              bool perUser) {
    if (m_test.rows() == 0) return kNaN;
    const bool byUser = perUser && m_test.users;
    if (byUser) {
        m_userSse.assign(static_cast<std::size_t>(m_test.users->units()), 0.0);
        m_userRows.assign(static_cast<std::size_t>(m_test.users->units()), 0.0);
    }
    double sse = 0.0;
    Eigen::VectorXd encoded;
    for (Eigen::Index r = 0; r < m_test.rows(); ++r) {
        encodedModel(w, theta, m_testUserOfRow[static_cast<std::size_t>(r)], encoded);
        const double e = m_test.X.row(r).dot(encoded.head(m_test.features())) +
                         encoded(m_test.features()) - m_testTargets(r);
        sse += e * e;
        if (byUser) {
            const auto k = static_cast<std::size_t>(m_test.users->unitOf(r));
            m_userSse[k] += e * e;
            m_userRows[k] += 1.0;
        }
    }
    return sse / static_cast<double>(m_test.rows());
}

double PpsgdReadouts::excessRisk(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta) {
    for (long i = 0; i < m_users; ++i) {
        m_model = w + theta.col(i);
        m_userRisk(i) = m_truth->userExcessRisk(static_cast<int>(i), m_model);
    }
    return m_userRisk.mean();
}

EpochMetrics PpsgdReadouts::measure(const Eigen::VectorXd& w, const Eigen::MatrixXd& theta,
                                    bool streaming) {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    EpochMetrics e;
    e.violation = e.dpGap = e.eoGap = e.eoppGap = e.ermiHard = e.ermiSoft = kNaN;
    if (streaming) {
        e.excessRisk = excessRisk(w, theta);
        e.testError = e.excessRisk;
        e.unitErrorSpread = m_userRisk.maxCoeff() - m_userRisk.minCoeff();
    } else {
        e.testError = testMse(w, theta, true);
        e.unitErrorSpread = testUserSpread();
    }
    return e;
}

double PpsgdReadouts::testUserSpread() const {
    double lo = kInf, hi = -kInf;
    for (std::size_t k = 0; k < m_userSse.size(); ++k) {
        if (m_userRows[k] == 0) continue;
        lo = std::min(lo, m_userSse[k] / m_userRows[k]);
        hi = std::max(hi, m_userSse[k] / m_userRows[k]);
    }
    return hi >= lo ? hi - lo : kNaN;
}

}  // namespace pfa
