#include "core/util/linear_program.h"

#include <glpk.h>

#include <cmath>
#include <csetjmp>
#include <vector>

#include "core/util/error.h"

namespace pfa {

namespace {

// GLPK reports an internal error by calling this hook and aborting the process unless the hook
// jumps away. The jump lands in runGlpk, whose objects with destructors are all constructed
// before its setjmp, so leaving by longjmp skips none of them.
struct GlpkErrorTrap {
    std::jmp_buf jump;
};

void onGlpkError(void* info) {
    glp_free_env();  // GLPK's documented recovery: release its whole environment, then jump
    std::longjmp(static_cast<GlpkErrorTrap*>(info)->jump, 1);
}

void setBounds(glp_prob* lp, bool column, int k, double lower, double upper) {
    int type = GLP_DB;
    if (std::isinf(lower) && std::isinf(upper)) {
        type = GLP_FR;
    } else if (std::isinf(upper)) {
        type = GLP_LO;
    } else if (std::isinf(lower)) {
        type = GLP_UP;
    } else if (lower == upper) {
        type = GLP_FX;
    }
    const double lo = std::isinf(lower) ? 0.0 : lower, up = std::isinf(upper) ? 0.0 : upper;
    if (column) {
        glp_set_col_bnds(lp, k, type, lo, up);
    } else {
        glp_set_row_bnds(lp, k, type, lo, up);
    }
}

/// Builds and solves the program; `index` and `value` are the caller's buffers (n + 1 long).
LinearProgramStatus runGlpk(const LinearProgram& program, int* index, double* value,
                            Eigen::VectorXd& x) {
    GlpkErrorTrap trap;
    glp_prob* lp = nullptr;
    if (setjmp(trap.jump) != 0) return LinearProgramStatus::Failed;  // environment freed
    glp_error_hook(onGlpkError, &trap);
    glp_term_out(GLP_OFF);  // a library must not write to the terminal
    lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    const int n = static_cast<int>(program.cost.size());
    glp_add_cols(lp, n);
    for (int j = 0; j < n; ++j) {
        setBounds(lp, true, j + 1, program.lower(j), program.upper(j));
        glp_set_obj_coef(lp, j + 1, program.cost(j));
    }
    const int upperRows = static_cast<int>(program.upperRows.rows());
    const int equalRows = static_cast<int>(program.equalRows.rows());
    if (upperRows + equalRows > 0) glp_add_rows(lp, upperRows + equalRows);
    for (int j = 0; j < n; ++j) index[j + 1] = j + 1;  // GLPK arrays are 1-based
    for (int r = 0; r < upperRows + equalRows; ++r) {
        const bool upper = r < upperRows;
        for (int j = 0; j < n; ++j)
            value[j + 1] = upper ? program.upperRows(r, j) : program.equalRows(r - upperRows, j);
        glp_set_mat_row(lp, r + 1, n, index, value);
        if (upper) {
            const double bound = program.upperBounds(r);
            setBounds(lp, false, r + 1, -INFINITY, bound);
        } else {
            const double bound = program.equalBounds(r - upperRows);
            setBounds(lp, false, r + 1, bound, bound);
        }
    }
    glp_smcp simplex;
    glp_init_smcp(&simplex);
    simplex.msg_lev = GLP_MSG_OFF;
    simplex.presolve = GLP_ON;
    LinearProgramStatus status = LinearProgramStatus::NotOptimal;
    // The floating-point simplex finds an optimal basis fast; the exact simplex then re-solves
    // from that basis in rational arithmetic (ties in the floating-point solver cannot leave
    // the vertex slightly infeasible or suboptimal).
    if (glp_simplex(lp, &simplex) == 0 && glp_get_status(lp) == GLP_OPT) {
        glp_smcp exact;
        glp_init_smcp(&exact);
        exact.msg_lev = GLP_MSG_OFF;
        if (glp_exact(lp, &exact) == 0 && glp_get_status(lp) == GLP_OPT) {
            for (int j = 0; j < n; ++j) x(j) = glp_get_col_prim(lp, j + 1);
            status = LinearProgramStatus::Optimal;
        }
    }
    glp_delete_prob(lp);
    glp_error_hook(nullptr, nullptr);
    return status;
}

}  // namespace

LinearProgramStatus solveLinearProgram(const LinearProgram& program, Eigen::VectorXd& x) {
    const Eigen::Index n = program.cost.size();
    const bool sizesAgree = program.lower.size() == n && program.upper.size() == n &&
                            (program.upperRows.rows() == 0 || program.upperRows.cols() == n) &&
                            (program.equalRows.rows() == 0 || program.equalRows.cols() == n) &&
                            program.upperBounds.size() == program.upperRows.rows() &&
                            program.equalBounds.size() == program.equalRows.rows();
    if (!sizesAgree) throw InputError("a linear program's sizes disagree");
    const auto hasNaN = [](const auto& m) { return m.size() > 0 && m.hasNaN(); };
    if (hasNaN(program.cost) || hasNaN(program.upperRows) || hasNaN(program.upperBounds) ||
        hasNaN(program.equalRows) || hasNaN(program.equalBounds) || hasNaN(program.lower) ||
        hasNaN(program.upper)) {
        throw InputError("a linear program holds a NaN");
    }
    x.resize(n);
    std::vector<int> index(static_cast<std::size_t>(n) + 1);
    std::vector<double> value(static_cast<std::size_t>(n) + 1);
    return runGlpk(program, index.data(), value.data(), x);
}

}  // namespace pfa
