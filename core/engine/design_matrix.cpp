#include "core/engine/design_matrix.h"

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

}  // namespace pfa
