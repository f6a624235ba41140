#include "core/config/run_result.h"

#include <cmath>

namespace pfa {

ConstantBaseline constantBaseline(const Dataset& test) {
    ConstantBaseline baseline;
    const long rows = test.y.size();
    if (test.isRegression() || rows == 0 || test.numClasses() < 2) return baseline;
    std::vector<long> counts(static_cast<std::size_t>(test.numClasses()), 0);
    for (long i = 0; i < rows; ++i) {
        const int label = test.y(i);
        if (label >= 0 && label < test.numClasses()) ++counts[static_cast<std::size_t>(label)];
    }
    // The first most frequent class (ties: the lower index), for a reproducible name.
    std::size_t best = 0;
    for (std::size_t c = 1; c < counts.size(); ++c) {
        if (counts[c] > counts[best]) best = c;
    }
    baseline.known = true;
    baseline.className = test.classNames[best];
    baseline.error = 1.0 - static_cast<double>(counts[best]) / static_cast<double>(rows);
    return baseline;
}

bool nearConstant(const RunResult& result) {
    return result.status == RunStatus::Completed && result.constant.known &&
           !result.regression.known && std::isfinite(result.test.error) &&
           result.test.error >= result.constant.error - kConstantMargin;
}

std::string runStatusName(RunStatus status) {
    switch (status) {
        case RunStatus::Completed:
            return "completed";
        case RunStatus::Cancelled:
            return "cancelled";
        case RunStatus::Diverged:
            return "diverged";
        case RunStatus::Failed:
            return "failed";
    }
    return "failed";
}

}  // namespace pfa
