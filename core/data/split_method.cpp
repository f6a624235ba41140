#include "core/data/split_method.h"

#include "core/util/error.h"

namespace pfa {

std::string splitMethodName(SplitMethod method) {
    switch (method) {
        case SplitMethod::Seeded:
            return "seeded";
        case SplitMethod::PandasSample:
            return "pandas";
    }
    return "seeded";
}

SplitMethod parseSplitMethod(const std::string& name) {
    if (name == "seeded") return SplitMethod::Seeded;
    if (name == "pandas") return SplitMethod::PandasSample;
    throw InputError("unknown split method '" + name +
                     "': use seeded (our seeded permutation) or pandas (as pandas "
                     "DataFrame.sample with random_state = the split seed)");
}

}  // namespace pfa
