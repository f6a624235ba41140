#include "ui/dialogs/public_mean_dialog.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/privacy/rdp_mechanisms.h"
#include "ui/charts/chart_style.h"
#include "ui/charts/chart_view.h"
#include "ui/charts/whisker_item.h"

namespace pfa::ui {

namespace {

using pfa::privacy::WeightedMeanProblem;

constexpr int kEpsilonSteps = 120;   // ε = 10^(−1.3 + 2.6·v/120): 0.05 … 20
constexpr int kDimensionSteps = 60;  // d = 10^(3·v/60): 1 … 1000
constexpr std::uint64_t kMonteCarloSeed = 2024;

double epsilonAt(int v) { return std::pow(10.0, -1.3 + 2.6 * v / kEpsilonSteps); }

const QColor kWeightedColor(0, 114, 178);   // blue
const QColor kPublicColor(230, 159, 0);     // orange
const QColor kAllColor(0, 158, 115);        // green
const QColor kMonteCarloColor(213, 94, 0);  // vermilion

QString number(double value, int digits = 3) { return QString::number(value, 'g', digits); }

QSlider* makeSlider(int min, int max, int value, const QString& tip) {
    auto* slider = new QSlider(Qt::Horizontal);
    slider->setRange(min, max);
    slider->setValue(value);
    slider->setToolTip(tip);
    slider->setMinimumWidth(160);
    return slider;
}

QLineSeries* makeLine(QChart* chart, const QString& name, const QColor& color,
                      Qt::PenStyle style = Qt::SolidLine) {
    auto* series = new QLineSeries();
    series->setName(name);
    QPen pen(color, 2.2);
    pen.setStyle(style);
    series->setPen(pen);
    chart->addSeries(series);
    return series;
}

QScatterSeries* makeMarks(QChart* chart, const QString& name, const QColor& color,
                          double size = 11.0) {
    auto* series = new QScatterSeries();
    series->setName(name);
    series->setColor(color);
    series->setBorderColor(color.darker(140));
    series->setMarkerSize(size);
    chart->addSeries(series);
    return series;
}

QLogValueAxis* makeLogAxis(QChart* chart, Qt::Alignment side, const QString& title) {
    auto* axis = new QLogValueAxis();
    axis->setBase(10.0);
    axis->setLabelFormat(QStringLiteral("%.0e"));
    axis->setMinorTickCount(-1);
    chart_style::addAxis(chart, axis, side, title);
    return axis;
}

void attach(QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    series->attachAxis(x);
    series->attachAxis(y);
}

/// A log axis range around [low, high] on whole or half decades.
void setLogRange(QLogValueAxis* axis, double low, double high) {
    const double lo = std::pow(10.0, std::floor(std::log10(low) * 2.0) / 2.0);
    const double hi = std::pow(10.0, std::ceil(std::log10(high) * 2.0) / 2.0);
    axis->setRange(lo, hi > lo ? hi : lo * 10.0);
}

}  // namespace

PublicMeanDialog::PublicMeanDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Mean estimation with public data"));
    setObjectName(QStringLiteral("publicMeanDialog"));

