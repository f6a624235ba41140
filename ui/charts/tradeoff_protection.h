#pragma once

#include <QPen>
#include <QString>
#include <string>
#include <vector>

#include "core/sweep/run_protection.h"
#include "ui/runs/run_entry.h"

class QLabel;

namespace pfa::ui {

/// What the private runs drawn on the tradeoff chart protect (unit, adjacency, scope): their
/// kinds in order of first appearance, and whether runs of different protection share the
/// chart. The chart names them in its protection line, legend, points and export caption.
class TradeoffProtections {
public:
    TradeoffProtections() = default;
    /// The protections of the runs drawn (points and trail), in history order.
    explicit TradeoffProtections(const std::vector<pfa::RunProtection>& runs);

    /// Runs of different protection are drawn (their points and legend entries name it).
    bool mixed() const { return m_kinds.size() > 1; }
    /// Index of `run`'s protection among the kinds (−1: not private).
    int kindOf(const RunEntry& run) const;
    /// Kind `kind` in words (RunProtection::label).
    QString kindText(int kind) const;
    /// Sets `line` to one sentence naming what the private runs protect, or a warning naming
    /// each protection when they differ; hidden when no private run is drawn.
    void describeOn(QLabel* line) const;
    /// For an export's caption: " · protects: …", a note that they differ, or "".
    QString captionNote() const;
    /// The outline of the points and legend entries of every kind after the first.
    static QPen outlinePen();

private:
    std::vector<std::string> m_kinds;
    std::string m_warning;  ///< pfa::mixedProtectionWarning of the runs ("" when they agree)
};

}  // namespace pfa::ui
