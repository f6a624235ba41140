#include "core/privacy/closed_form_calibration.h"

#include <cmath>
#include <sstream>

#include "core/util/error.h"

namespace pfa::privacy {

double closedFormLambda(const ClosedFormInputs& in) {
    return in.steps * std::log(1.0 / in.delta) / (in.epsilon * in.epsilon * in.rows * in.rows);
}

double minimumClosedFormSteps(const ClosedFormInputs& in) {
    return in.rows * in.rows * in.epsilon / (4.0 * in.batch * in.batch);
}

void checkClosedFormPreconditions(const ClosedFormInputs& in) {
    const double limit = 2.0 * std::log(1.0 / in.delta);
    if (in.epsilon > limit) {
        std::ostringstream message;
        message << "epsilon = " << in.epsilon
                << " is too large for the closed-form calibration: it "
                << "requires epsilon <= 2 ln(1/delta) = " << limit << " (delta = " << in.delta
                << ")";
        throw InputError(message.str());
    }
    const double minimum = minimumClosedFormSteps(in);
    if (in.steps < minimum) {
        std::ostringstream message;
        message << "the closed-form calibration needs T >= n^2 epsilon / (4 m^2) = "
                << std::ceil(minimum) << " steps, but the run has T = " << in.steps
                << " (n = " << in.rows << ", m = " << in.batch << ", epsilon = " << in.epsilon
                << "); raise the number of epochs";
        throw InputError(message.str());
    }
}

NoiseVariances publishedSensitiveOnly(const ClosedFormInputs& in) {
    const double L = closedFormLambda(in);
    return {16.0 * in.lipschitz * in.lipschitz * in.radius * in.radius * L / in.minShare,
            16.0 * L / in.minShare};
}

NoiseVariances publishedAllFeatures(const ClosedFormInputs& in) {
    const double L = closedFormLambda(in);
    const double lip2 = in.lipschitz * in.lipschitz;
    const double r2 = in.radius * in.radius;
    return {
        64.0 * lip2 * r2 * L / in.minShare + 32.0 * r2 * r2 * lip2 * in.classes * in.classes * L,
        32.0 * L * (1.0 / in.minShare + r2)};
}

NoiseVariances conservativeSensitiveOnly(const ClosedFormInputs& in) {
    const NoiseVariances published = publishedSensitiveOnly(in);
    return {2.0 * published.theta, 2.0 * published.w};
}

NoiseVariances conservativeAllFeatures(const ClosedFormInputs& in) {
    const double L = closedFormLambda(in);
    return {16.0 * in.clipTheta * in.clipTheta * L, 16.0 * in.clipW * in.clipW * L};
}

double logisticLipschitz(double featureBound) { return std::sqrt(2.0) / 4.0 * featureBound; }
double softmaxLipschitz(double featureBound) { return featureBound / 2.0; }

}  // namespace pfa::privacy
