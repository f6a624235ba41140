#pragma once

#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_mechanisms.h"

namespace pfa::privacy {

/// The privacy ledger of one run: the same release repeated (one release every
/// `stepsPerRelease` training steps), plus pure-ε side releases charged by basic composition.
/// Answers "what has been spent after t steps" for the per-epoch ε curve.
class RunAccountant {
public:
    RunAccountant(OrderGrid grid, RdpCurve releaseCurve, long stepsPerRelease, double delta,
                  double pureEpsilon);

    /// The composed RDP curve after `steps` training steps (partial releases count whole).
    RdpCurve curveAfter(long steps) const;
    /// ε at δ after `steps` steps, including the pure-ε side releases.
    EpsilonResult after(long steps) const;

    const OrderGrid& grid() const { return m_grid; }
    double delta() const { return m_delta; }
    double pureEpsilon() const { return m_pureEpsilon; }

private:
    OrderGrid m_grid;
    RdpCurve m_releaseCurve;
    long m_stepsPerRelease;
    double m_delta;
    double m_pureEpsilon;
};

}  // namespace pfa::privacy
