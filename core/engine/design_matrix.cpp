#include "core/engine/design_matrix.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "core/engine/clipping.h"

namespace pfa {

DesignMatrix makeDesignMatrix(const RowMatrix& features, double bound) {
    DesignMatrix design;
    design.X.resize(features.rows(), features.cols() + 1);
    design.X.leftCols(features.cols()) = features;
    design.X.col(features.cols()).setOnes();
    design.norms = design.X.rowwise().norm();
    if (bound > 0.0) {
        for (Eigen::Index i = 0; i < design.X.rows(); ++i) {
            double scale = 1.0;
            if (clipScale(design.norms(i), bound, scale)) {
                design.X.row(i) *= scale;
                design.norms(i) = bound;
            }
        }
    }
    design.squaredNorms = design.norms.array().square();
    return design;
}

namespace {

/// What identifies the matrix a design was built from: its storage, size, up to 64 evenly
/// spaced values (a matrix refilled in place reads differently) and the bound.
using DesignKey = std::tuple<const double*, Eigen::Index, Eigen::Index, std::uint64_t, double>;

DesignKey keyOf(const RowMatrix& features, double bound) {
    std::uint64_t mix = 0x9e3779b97f4a7c15ULL;
    const Eigen::Index size = features.size();
    const Eigen::Index step = std::max<Eigen::Index>(1, size / 64);
    for (Eigen::Index k = 0; k < size; k += step) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, features.data() + k, sizeof bits);
        mix = (mix ^ bits) * 0x100000001b3ULL;
    }
    return {features.data(), features.rows(), features.cols(), mix, bound};
}

}  // namespace

std::shared_ptr<const DesignMatrix> sharedDesignMatrix(const RowMatrix& features, double bound) {
    static std::mutex mutex;
    static std::map<DesignKey, std::weak_ptr<const DesignMatrix>> designs;
    const DesignKey key = keyOf(features, bound);
    // Built under the lock: two runs starting at once on one data set must not build two
    // copies (the copy is what this saves); builds are short next to the runs.
    const std::lock_guard<std::mutex> lock(mutex);
    for (auto it = designs.begin(); it != designs.end();) {
        it = it->second.expired() ? designs.erase(it) : std::next(it);
    }
    if (const auto found = designs.find(key); found != designs.end()) {
        if (std::shared_ptr<const DesignMatrix> design = found->second.lock()) return design;
    }
    auto design = std::make_shared<const DesignMatrix>(makeDesignMatrix(features, bound));
    designs[key] = design;
    return design;
}

}  // namespace pfa