    // Controls.
    m_samples = new QSpinBox();
    m_samples->setRange(100, 1000000);
    m_samples->setSingleStep(1000);
    m_samples->setValue(10000);
    m_samples->setToolTip(tr("n: all samples, public and private"));
    m_share = makeSlider(
        1, 500, 10,
        tr("Public share p = n_pub/n: the samples that need no protection (0.1 % to 50 %)"));
    m_epsilon = makeSlider(
        0, kEpsilonSteps, kEpsilonSteps / 2,
        tr("Privacy budget ε of the private samples (0.05 to 20); with δ it gives the zCDP ρ "
           "the Gaussian noise is calibrated to"));
    m_deltaExponent = makeSlider(3, 10, 5, tr("δ = 10^−k of the (ε, δ) guarantee"));
    m_dimension = makeSlider(0, kDimensionSteps, 40, tr("Dimension d of the samples (1 to 1000)"));
    m_bound = makeSlider(1, 100, 25,
                         tr("Norm bound B: every sample has ‖x‖ ≤ B (what the noise must hide)"));
    m_spread = makeSlider(1, 100, 10,
                          tr("Spread V: the samples' total variance is V² (V ≤ B), 0.1 to 10"));
    m_values = new QLabel();
    m_values->setWordWrap(true);
    m_repetitions = new QSpinBox();
    m_repetitions->setRange(10, 100000);
    m_repetitions->setValue(2000);
    m_repetitions->setToolTip(
        tr("Repetitions of the Monte-Carlo check: each draws all n samples in d dimensions "
           "(about a minute for 2000 repetitions at n = 10,000, d = 100)"));
    m_monteCarlo = new QPushButton(tr("Monte-Carlo check"));
    m_monteCarlo->setToolTip(
        tr("Draw samples x = m + V·u (u uniform on the unit sphere, ‖m‖ = B − V), run the "
           "estimator at seven weights r and plot the measured MSE with 95 % intervals "
           "beside the formula (seeded, off the GUI thread; click again to stop)"));
    m_progress = new QProgressBar();
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_mcResult = new QLabel();
    m_mcResult->setWordWrap(true);
    auto* exportButton = new QPushButton(tr("Export chart"));
    exportButton->setToolTip(tr("Save one of the three charts as PNG, SVG or PDF"));
    auto* exportMenu = new QMenu(exportButton);
    exportButton->setMenu(exportMenu);
    m_summary = new QLabel();
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout();
    form->addRow(tr("Samples n"), m_samples);
    form->addRow(tr("Public share p"), m_share);
    form->addRow(tr("Privacy ε"), m_epsilon);
    form->addRow(tr("δ = 10^−k"), m_deltaExponent);
    form->addRow(tr("Dimension d"), m_dimension);
    form->addRow(tr("Norm bound B"), m_bound);
    form->addRow(tr("Spread V"), m_spread);
    auto* controls = new QVBoxLayout();
    controls->addLayout(form);
    controls->addWidget(m_values);
    auto* mcRow = new QHBoxLayout();
    mcRow->addWidget(new QLabel(tr("Repetitions")));
    mcRow->addWidget(m_repetitions);
    controls->addLayout(mcRow);
    controls->addWidget(m_monteCarlo);
    controls->addWidget(m_progress);
    controls->addWidget(m_mcResult);
    controls->addWidget(exportButton);
    controls->addWidget(m_summary);
    controls->addStretch(1);

    // MSE against the private weight.
    m_weightChart = new QChart();
    chart_style::apply(m_weightChart);
    m_weightChart->setTitle(tr("MSE against the weight of the private samples"));
    m_weightX = new QValueAxis();
    m_weightX->setRange(0.0, 1.0);
    m_weightX->setLabelFormat(QStringLiteral("%.1f"));
    m_weightX->setTickCount(6);
    chart_style::addAxis(m_weightChart, m_weightX, Qt::AlignBottom, tr("private weight n_priv·r"));
    // Linear: the curve spans about a decade, which a log axis would label with one tick.
    m_weightY = new QValueAxis();
    chart_style::addAxis(m_weightChart, m_weightY, Qt::AlignLeft, tr("mean squared error"));
    m_weightCurve = makeLine(m_weightChart, tr("weighted Gaussian, MSE(r)"), kWeightedColor);
    m_weightMarks = makeMarks(m_weightChart, tr("r = 0, r = 1/n and r*"), QColor(60, 60, 60));
    m_mcPoints = makeMarks(m_weightChart, tr("Monte-Carlo (95 % interval)"), kMonteCarloColor, 8.0);
    m_mcPoints->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    for (QAbstractSeries* s :
         std::initializer_list<QAbstractSeries*>{m_weightCurve, m_weightMarks, m_mcPoints}) {
        attach(s, m_weightX, m_weightY);
    }
    m_mcWhiskers = new WhiskerItem(m_weightChart, m_mcPoints);
    m_weightView = new ChartView(m_weightChart);
    m_weightView->setToolTip(
        tr("The estimator r·Σ_priv x + ((1 − n_priv r)/n_pub)·Σ_pub x + Gaussian noise: r = 0 "
           "averages the public samples only, r = 1/n weighs all samples alike, r* "
           "minimises the MSE"));

