#pragma once

#include <Eigen/Core>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/fairness/fairness_metrics.h"
#include "core/privacy/privacy_report.h"

namespace pfa {

/// Metrics recorded at the end of an epoch (test-set metrics use hard predictions).
struct EpochMetrics {
    int epoch = 0;                ///< 1-based
    long step = 0;                ///< steps executed so far
    double trainLoss = 0.0;       ///< mean cross-entropy on all training rows
    double trainObjective = 0.0;  ///< mean loss + λ·(soft ERMI of the notion) on training rows
    double testError = 0.0;
    double violation = 0.0;  ///< the chosen notion's gap on the test set
    double dpGap = 0.0, eoGap = 0.0, eoppGap = 0.0;
    double ermiHard = 0.0;      ///< test-set ERMI of the chosen notion (hard)
    double ermiSoft = 0.0;      ///< test-set ERMI of the chosen notion (soft)
    double epsilonSpent = 0.0;  ///< certified ε after `step` steps (accountant), +∞ if none
    double clipFraction = 0.0;  ///< share of clipped per-example θ-gradients in this epoch
    double seconds = 0.0;       ///< wall time since the run started
    // Algorithm-specific read-outs (NaN when an algorithm has none; records store a column
    // only when some epoch has a value).
    double excessRisk =
        std::numeric_limits<double>::quiet_NaN();  ///< exact excess risk (generators that know the
                                                   ///< optimum)
    double removedFraction =
        std::numeric_limits<double>::quiet_NaN();  ///< share of units an outlier filter dropped
                                                   ///< this epoch
    double gateMargin = std::numeric_limits<double>::quiet_NaN();  ///< noisy score minus threshold
                                                                   ///< of a concentration gate
    double unitErrorSpread =
        std::numeric_limits<double>::quiet_NaN();  ///< test error of the worst unit minus the best
    /// ‖∇f(x)‖² of the training objective at the reported model (non-convex optimisers are
    /// judged by it); computed on the private rows for display, not released.
    double gradientNormSquared = std::numeric_limits<double>::quiet_NaN();

