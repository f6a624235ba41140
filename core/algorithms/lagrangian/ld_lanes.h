#pragma once

namespace pfa::ld {

/// The per-row gradient coefficients of PF-LD runs that share a batch, for all of them at once
/// (run c is lane c): for score z_c, r_c = (σ(z_c) − y) + κ_c·σ·(1 − σ) (rates) or
/// (σ(z_c) − y)·(1 + κ_c) (accuracy parity), scaled by min(1, clip_c/(|r_c|·‖x̃‖)). Each lane
/// computes what LdRun's own coefficient computes, by the same operations in the same order
/// (σ by tableExps, whose bits are tableExp's, the run's own), so the sums are bit for bit
/// the same; the rest runs as vector operations over the lanes.
struct RowLanes {
    long count = 0;                 ///< lanes
    const double* kappa = nullptr;  ///< each lane's κ of the row's cell (0 outside the cells)
    const double* clip = nullptr;   ///< each lane's clip bound (∞: none)
    double* clipped = nullptr;      ///< each lane's clipped rows, counted
    double* exp = nullptr;          ///< scratch, one per lane
};

/// Writes coefficients[c] for the row with label `label` and design norm `norm` from the
/// scores z[c]; `rates` chooses the constraint.
void rowCoefficients(const RowLanes& lanes, bool rates, double label, double norm, const double* z,
                     double* coefficients);

/// For tests: runs that share a batch compute their coefficients one run at a time instead
/// (the same bits), or again in lanes.
void stepRunsOneByOne(bool oneByOne);
bool runsOneByOne();

}  // namespace pfa::ld
