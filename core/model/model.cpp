#include "core/model/model.h"

#include "core/model/logistic_regression.h"
#include "core/model/softmax_regression.h"
#include "core/util/error.h"

namespace pfa {

void Model::predict(const Eigen::Ref<const RowMatrix>& F, Eigen::Ref<Eigen::VectorXi> out) {
    for (Eigen::Index i = 0; i < F.rows(); ++i) {
        Eigen::Index best = 0;
        // Strict comparison keeps the lowest index on ties; for two classes this is
        // "positive iff σ ≥ 0.5" only up to the tie, so handle binary explicitly.
        if (F.cols() == 2) {
            best = F(i, 1) >= 0.5 ? 1 : 0;
        } else {
            for (Eigen::Index j = 1; j < F.cols(); ++j) {
                if (F(i, j) > F(i, best)) best = j;
            }
        }
        out(i) = static_cast<int>(best);
    }
}

std::unique_ptr<Model> makeModelForClasses(int classes) {
    if (classes < 2) {
        throw InputError("a classifier needs at least 2 classes, the data has " +
                         std::to_string(classes));
    }
    if (classes == 2) return std::make_unique<LogisticRegression>();
    return std::make_unique<SoftmaxRegression>(classes);
}

}  // namespace pfa