    /// Copies the test set's fairness gaps of `test` (the violation of `notion`, and the DP, EO
    /// and EOpp gaps); the error and the ERMI values are left to the caller.
    void setTestGaps(const FairnessMetrics& test, FairnessNotion notion) {
        violation = test.violation(notion);
        dpGap = test.dpGap;
        eoGap = test.eoGap;
        eoppGap = test.eoppGap;
    }
};

/// Test metrics of one unit (silo or user) of a run on data grouped into units: the spread of
/// these across units is what a federated or personalised model is judged by, beside the
/// pooled test metrics. Not protected: computed from test rows.
struct UnitMetrics {
    std::string name;  ///< the unit's name (silo attribute value, user id, "silo 3")
    /// The unit's training rows: private (a training-set diagnostic); −1 when not recorded.
    long trainRows = 0;
    long testRows = 0;
    double testError = std::numeric_limits<double>::quiet_NaN();  ///< error rate, or MSE / excess
                                                                  ///< risk for regression
    double testLoss = std::numeric_limits<double>::quiet_NaN();   ///< mean test loss
};

/// Progress of one step, reported to observers.
struct StepInfo {
    long step = 0;  ///< 1-based index of the step just executed
    int epoch = 0;  ///< 1-based epoch the step belongs to
    long batchRows = 0;
    double batchLoss = 0.0;  ///< mean loss over the batch rows
};

/// Test metrics of a regression model (the headline `test.error` of such a run is the test
/// MSE; its fairness fields are NaN: not applicable).
struct RegressionMetrics {
    bool known = false;  ///< false for classification runs (and records without these metrics)
    double testMse = std::numeric_limits<double>::quiet_NaN();
    double testRmse = std::numeric_limits<double>::quiet_NaN();
    /// ‖w − w*‖ over the d feature weights, when the data's generator knows w* (else NaN).
    double weightError = std::numeric_limits<double>::quiet_NaN();
    /// Test MSE of the exact non-private optimum of the same training objective (least
    /// squares on the training rows, with the algorithm's ridge term when it has one); NaN
    /// when the algorithm does not compute it.
    double optimumMse = std::numeric_limits<double>::quiet_NaN();
    /// testMse − optimumMse: the excess risk of the released model over the non-private
    /// optimum, on the test rows (negative when the model happens to beat it there).
    double excessRisk = std::numeric_limits<double>::quiet_NaN();
};

/// One more tradeoff point of a single run, at another value of a setting the run can change
/// for free after training: e.g. a post-processing run solves its whole γ-curve from one noisy
/// table, so every point carries the run's one ε. The sweep summary turns each into a point of
/// its own (the run key with `setting` set to `value`), which the tradeoff view joins into a
/// curve.
struct CurvePoint {
    std::string setting;   ///< the setting's name, as declared by the algorithm ("gamma")
    double value = 0.0;    ///< its value at this point (+∞ allowed: "no constraint")
    FairnessMetrics test;  ///< test metrics at this point (error and gaps; groups optional)
};

enum class RunStatus { Completed, Cancelled, Diverged, Failed };
std::string runStatusName(RunStatus status);

/// The best constant classifier on the test rows: always predicting the test set's most
/// frequent class. It treats every group alike, so its violation is 0 under every notion: a
/// run whose error is close to its error has learned little, and a small violation there is no
/// achievement. Computed from the test labels (not protected, like every test metric).
struct ConstantBaseline {
    bool known = false;     ///< false for regression runs and records written without it
    std::string className;  ///< the class it always predicts
    double error = std::numeric_limits<double>::quiet_NaN();  ///< its test error
};

/// The constant baseline of `test` (unknown for regression data or no rows).
ConstantBaseline constantBaseline(const Dataset& test);

/// How close to the constant classifier's test error a run may come before it is flagged.
inline constexpr double kConstantMargin = 0.005;

/// Everything a finished (or stopped) run produces.
struct RunResult {
    TrainConfig config;  ///< with every "auto" value resolved
    /// Identity of this execution (128 random bits, hex): the privacy ledger charges each
    /// executed run once, whatever files or sessions it reaches.
    std::string runUid;
    std::string dataset;
    RunStatus status = RunStatus::Completed;
    std::string message;        ///< reason for Cancelled/Diverged/Failed
    RowMatrix theta;            ///< p × (d+1), bias last
    Eigen::MatrixXd W;          ///< (blocks·k) × l adversary matrix (empty if λ = 0)
    double featureBound = 0.0;  ///< rows [x, 1] were rescaled to norm ≤ B (0: not rescaled)
    std::vector<EpochMetrics> history;
    FairnessMetrics test;          ///< final test-set metrics (regression: error = test MSE)
    RegressionMetrics regression;  ///< final regression metrics (regression runs only)
    double trainLoss = 0.0;        ///< final mean training loss
    privacy::PrivacyReport privacy;
    /// Per-unit test metrics ("silo" or "user" in unitKind), empty when the run reports none.
    std::string unitKind;
    std::vector<UnitMetrics> units;
    /// Problem constants a theory overlay needs beyond the sizes, known only from the data's
    /// generator (e.g. PPSGD's optimum norms and gradient noise); empty when unknown. Display
    /// only: no privacy claim rests on them.
    std::map<std::string, double> theoryInputs;
    /// Further tradeoff points of this run (see CurvePoint), in the order of `value`; empty for
    /// runs with one point (`test`).
    std::vector<CurvePoint> curve;
    /// Always predicting the test set's most frequent class (classification runs).
    ConstantBaseline constant;
    long steps = 0;
    double seconds = 0.0;
};

/// True when `result` is a completed classification run whose test error is no more than
/// kConstantMargin below the constant classifier's: it does about as well as always
/// predicting one class.
bool nearConstant(const RunResult& result);

/// Receives progress from a training run (called on the training thread).
class GradientAuditHook;

class TrainingObserver {
public:
    virtual ~TrainingObserver() = default;
    /// After every step; return true to stop the run.
    virtual bool onStep(const StepInfo& /*step*/) { return false; }
    /// After every evaluated epoch; return true to stop the run.
    virtual bool onEpochEnd(const EpochMetrics& /*metrics*/) { return false; }
    /// Once, with the final result (also for cancelled or diverged runs).
    virtual void onRunEnd(const RunResult& /*result*/) {}
    /// Whether onStep shows StepInfo::batchLoss (a loop may skip computing it otherwise, and
    /// then reports it as NaN). A sweep's observers show none.
    virtual bool showsBatchLoss() const { return true; }
    /// The privacy audit's white-box access to the run's clipped-gradient steps
    /// (GradientAuditHook); null, the default, for every run that is not an audit's.
    virtual GradientAuditHook* gradientAudit() { return nullptr; }
};

}  // namespace pfa
