#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <QtGlobal>
#include <array>
#include <vector>

#include "core/config/algorithm.h"
#include "core/config/run_result.h"

namespace pfa::ui {

/// The four live charts, in display order.
namespace live_chart {
constexpr int kLoss = 0, kError = 1, kFairness = 2, kPrivacy = 3;
}

/// One run's curves in the live charts: its settings and epochs, its name and state in the
/// shared legend, its colour, and the points each chart draws for it. The points are computed
/// again only when epochs arrive or the view changes (width, smoothing), so the runs compared
/// next to a live one are not recomputed 30 times a second.
struct LiveCurve {
    int runId = 0;
    pfa::TrainConfig config;  ///< δ resolved
    QString name;             ///< series name: "DP-FERMI ε = 1, λ = 2" (+ seed/run if needed)
    QString state;            ///< "running", "stopped", "diverged" or empty
    std::vector<pfa::EpochMetrics> metrics;
    bool isPrivate = false;
    int epochs = 1;                          ///< planned epochs, rounds or steps (1 when automatic)
    QString unit = QStringLiteral("epoch");  ///< what the history counts: epoch, round, step
    bool regression = false;                 ///< a regression algorithm: squared loss and test MSE
    const pfa::Algorithm* algorithm = nullptr;  ///< the run's algorithm (null: unknown, epochs)
    bool live = false;
    int compareSlot = 0;  ///< position in the comparison palette
    /// The points drawn for one chart, and for what they were computed.
    struct Drawn {
        std::size_t epochs = std::size_t(-1);
        int window = -1;
        int buckets = -1;
        double xSpan = 0.0;
        QList<QPointF> raw, line, extra;
        double yMax = 0.0;
        int finitePoints = 0;
        bool anyDashed = false;
        quint64 id = 0;  ///< unique per computation (0: none)
    };
    std::array<Drawn, 4> drawn;

    /// A curve for run `runId` with `config`, no epochs yet.
    static LiveCurve forRun(int runId, const pfa::TrainConfig& config);
    /// The x of history entry `m`: the epoch, round or step it was measured at (pfa::progressAt).
    double progressOf(const pfa::EpochMetrics& m) const;
    /// Whether the run reports its exact excess risk (data whose optimum is known): its error
    /// chart then shows that instead of the test error.
    bool reportsExcessRisk() const;
    /// Alone, a curve has the colour of its ε (as in the tradeoff chart); among `shownCount`
    /// curves, its comparison colour, or runs of equal ε would differ only by line style.
    QColor color(std::size_t shownCount) const;
    /// The points of chart `chart` (live_chart::kLoss …), smoothed over `window` points (≤ 1:
    /// not smoothed) and cut down to about two per pixel of a plot `plotWidth` pixels wide
    /// whose x axis spans `xSpan`; computed again only when one of these or the epochs changed.
    const Drawn& pointsFor(int chart, int window, double plotWidth, double xSpan);
};

/// Names `shown` for the legend, short but telling: the algorithm, ε and λ; a seed or run
/// number only where two curves would otherwise carry the same name.
void nameLiveCurves(const std::vector<LiveCurve*>& shown);

}  // namespace pfa::ui
