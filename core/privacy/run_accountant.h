#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/privacy/accounting_inputs.h"
#include "core/privacy/order_grid.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_mechanisms.h"

namespace pfa::privacy {

/// The privacy ledger of one run: one release repeated (every `stepsPerRelease` training
/// steps), plus pure-ε side releases charged by basic composition. Built from the run's
/// AccountingInputs, which are what the run's record stores, so the ε a run reports and the ε
/// recomputed from its record come from the same inputs. Answers "what has been spent after t
/// steps" for the per-epoch ε curve.
class RunAccountant {
public:
    /// `inputs.steps` is ignored: every query names its own number of steps.
    explicit RunAccountant(AccountingInputs inputs);

    /// The composed RDP curve after `steps` training steps (partial releases count whole).
    RdpCurve curveAfter(long steps) const;
    /// ε at δ after `steps` steps, including the pure-ε side releases.
    EpsilonResult after(long steps) const;
    /// The inputs with `steps` filled in (what a record stores).
    AccountingInputs inputsAfter(long steps) const { return m_inputs.afterSteps(steps); }

    const OrderGrid& grid() const { return m_grid; }
    const AccountingInputs& inputs() const { return m_inputs; }
    double delta() const { return m_inputs.delta; }
    double pureEpsilon() const { return m_inputs.pureEpsilon(); }

private:
    struct Answers;

    AccountingInputs m_inputs;
    OrderGrid m_grid;
    RdpCurve m_releaseCurve;
    /// after()'s answers by the release counts they depend on (shared by copies, which have the
    /// same inputs; guarded: an accountant may answer several threads).
    std::shared_ptr<Answers> m_answers;
};

/// The accountant of a run composed from what it releases: its repeated release, charged as
/// `release` says (curve, q, z, the bound z refers to, steps per release, adjacency, order
/// grid), and its pure side releases `side` by basic composition, at δ = `delta`, for one
/// `unit` of privacy. The result's inputs are what the run's record stores.
RunAccountant composeRunAccountant(AccountingInputs release, std::vector<PureRelease> side,
                                   double delta, const std::string& unit);

}  // namespace pfa::privacy