    // MSE against ε.
    m_epsilonChart = new QChart();
    chart_style::apply(m_epsilonChart);
    m_epsilonChart->setTitle(tr("MSE against the privacy budget ε"));
    m_epsilonX = makeLogAxis(m_epsilonChart, Qt::AlignBottom, tr("ε"));
    m_epsilonX->setLabelFormat(QStringLiteral("%g"));
    m_epsilonY = makeLogAxis(m_epsilonChart, Qt::AlignLeft, tr("mean squared error"));
    m_epsilonCurves = {makeLine(m_epsilonChart, tr("at r*"), kWeightedColor),
                       makeLine(m_epsilonChart, tr("public only"), kPublicColor, Qt::DashLine),
                       makeLine(m_epsilonChart, tr("all, r = 1/n"), kAllColor, Qt::DashDotLine)};
    m_epsilonMark = makeMarks(m_epsilonChart, tr("chosen ε"), kWeightedColor.darker(130), 10.0);
    for (QLineSeries* s : m_epsilonCurves) attach(s, m_epsilonX, m_epsilonY);
    attach(m_epsilonMark, m_epsilonX, m_epsilonY);
    m_epsilonView = new ChartView(m_epsilonChart);
    m_epsilonView->setToolTip(tr("The three estimators at the chosen public share as ε varies"));

    // MSE against p.
    m_shareChart = new QChart();
    chart_style::apply(m_shareChart);
    m_shareChart->setTitle(tr("MSE against the public share p"));
    m_shareX = makeLogAxis(m_shareChart, Qt::AlignBottom, tr("public share p"));
    m_shareX->setLabelFormat(QStringLiteral("%g"));
    m_shareY = makeLogAxis(m_shareChart, Qt::AlignLeft, tr("mean squared error"));
    m_shareCurves = {makeLine(m_shareChart, tr("at r*"), kWeightedColor),
                     makeLine(m_shareChart, tr("public only"), kPublicColor, Qt::DashLine),
                     makeLine(m_shareChart, tr("all, r = 1/n"), kAllColor, Qt::DashDotLine)};
    m_shareMark = makeMarks(m_shareChart, tr("chosen p"), kWeightedColor.darker(130), 10.0);
    for (QLineSeries* s : m_shareCurves) attach(s, m_shareX, m_shareY);
    attach(m_shareMark, m_shareX, m_shareY);
    m_shareView = new ChartView(m_shareChart);
    m_shareView->setToolTip(
        tr("The three estimators at the chosen ε as the public share varies (n fixed)"));

    for (ChartView* view : views()) {
        view->setEmpty(false);
        view->setMinimumSize(380, 280);
        exportMenu->addAction(view->chart()->title(), view, &ChartView::exportWithDialog);
    }

