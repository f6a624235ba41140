#include "core/engine/laplace_mechanism.h"

#include <utility>

#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa {

LaplaceMechanism::LaplaceMechanism(double l1Sensitivity, double epsilon, std::string entry)
    : m_sensitivity(l1Sensitivity),
      m_epsilon(epsilon),
      m_scale(l1Sensitivity / epsilon),
      m_entry(std::move(entry)),
      m_channel("laplace-" + m_entry) {
    if (!(l1Sensitivity > 0.0) || !(epsilon > 0.0)) {
        throw InputError("a Laplace release needs a positive sensitivity and budget (got " +
                         formatNumber(l1Sensitivity) + " and " + formatNumber(epsilon) + ")");
    }
}

privacy::PureRelease LaplaceMechanism::release(const std::string& what) const {
    return {what, "Laplace(" + formatNumber(m_sensitivity) + "/ε₀) per " + m_entry, m_epsilon};
}

}  // namespace pfa
