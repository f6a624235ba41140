#include "core/engine/design_matrix.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>

#include "core/engine/clipping.h"

namespace pfa {

namespace {

/// Norms, rescaling and nonzeros of a design; `rows` are the features' rows with bias. With
/// `mayBorrow` the design reads `rows` itself unless a row must be rescaled.
DesignMatrix buildDesign(const RowMatrix& rows, double bound, bool mayBorrow) {
    DesignMatrix design;
    design.norms = rows.rowwise().norm();
    const bool rescales = bound > 0.0 && (design.norms.array() > bound).any();
    if (mayBorrow && !rescales) {
        design.borrowed = &rows;
    } else {
        design.owned = rows;
        if (rescales) {
            for (Eigen::Index i = 0; i < design.owned.rows(); ++i) {
                double scale = 1.0;
                if (clipScale(design.norms(i), bound, scale)) {
                    design.owned.row(i) *= scale;
                    design.norms(i) = bound;
                }
            }
        }
    }
    design.squaredNorms = design.norms.array().square();
    design.sparse = sparseRowsOf(design.X());
    return design;
}

}  // namespace

DesignMatrix makeDesignMatrix(const FeatureMatrix& features, double bound) {
    return buildDesign(features.withBias(), bound, false);
}

namespace {
std::atomic<bool> denseRowsOnly{false};
}  // namespace

const SparseRows* DesignMatrix::sparseRows() const {
    return sparse.empty() || denseRowsOnly.load(std::memory_order_relaxed) ? nullptr : &sparse;
}

void DesignMatrix::useDenseRowsOnly(bool dense) {
    denseRowsOnly.store(dense, std::memory_order_relaxed);
}

SparseRows sparseRowsOf(const RowMatrix& X, double share) {
    const long nonzeros = static_cast<long>((X.array() != 0.0).count());
    SparseRows rows;
    if (X.size() == 0 || static_cast<double>(nonzeros) > share * static_cast<double>(X.size()) ||
        X.cols() > std::numeric_limits<std::int32_t>::max())
        return rows;
    rows.start.reserve(static_cast<std::size_t>(X.rows() + 1));
    rows.columns.reserve(static_cast<std::size_t>(nonzeros));
    rows.values.reserve(static_cast<std::size_t>(nonzeros));
    rows.start.push_back(0);
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
            if (X(i, j) == 0.0) continue;
            rows.columns.push_back(static_cast<std::int32_t>(j));
            rows.values.push_back(X(i, j));
        }
        rows.start.push_back(static_cast<std::int64_t>(rows.columns.size()));
    }
    return rows;
}

namespace {

/// What identifies the matrix a design was built from: its storage, size, up to 64 evenly
/// spaced values (a matrix refilled in place reads differently) and the bound.
using DesignKey = std::tuple<const double*, Eigen::Index, Eigen::Index, std::uint64_t, double>;

DesignKey keyOf(const FeatureMatrix& features, double bound) {
    std::uint64_t mix = 0x9e3779b97f4a7c15ULL;
    const Eigen::Index size = features.size();
    const Eigen::Index step = std::max<Eigen::Index>(1, size / 64);
    for (Eigen::Index k = 0; k < size; k += step) {
        std::uint64_t bits = 0;
        const double value = features(k / features.cols(), k % features.cols());
        std::memcpy(&bits, &value, sizeof bits);
        mix = (mix ^ bits) * 0x100000001b3ULL;
    }
    return {features.data(), features.rows(), features.cols(), mix, bound};
}

}  // namespace

namespace {

/// The shared designs, and the features whose designs are kept while a DesignRetention lives.
struct SharedDesigns {
    std::mutex mutex;
    std::map<DesignKey, std::weak_ptr<const DesignMatrix>> designs;
    /// Per retained features: the scopes retaining them and the designs kept for them.
    std::map<const FeatureMatrix*, std::pair<int, std::vector<std::shared_ptr<const DesignMatrix>>>>
        retained;
};

SharedDesigns& sharedDesigns() {
    static SharedDesigns shared;
    return shared;
}

}  // namespace

std::shared_ptr<const DesignMatrix> sharedDesignMatrix(const FeatureMatrix& features,
                                                       double bound) {
    SharedDesigns& shared = sharedDesigns();
    const DesignKey key = keyOf(features, bound);
    // Built under the lock: two runs starting at once on one data set must not build two
    // copies (the copy is what this saves); builds are short next to the runs.
    const std::lock_guard<std::mutex> lock(shared.mutex);
    for (auto it = shared.designs.begin(); it != shared.designs.end();) {
        it = it->second.expired() ? shared.designs.erase(it) : std::next(it);
    }
    if (const auto found = shared.designs.find(key); found != shared.designs.end()) {
        if (std::shared_ptr<const DesignMatrix> design = found->second.lock()) return design;
    }
    auto design =
        std::make_shared<const DesignMatrix>(buildDesign(features.withBias(), bound, true));
    shared.designs[key] = design;
    // Kept for the scope only where it reads the features' own rows (no copy of them).
    if (const auto kept = shared.retained.find(&features);
        kept != shared.retained.end() && design->borrowsFeatures()) {
        kept->second.second.push_back(design);
    }
    return design;
}

DesignRetention::DesignRetention(const FeatureMatrix& features) : m_features(&features) {
    SharedDesigns& shared = sharedDesigns();
    const std::lock_guard<std::mutex> lock(shared.mutex);
    ++shared.retained[m_features].first;
}

DesignRetention::~DesignRetention() {
    std::vector<std::shared_ptr<const DesignMatrix>> released;  // freed outside the lock
    SharedDesigns& shared = sharedDesigns();
    const std::lock_guard<std::mutex> lock(shared.mutex);
    const auto kept = shared.retained.find(m_features);
    if (kept == shared.retained.end() || --kept->second.first > 0) return;
    released = std::move(kept->second.second);
    shared.retained.erase(kept);
}

}  // namespace pfa