    auto* charts = new QGridLayout();
    charts->addWidget(m_weightView, 0, 0, 1, 2);
    charts->addWidget(m_epsilonView, 1, 0);
    charts->addWidget(m_shareView, 1, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(controls, 0);
    layout->addLayout(charts, 1);
    resize(1200, 820);

    for (QSlider* slider : {m_share, m_epsilon, m_deltaExponent, m_dimension, m_bound, m_spread}) {
        connect(slider, &QSlider::valueChanged, this, &PublicMeanDialog::updateCurves);
    }
    connect(m_samples, qOverload<int>(&QSpinBox::valueChanged), this,
            &PublicMeanDialog::updateCurves);
    connect(m_monteCarlo, &QPushButton::clicked, this, &PublicMeanDialog::toggleMonteCarlo);
    updateCurves();
}

PublicMeanDialog::~PublicMeanDialog() {
    m_task.cancel();
    m_task.waitForFinished();
}

double PublicMeanDialog::epsilon() const { return epsilonAt(m_epsilon->value()); }
double PublicMeanDialog::delta() const { return std::pow(10.0, -m_deltaExponent->value()); }

WeightedMeanProblem PublicMeanDialog::problem() const {
    WeightedMeanProblem p;
    const double n = m_samples->value();
    p.publicSamples = std::max(1.0, std::round(n * m_share->value() / 1000.0));
    p.privateSamples = std::max(1.0, n - p.publicSamples);
    p.dimension = std::round(std::pow(10.0, 3.0 * m_dimension->value() / kDimensionSteps));
    p.normBound = m_bound->value();
    p.spread = std::min(p.normBound, m_spread->value() / 10.0);
    p.rho = pfa::privacy::zcdpRho(epsilon(), delta());
    return p;
}

void PublicMeanDialog::updateCurves() {
    clearMonteCarlo();
    const WeightedMeanProblem p = problem();
    const double n = p.privateSamples + p.publicSamples;
    const double rStar = pfa::privacy::optimalWeight(p);
    m_values->setText(tr("n_pub = %1, n_priv = %2, ε = %3, δ = %4, ρ = %5, d = %6, B = %7, V = %8")
                          .arg(p.publicSamples)
                          .arg(p.privateSamples)
                          .arg(number(epsilon()))
                          .arg(number(delta()))
                          .arg(number(p.rho))
                          .arg(p.dimension)
                          .arg(p.normBound)
                          .arg(number(p.spread)));

    // MSE(r) over the private weight n_priv·r ∈ [0, 1].
    QList<QPointF> curve;
    double low = INFINITY, high = 0.0;
    for (int i = 0; i <= 200; ++i) {
        const double x = i / 200.0;
        const double mse = pfa::privacy::weightedMeanMse(p, x / p.privateSamples);
        curve.append(QPointF(x, mse));
        low = std::min(low, mse);
        high = std::max(high, mse);
    }
    m_weightCurve->replace(curve);
    const double mseStar = pfa::privacy::weightedMeanMse(p, rStar);
    const double msePublic = pfa::privacy::publicOnlyMse(p);
    const double mseAll = pfa::privacy::gaussianAllMse(p);
    m_weightMarks->replace({QPointF(0.0, msePublic), QPointF(p.privateSamples / n, mseAll),
                            QPointF(rStar * p.privateSamples, mseStar)});
    chart_style::setNiceRange(m_weightY, 0.0, high * 1.05);

    // Against ε and p: the three estimators.
    auto fill = [&](std::vector<QLineSeries*>& lines, auto&& problemAt, double from, double to,
                    double& lo, double& hi) {
        QList<QPointF> weighted, publicOnly, all;
        for (int i = 0; i <= 80; ++i) {
            const double x = from * std::pow(to / from, i / 80.0);
            const WeightedMeanProblem q = problemAt(x);
            const double values[3] = {
                pfa::privacy::weightedMeanMse(q, pfa::privacy::optimalWeight(q)),
                pfa::privacy::publicOnlyMse(q), pfa::privacy::gaussianAllMse(q)};
            weighted.append(QPointF(x, values[0]));
            publicOnly.append(QPointF(x, values[1]));
            all.append(QPointF(x, values[2]));
            for (double v : values) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        lines[0]->replace(weighted);
        lines[1]->replace(publicOnly);
        lines[2]->replace(all);
    };
    double lo = INFINITY, hi = 0.0;
    fill(
        m_epsilonCurves,
        [&](double eps) {
            WeightedMeanProblem q = p;
            q.rho = pfa::privacy::zcdpRho(eps, delta());
            return q;
        },
        0.05, 20.0, lo, hi);
    m_epsilonX->setRange(0.05, 20.0);
    setLogRange(m_epsilonY, lo, hi);
    m_epsilonMark->replace({QPointF(epsilon(), mseStar)});
    lo = INFINITY;
    hi = 0.0;
    fill(
        m_shareCurves,
        [&](double share) {
            WeightedMeanProblem q = p;
            q.publicSamples = std::max(1.0, std::round(n * share));
            q.privateSamples = std::max(1.0, n - q.publicSamples);
            return q;
        },
        0.001, 0.5, lo, hi);
    m_shareX->setRange(0.001, 0.5);
    setLogRange(m_shareY, lo, hi);
    m_shareMark->replace({QPointF(p.publicSamples / n, mseStar)});

    const QString best =
        mseStar < std::min(msePublic, mseAll) * (1 - 1e-9)
            ? tr("The weighted estimator beats both baselines by %1×.")
                  .arg(number(std::min(msePublic, mseAll) / mseStar, 3))
            : tr("Here the weighted estimator is no better than the best baseline.");
    m_summary->setText(tr("<b>r*</b> = %1 (private weight n_priv·r* = %2)<br>"
                          "MSE at r*: <b>%3</b><br>public average (r = 0): %4<br>"
                          "Gaussian on all (r = 1/n): %5<br>%6<br>"
                          "<i>The public samples get no protection; the private ones are ρ-zCDP, "
                          "shown as (ε, δ).</i>")
                           .arg(number(rStar, 4))
                           .arg(number(rStar * p.privateSamples, 3))
                           .arg(number(mseStar, 4))
                           .arg(number(msePublic, 4))
                           .arg(number(mseAll, 4))
                           .arg(best));
}

void PublicMeanDialog::clearMonteCarlo() {
    ++m_generation;
    if (m_task.isRunning()) m_task.cancel();
    m_mcPoints->clear();
    m_mcWhiskers->setWhiskers({});
    m_progress->setValue(0);
    m_progress->setFormat(tr("%p %"));
    m_mcResult->setText(tr("No Monte-Carlo check for these settings yet."));
}

void PublicMeanDialog::toggleMonteCarlo() {
    if (m_task.isRunning()) {
        m_task.cancel();
        return;
    }
    clearMonteCarlo();
    const WeightedMeanProblem p = problem();
    const double n = p.privateSamples + p.publicSamples;
    const double xStar = pfa::privacy::optimalWeight(p) * p.privateSamples;
    std::vector<double> shares{
        0.0, 0.5 * xStar, xStar, std::min(1.0, 2.0 * xStar), p.privateSamples / n, 0.5, 1.0};
    std::sort(shares.begin(), shares.end());
    shares.erase(std::unique(shares.begin(), shares.end()), shares.end());
    std::vector<double> weights;
    for (double x : shares) weights.push_back(x / p.privateSamples);
    const int repetitions = m_repetitions->value();
    m_monteCarlo->setText(tr("Stop the check"));
    m_mcResult->setText(tr("Monte-Carlo check running…"));
    struct Outcome {
        std::vector<pfa::privacy::MonteCarloPoint> points;
        int done = 0;
        int total = 0;
        QString error;
    };
    auto work = [p, weights, repetitions, this](TaskContext& context) {
        Outcome outcome;
        outcome.total = repetitions;
        try {
            outcome.points = pfa::privacy::monteCarloWeightedMean(
                p, weights, repetitions, kMonteCarloSeed, [&](int done, int total) {
                    outcome.done = done;
                    if (context.progressDue()) {
                        context.post(
                            [this, done, total] { m_progress->setValue(100 * done / total); });
                    }
                    return !context.cancelled();
                });
        } catch (const std::exception& error) {
            outcome.error = QString::fromUtf8(error.what());
        }
        return outcome;
    };
    const int generation = m_generation;
    m_task = runInBackground(this, std::move(work), [this, generation](const Outcome& outcome) {
        m_monteCarlo->setText(tr("Monte-Carlo check"));
        if (generation != m_generation) {
            // The settings changed while it ran: its points belong to another problem.
            m_mcResult->setText(tr("The settings changed while the check ran: run it again."));
        } else if (!outcome.error.isEmpty()) {
            m_mcResult->setText(tr("The Monte-Carlo check failed: %1").arg(outcome.error));
        } else {
            showMonteCarlo(outcome.points, outcome.done, outcome.total);
        }
        emit monteCarloFinished();
    });
}

void PublicMeanDialog::showMonteCarlo(const std::vector<pfa::privacy::MonteCarloPoint>& points,
                                      int done, int total) {
    const WeightedMeanProblem p = problem();
    QList<QPointF> drawn;
    std::vector<WhiskerItem::Whisker> whiskers;
    double worst = 0.0;
    for (const auto& point : points) {
        const double x = point.r * p.privateSamples;
        drawn.append(QPointF(x, point.mse));
        whiskers.push_back({x, point.mse, 0.0, 1.96 * point.standardError, kMonteCarloColor});
        if (point.standardError > 0.0) {
            worst =
                std::max(worst, std::abs(point.mse - pfa::privacy::weightedMeanMse(p, point.r)) /
                                    point.standardError);
        }
    }
    m_mcPoints->replace(drawn);
    m_mcWhiskers->setWhiskers(std::move(whiskers));
    m_progress->setValue(100 * done / std::max(1, total));
    m_mcResult->setText(tr("Monte-Carlo: %1 of %2 repetitions; the largest gap to the formula is "
                           "%3 standard errors.")
                            .arg(done)
                            .arg(total)
                            .arg(number(worst, 2)));
}

}  // namespace pfa::ui
