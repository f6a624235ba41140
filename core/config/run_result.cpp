#include "core/config/run_result.h"

namespace pfa {

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
