#include "core/report/report_render.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/algorithms/registry.h"
#include "core/util/error.h"
#include "core/util/format.h"

namespace pfa::report {

namespace {

struct Rgb {
    double r = 0, g = 0, b = 0;
};

// The app's ε colour scale (ui/charts/chart_style.cpp), repeated here because the core cannot
// include the GUI: viridis over log ε in [0.05, 100], stopped at 0.57 of the scale so that every
// colour keeps 3:1 contrast on white; ε = ∞ is vermilion.
Rgb viridis(double t) {
    static const Rgb anchors[] = {{68, 1, 84},    {72, 40, 120},  {62, 74, 137},  {49, 104, 142},
                                  {38, 130, 142}, {31, 158, 137}, {53, 183, 121}, {109, 205, 89},
                                  {180, 222, 44}, {253, 231, 37}};
    const double position = std::clamp(t, 0.0, 1.0) * 9.0;
    const int i = std::min(8, static_cast<int>(position));
    const double f = position - i;
    const Rgb& a = anchors[i];
    const Rgb& b = anchors[i + 1];
    return {(a.r + f * (b.r - a.r)) / 255.0, (a.g + f * (b.g - a.g)) / 255.0,
            (a.b + f * (b.b - a.b)) / 255.0};
}

Rgb colorForEpsilon(double epsilon) {
    if (std::isnan(epsilon)) return {120 / 255.0, 120 / 255.0, 120 / 255.0};
    if (!std::isfinite(epsilon)) return {213 / 255.0, 94 / 255.0, 0.0};
    const double lo = std::log(0.05), hi = std::log(100.0);
    return viridis(0.57 * (std::log(std::clamp(epsilon, 0.05, 100.0)) - lo) / (hi - lo));
}

using Marker = ChartMarker;

// The app's markers: each algorithm declares its own (Algorithm::presentation).
Marker markerFor(const std::string& algorithm) { return presentationOf(algorithm).marker; }

void markerPath(cairo_t* cr, Marker marker, double x, double y, double r) {
    auto polygon = [&](int corners, double radius, double turn, bool star) {
        const int points = star ? 2 * corners : corners;
        for (int i = 0; i < points; ++i) {
            const double rr = star && i % 2 ? radius * 0.45 : radius;
            const double a = turn + 2.0 * M_PI * i / points;
            const double px = x + rr * std::sin(a), py = y - rr * std::cos(a);
            if (i == 0)
                cairo_move_to(cr, px, py);
            else
                cairo_line_to(cr, px, py);
        }
        cairo_close_path(cr);
    };
    switch (marker) {
        case Marker::Circle:
            cairo_new_sub_path(cr);
            cairo_arc(cr, x, y, r, 0, 2 * M_PI);
            break;
        case Marker::Square:
            cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, 1.7 * r, 1.7 * r);
            break;
        case Marker::Triangle:
            polygon(3, r * 1.2, 0.0, false);
            break;
        case Marker::Star:
            polygon(5, r * 1.3, 0.0, true);
            break;
        case Marker::Diamond:
            polygon(4, r * 1.2, 0.0, false);
            break;
        case Marker::Pentagon:
            polygon(5, r * 1.1, 0.0, false);
            break;
    }
}

/// A "nice" tick step for a range (1, 2 or 5 × 10^k) giving about `count` ticks.
double niceStep(double span, int count) {
    if (!(span > 0)) return 1.0;
    const double raw = span / count;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * power >= raw) return m * power;
    }
    return 10.0 * power;
}

std::string tickText(double value, double step) {
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
    return formatFixed(std::fabs(value) < step * 1e-6 ? 0.0 : value, decimals);
}

const char* const kSans = "DejaVu Sans";
const char* const kMono = "DejaVu Sans Mono";

/// Text drawing with measurement: every call paints only when `draw` is set, so one layout
/// routine both measures the page and paints it.
class Painter {
public:
    Painter(cairo_t* cr, bool draw) : m_cr(cr), m_draw(draw) {}
    cairo_t* cr() const { return m_cr; }
    bool drawing() const { return m_draw; }

    void font(double size, bool bold = false, const char* family = kSans) {
        cairo_select_font_face(m_cr, family, CAIRO_FONT_SLANT_NORMAL,
                               bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(m_cr, size);
        m_size = size;
    }
    void color(double r, double g, double b) { cairo_set_source_rgb(m_cr, r, g, b); }
    double width(const std::string& text) const {
        cairo_text_extents_t extents;
        cairo_text_extents(m_cr, text.c_str(), &extents);
        return extents.x_advance;
    }
    double lineHeight() const { return m_size * 1.3; }
    /// One line with its baseline at y (top of the line box at y − ascent).
    void text(const std::string& text, double x, double y) {
        if (!m_draw) return;
        cairo_move_to(m_cr, x, y);
        cairo_show_text(m_cr, text.c_str());
    }
    /// Wrapped text from the top `y`; returns the height used. Lines after the first are
    /// indented by `indent`. Breaks at spaces (a word longer than the line is set alone).
    double paragraph(const std::string& text, double x, double y, double width,
                     double indent = 0.0) {
        std::vector<std::string> lines;
        std::istringstream words(text);
        std::string word, line;
        while (words >> word) {
            const double available = lines.empty() ? width : width - indent;
            const std::string candidate = line.empty() ? word : line + " " + word;
            if (!line.empty() && this->width(candidate) > available) {
                lines.push_back(line);
                line = word;
            } else {
                line = candidate;
            }
        }
        if (!line.empty()) lines.push_back(line);
        const double ascent = m_size * 0.95;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            this->text(lines[i], x + (i ? indent : 0.0), y + ascent + i * lineHeight());
        }
        return lines.size() * lineHeight();
    }

private:
    cairo_t* m_cr;
    bool m_draw;
    double m_size = 10.0;
};

std::string epsilonLegend(double epsilon) {
    if (std::isnan(epsilon)) return "ε unknown";
    if (!std::isfinite(epsilon)) return "ε = ∞ (not private)";
    return "ε = " + formatNumber(epsilon, 3);
}

/// The tradeoff chart in the box (x, y, w, h): test error against the violation, each run a
/// marker coloured by its ε (the app's scale) and shaped by its algorithm, the chosen run ringed.
void paintChart(Painter& p, const ReportModel& model, double x, double y, double w, double h) {
    if (!p.drawing()) return;
    cairo_t* cr = p.cr();
    // The legend column on the right.
    std::set<double> epsilons;
    std::set<std::string> algorithms;
    for (const ReportPoint& point : model.points) {
        epsilons.insert(std::isnan(point.epsilon) ? -1.0 : point.epsilon);
        algorithms.insert(point.algorithm);
    }
    const double legendWidth = 112.0;
    const double left = x + 40.0, right = x + w - legendWidth - 10.0;
    const double top = y + 6.0, bottom = y + h - 30.0;
    if (model.points.empty()) {
        p.font(8.5);
        p.color(0.3, 0.3, 0.3);
        p.text("No run with a finite test error and violation to draw.", left, (top + bottom) / 2);
        return;
    }
    double xMin = INFINITY, xMax = -INFINITY, yMin = INFINITY, yMax = -INFINITY;
    for (const ReportPoint& point : model.points) {
        xMin = std::min(xMin, point.violation);
        xMax = std::max(xMax, point.violation);
        yMin = std::min(yMin, point.testError);
        yMax = std::max(yMax, point.testError);
    }
    // Ranges padded by 8 % (at least a little when all points coincide), ticks at nice steps.
    auto pad = [](double& lo, double& hi, double floor) {
        const double span = std::max(hi - lo, std::max(std::fabs(hi), 0.01) * 0.1);
        lo = std::max(floor, lo - 0.08 * span);
        hi = hi + 0.08 * span;
    };
    pad(xMin, xMax, 0.0);
    pad(yMin, yMax, 0.0);
    const double xStep = niceStep(xMax - xMin, 5), yStep = niceStep(yMax - yMin, 5);
    xMin = std::floor(xMin / xStep) * xStep;
    xMax = std::ceil(xMax / xStep) * xStep;
    yMin = std::floor(yMin / yStep) * yStep;
    yMax = std::ceil(yMax / yStep) * yStep;
    auto px = [&](double v) { return left + (v - xMin) / (xMax - xMin) * (right - left); };
    auto py = [&](double v) { return bottom - (v - yMin) / (yMax - yMin) * (bottom - top); };

    // Grid, ticks and axes.
    cairo_set_line_width(cr, 0.4);
    p.font(7.5);
    for (double v = xMin; v <= xMax + xStep * 0.5; v += xStep) {
        p.color(0.88, 0.88, 0.88);
        cairo_move_to(cr, px(v), top);
        cairo_line_to(cr, px(v), bottom);
        cairo_stroke(cr);
        p.color(0.25, 0.25, 0.25);
        const std::string label = tickText(v, xStep);
        p.text(label, px(v) - p.width(label) / 2, bottom + 10.0);
    }
    for (double v = yMin; v <= yMax + yStep * 0.5; v += yStep) {
        p.color(0.88, 0.88, 0.88);
        cairo_move_to(cr, left, py(v));
        cairo_line_to(cr, right, py(v));
        cairo_stroke(cr);
        p.color(0.25, 0.25, 0.25);
        const std::string label = tickText(v, yStep);
        p.text(label, left - 4.0 - p.width(label), py(v) + 2.6);
    }
    p.color(0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, left, top, right - left, bottom - top);
    cairo_stroke(cr);
    p.font(8.0);
    const std::string xTitle = model.violationName + " (test set) →";
    p.text(xTitle, (left + right) / 2 - p.width(xTitle) / 2, bottom + 22.0);
    cairo_save(cr);
    cairo_move_to(cr, x + 9.0, (top + bottom) / 2 + p.width("test error") / 2);
    cairo_rotate(cr, -M_PI / 2);
    cairo_show_text(cr, "test error");
    cairo_restore(cr);

    // The points: others first, the chosen run on top with a ring.
    cairo_save(cr);
    cairo_rectangle(cr, left, top, right - left, bottom - top);
    cairo_clip(cr);
    for (int pass = 0; pass < 2; ++pass) {
        for (const ReportPoint& point : model.points) {
            if (point.chosen != (pass == 1)) continue;
            const Rgb c = colorForEpsilon(point.epsilon);
            markerPath(cr, markerFor(point.algorithm), px(point.violation), py(point.testError),
                       3.6);
            cairo_set_source_rgba(cr, c.r, c.g, c.b, 0.9);
            cairo_fill_preserve(cr);
            if (model.mixedProtection() && point.protection > 0) {
                // A run protecting something else than the first ones: outlined (see the note).
                cairo_set_source_rgb(cr, 0.59, 0.0, 0.09);
                cairo_set_line_width(cr, 1.3);
            } else {
                cairo_set_source_rgb(cr, 1, 1, 1);
                cairo_set_line_width(cr, 0.6);
            }
            cairo_stroke(cr);
            if (point.chosen) {
                cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
                cairo_set_line_width(cr, 1.4);
                cairo_new_sub_path(cr);
                cairo_arc(cr, px(point.violation), py(point.testError), 7.5, 0, 2 * M_PI);
                cairo_stroke(cr);
            }
        }
    }
    cairo_restore(cr);
    for (const ReportPoint& point : model.points) {
        if (!point.chosen) continue;
        p.font(7.5, true);
        p.color(0.05, 0.05, 0.05);
        const std::string label = "this run";
        double lx = px(point.violation) + 10.0;
        if (lx + p.width(label) > right - 2.0) lx = px(point.violation) - 10.0 - p.width(label);
        double ly = py(point.testError) - 8.0;
        if (ly < top + 9.0) ly = py(point.testError) + 16.0;
        p.text(label, lx, ly);
    }

    // The legend: ε colours, then algorithm markers.
    double lx = right + 14.0, ly = top + 8.0;
    p.font(7.5, true);
    p.color(0.1, 0.1, 0.1);
    p.text("Budget (colour)", lx, ly);
    ly += 11.0;
    p.font(7.5);
    const std::size_t maxEpsilons = 9;
    std::size_t shown = 0;
    for (double e : epsilons) {
        if (shown++ == maxEpsilons) {
            p.color(0.3, 0.3, 0.3);
            p.text("… " + std::to_string(epsilons.size() - maxEpsilons) + " more", lx + 10.0, ly);
            ly += 10.5;
            break;
        }
        const Rgb c = colorForEpsilon(e < 0 ? NAN : e);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        cairo_new_sub_path(cr);
        cairo_arc(cr, lx + 3.5, ly - 2.6, 3.3, 0, 2 * M_PI);
        cairo_fill(cr);
        p.color(0.1, 0.1, 0.1);
        p.text(epsilonLegend(e < 0 ? NAN : e), lx + 10.0, ly);
        ly += 10.5;
    }
    ly += 5.0;
    p.font(7.5, true);
    p.text("Algorithm (marker)", lx, ly);
    ly += 11.0;
    p.font(7.5);
    for (const std::string& algorithm : algorithms) {
        markerPath(cr, markerFor(algorithm), lx + 3.5, ly - 2.6, 3.0);
        p.color(0.35, 0.35, 0.35);
        cairo_fill(cr);
        p.color(0.1, 0.1, 0.1);
        p.text(algorithm, lx + 10.0, ly);
        ly += 10.5;
    }
    ly += 5.0;
    cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
    cairo_set_line_width(cr, 1.2);
    cairo_new_sub_path(cr);
    cairo_arc(cr, lx + 3.5, ly - 2.6, 4.2, 0, 2 * M_PI);
    cairo_stroke(cr);
    p.text("this report's run", lx + 12.0, ly);
    ly += 10.5;
    p.color(0.35, 0.35, 0.35);
    p.text(std::to_string(model.points.size()) + " run(s) drawn", lx, ly + 4.0);
    if (model.otherDataPoints > 0) {
        p.text(std::to_string(model.otherDataPoints) + " on other data", lx, ly + 14.5);
        p.text("or notions left out", lx, ly + 25.0);
    }
}

std::string rate(double v) { return std::isnan(v) ? "–" : formatFixed(v, 3); }
std::string rateWithInterval(const Interval& i) {
    if (std::isnan(i.estimate)) return "–";
    std::string text = formatFixed(i.estimate, 3);
    text.append(" [")
        .append(formatFixed(i.low, 3))
        .append(", ")
        .append(formatFixed(i.high, 3))
        .append("]");
    return text;
}

/// A table cell: the value, and below it its interval ("" when none).
struct Cell {
    std::string value;
    std::string interval;
};
Cell cellOf(const Interval& i) {
    if (std::isnan(i.estimate)) return {"–", ""};
    std::string interval = "[";
    interval.append(formatFixed(i.low, 3)).append(", ").append(formatFixed(i.high, 3)).append("]");
    return {formatFixed(i.estimate, 3), interval};
}

/// The table's rows: header, one per group.
std::vector<std::vector<Cell>> tableRows(const ReportModel& model) {
    std::vector<std::vector<Cell>> rows;
    rows.push_back({{"Group", ""},
                    {"Test rows", ""},
                    {"Base rate", ""},
                    {"Selection rate", ""},
                    {"TPR", ""},
                    {"FPR", ""},
                    {"Accuracy", ""}});
    if (model.bootstrap) {
        for (const GroupIntervals& g : model.bootstrap->groups) {
            rows.push_back({{g.group, ""},
                            {std::to_string(g.n), ""},
                            cellOf(g.baseRate),
                            cellOf(g.selectionRate),
                            cellOf(g.tpr),
                            cellOf(g.fpr),
                            cellOf(g.accuracy)});
        }
    } else {
        for (const GroupRow& g : model.groups) {
            rows.push_back({{g.group, ""},
                            {std::to_string(g.n), ""},
                            {rate(g.baseRate), ""},
                            {rate(g.selectionRate), ""},
                            {rate(g.truePositiveRate), ""},
                            {rate(g.falsePositiveRate), ""},
                            {rate(g.accuracy), ""}});
        }
    }
    return rows;
}

std::string gapLine(const ReportModel& model) {
    std::string line = model.gapName + " = ";
    if (model.bootstrap) {
        line += rateWithInterval(model.bootstrap->gap);
    } else {
        line += rate(model.recordedViolation);
    }
    return line;
}

std::string noIntervalLine(const ReportModel& model) {
    return "No confidence intervals: " + model.bootstrapUnavailable + ".";
}

constexpr double kPageWidth = 595.28;  // A4 in points
constexpr double kPageHeight = 841.89;
constexpr double kMargin = 36.0;

/// Text sizes of one layout; the fitting loop shrinks them together.
struct Sizes {
    double body = 8.2;
    double small = 7.2;
    double statement = 6.9;
    double chartHeight = 235.0;
    /// Each rate and its interval on one line (many groups), instead of the interval below.
    bool compactTable = false;
    /// The statement's small print; left out (with a pointer to it) only when nothing else fits.
    bool fullStatement = true;
};

/// Lays out (and, when the painter draws, paints) the page; returns the height used.
double layoutPage(Painter& p, const ReportModel& model, const Sizes& s) {
    const double x = kMargin, width = kPageWidth - 2 * kMargin;
    double y = kMargin;
    auto heading = [&](const std::string& text) {
        y += 7.0;
        p.font(9.6, true);
        p.color(0.12, 0.23, 0.42);
        p.text(text, x, y + 9.0);
        y += 13.0;
        p.color(0, 0, 0);
    };
    // Title.
    p.font(15.0, true);
    p.color(0.05, 0.05, 0.05);
    y += p.paragraph("PFA Explorer report — " + model.title, x, y, width, 0.0);
    p.font(s.small);
    p.color(0.35, 0.35, 0.35);
    y += p.paragraph(
        model.runLabel + " · generated " + model.generated + " · PFA Explorer " + model.version, x,
        y, width);
    if (p.drawing()) {
        cairo_set_source_rgb(p.cr(), 0.12, 0.23, 0.42);
        cairo_set_line_width(p.cr(), 1.0);
        cairo_move_to(p.cr(), x, y + 3.0);
        cairo_line_to(p.cr(), x + width, y + 3.0);
        cairo_stroke(p.cr());
    }
    y += 4.0;

    // Data set and configuration, side by side.
    const double columnGap = 18.0, column = (width - columnGap) / 2;
    const double top = y;
    auto fields = [&](const std::string& title, const std::vector<ReportField>& list, double cx,
                      double& cy) {
        cy += 7.0;
        p.font(9.6, true);
        p.color(0.12, 0.23, 0.42);
        p.text(title, cx, cy + 9.0);
        cy += 13.0;
        const double labelWidth = 86.0;
        for (const ReportField& field : list) {
            p.font(s.body, true);
            p.color(0.2, 0.2, 0.2);
            const double labelHeight = p.paragraph(field.label, cx, cy, labelWidth - 4.0);
            p.font(s.body);
            p.color(0, 0, 0);
            cy += std::max(labelHeight,
                           p.paragraph(field.value, cx + labelWidth, cy, column - labelWidth)) +
                  1.2;
        }
    };
    double leftY = top, rightY = top;
    fields("Data set", model.dataset, x, leftY);
    fields("Configuration", model.configuration, x + column + columnGap, rightY);
    if (!model.algorithmSettings.empty()) {
        p.font(s.small);
        p.color(0.25, 0.25, 0.25);
        rightY += p.paragraph("Settings: " + model.algorithmSettings, x + column + columnGap,
                              rightY, column);
    }
    y = std::max(leftY, rightY);

    // The tradeoff chart.
    heading("Tradeoff: test error against " + model.violationName + ", every run on these data");
    paintChart(p, model, x, y, width, s.chartHeight);
    y += s.chartHeight;
    if (!model.protectionNote.empty()) {
        // What the runs drawn protect, or the warning that they differ.
        p.font(s.small, model.mixedProtection());
        if (model.mixedProtection())
            p.color(0.55, 0.05, 0.0);
        else
            p.color(0.3, 0.3, 0.3);
        y += p.paragraph(model.protectionNote, x, y, width) + 2.0;
    }

    // The per-group table.
    heading("Per-group results of this run on the test rows");
    const std::vector<std::vector<Cell>> rows = tableRows(model);
    const std::vector<double> share = {0.22, 0.08, 0.14, 0.14, 0.14, 0.14, 0.14};
    for (std::size_t r = 0; r < rows.size(); ++r) {
        p.font(s.body);
        const bool twoLines = r > 0 && model.bootstrap && !s.compactTable;
        const double rowHeight =
            p.lineHeight() * (twoLines ? 2.0 : 1.0) + (s.compactTable ? 1.5 : 3.0);
        double cx = x;
        if (p.drawing() && r % 2 == 1) {
            cairo_set_source_rgb(p.cr(), 0.94, 0.95, 0.98);
            cairo_rectangle(p.cr(), x, y, width, rowHeight);
            cairo_fill(p.cr());
        }
        for (std::size_t c = 0; c < rows[r].size(); ++c) {
            const double cell = share[c] * width;
            std::string text = rows[r][c].value;
            p.font(s.body, r == 0);
            p.color(0, 0, 0);
            // A long group name is shortened rather than run into the next column.
            while (c == 0 && text.size() > 4 && p.width(text) > cell - 4.0)
                text = text.substr(0, text.size() - 4) + "…";
            const double baseline = y + s.body * 1.1 + 1.5;
            if (s.compactTable && !rows[r][c].interval.empty()) {
                // "0.632 [0.553, 0.711]" on one line: the interval small and grey at the right.
                p.font(s.small * 0.92);
                p.color(0.3, 0.3, 0.3);
                const std::string& interval = rows[r][c].interval;
                const double intervalX = cx + cell - 3.0 - p.width(interval);
                p.text(interval, intervalX, baseline);
                p.font(s.body * 0.92);
                p.color(0, 0, 0);
                p.text(text, intervalX - 3.0 - p.width(text), baseline);
                cx += cell;
                continue;
            }
            p.text(text, c == 0 ? cx + 2.0 : cx + cell - 4.0 - p.width(text), baseline);
            if (!rows[r][c].interval.empty()) {
                p.font(s.small);
                p.color(0.3, 0.3, 0.3);
                const std::string& interval = rows[r][c].interval;
                p.text(interval, cx + cell - 4.0 - p.width(interval),
                       baseline + p.lineHeight() + 1.0);
            }
            cx += cell;
        }
        if (p.drawing() && r == 0) {
            cairo_set_source_rgb(p.cr(), 0.4, 0.4, 0.4);
            cairo_set_line_width(p.cr(), 0.6);
            cairo_move_to(p.cr(), x, y + rowHeight);
            cairo_line_to(p.cr(), x + width, y + rowHeight);
            cairo_stroke(p.cr());
        }
        y += rowHeight;
    }
    y += 3.0;
    p.font(s.body, true);
    y += p.paragraph(
        gapLine(model) +
            (model.bootstrap ? "   (the record: " + rate(model.recordedViolation) + ")" : ""),
        x, y, width);
    p.font(s.small);
    p.color(0.25, 0.25, 0.25);
    y += p.paragraph(model.bootstrap ? model.intervalMethod : noIntervalLine(model), x, y, width);

    // Privacy.
    heading("Privacy");
    std::istringstream lines(model.statement);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty()) continue;
        // The statement's first lines (its title, the guarantee) stand out; the rest is small.
        const bool title = line.rfind("Privacy statement", 0) == 0;
        const bool guarantee = line.rfind("Guarantee:", 0) == 0;
        if (!title && !guarantee && !s.fullStatement) continue;
        p.font(title || guarantee ? s.body : s.statement, title || guarantee);
        p.color(0.1, 0.1, 0.1);
        y += p.paragraph(line, x, y, width, 8.0) + 0.8;
    }
    if (!s.fullStatement) {
        p.font(s.statement);
        p.color(0.1, 0.1, 0.1);
        y += p.paragraph(
                 "The rest of the statement (what is protected, the mechanism, the noise, what is "
                 "not "
                 "covered) did not fit on this page: it is in the HTML report and in the record's "
                 "privacy.statement.",
                 x, y, width) +
             0.8;
    }
    p.font(s.body);
    p.color(0, 0, 0);
    y += 1.5 + p.paragraph("Ledger: " + model.ledger, x, y, width);

    // Reproduce.
    heading("Reproduce this run");
    p.font(s.small, false, kMono);
    p.color(0.1, 0.1, 0.1);
    if (model.reproduce.empty()) {
        p.font(s.small);
        y += p.paragraph("No command: " + model.reproduceNote, x, y, width);
    } else {
        y += p.paragraph(model.reproduce, x, y, width, 16.0);
        if (!model.reproduceNote.empty()) {
            p.font(s.small);
            y += p.paragraph(model.reproduceNote, x, y, width);
        }
    }
    // Footer.
    p.font(6.5);
    p.color(0.45, 0.45, 0.45);
    const std::string footer = "PFA Explorer " + model.version + " · " + model.generated +
                               " · the guarantee and the ledger total are the privacy "
                               "accountant’s; other ε values are budgets asked for";
    p.text(footer, x, kPageHeight - kMargin / 2);
    return y;
}

cairo_status_t appendToString(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

std::string escapeHtml(const std::string& text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string lowerExtension(const std::string& path) {
    const auto dot = path.rfind('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return {};
    std::string extension = path.substr(dot + 1);
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return extension;
}

}  // namespace

void writeReportPdf(const ReportModel& model, const std::string& path) {
    // Measure first. Too long: rates and intervals on one line each, then the text and the
    // chart smaller together (down to a legible minimum), and only then the statement's small
    // print left out (pointing to where it is), so that nothing is ever cut off.
    Sizes sizes;
    {
        cairo_surface_t* probe = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
        cairo_t* cr = cairo_create(probe);
        auto fits = [&] {
            Painter measure(cr, false);
            return layoutPage(measure, model, sizes) <= kPageHeight - kMargin;
        };
        auto shrinkUntilFits = [&] {
            for (int attempt = 0; attempt < 30 && !fits(); ++attempt) {
                sizes.body = std::max(6.5, sizes.body * 0.98);
                sizes.small = std::max(6.0, sizes.small * 0.98);
                sizes.statement = std::max(5.8, sizes.statement * 0.98);
                sizes.chartHeight = std::max(150.0, sizes.chartHeight - 8.0);
            }
        };
        if (!fits() && model.bootstrap) sizes.compactTable = true;
        shrinkUntilFits();
        if (!fits()) {
            const bool compact = sizes.compactTable;
            sizes = Sizes{};
            sizes.compactTable = compact;
            sizes.fullStatement = false;
            shrinkUntilFits();
        }
        cairo_destroy(cr);
        cairo_surface_destroy(probe);
    }
    cairo_surface_t* surface = cairo_pdf_surface_create(path.c_str(), kPageWidth, kPageHeight);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        throw InputError("cannot write the report to '" + path + "'");
    }
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE,
                                   ("PFA Explorer report — " + model.title).c_str());
    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR,
                                   ("PFA Explorer " + model.version).c_str());
    cairo_t* cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    Painter painter(cr, true);
    layoutPage(painter, model, sizes);
    cairo_show_page(cr);
    cairo_destroy(cr);
    cairo_surface_finish(surface);
    const cairo_status_t status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        throw InputError("cannot write the report to '" + path +
                         "': " + cairo_status_to_string(status));
    }
}

std::string tradeoffChartSvg(const ReportModel& model, double width, double height) {
    std::string svg;
    cairo_surface_t* surface =
        cairo_svg_surface_create_for_stream(appendToString, &svg, width, height);
    cairo_t* cr = cairo_create(surface);
    Painter painter(cr, true);
    paintChart(painter, model, 0.0, 0.0, width, height);
    cairo_destroy(cr);
    cairo_surface_finish(surface);
    cairo_surface_destroy(surface);
    // Inline in HTML: the XML declaration goes.
    const auto start = svg.find("<svg");
    return start == std::string::npos ? svg : svg.substr(start);
}

std::string reportHtml(const ReportModel& model) {
    std::ostringstream html;
    const auto e = escapeHtml;
    html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>PFA "
            "Explorer report — "
         << e(model.title) << "</title>\n<style>\n"
         << "body{font-family:'DejaVu Sans',Verdana,sans-serif;max-width:52rem;margin:2rem "
            "auto;padding:0 1rem;"
            "color:#111;line-height:1.4;font-size:15px}\n"
            "h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.1rem;color:#1f3b6b;margin:1."
            "4rem 0 .4rem}\n"
            ".meta{color:#555;font-size:.85rem;border-bottom:2px solid "
            "#1f3b6b;padding-bottom:.4rem}\n"
            ".cols{display:flex;gap:2rem;flex-wrap:wrap}.cols>div{flex:1;min-width:18rem}\n"
            "dl{display:grid;grid-template-columns:9rem 1fr;gap:.15rem "
            ".6rem;margin:0}dt{font-weight:bold;color:#333}"
            "dd{margin:0}\n"
            "table{border-collapse:collapse;width:100%;font-size:.85rem}th,td{padding:.25rem "
            ".4rem;text-align:right}"
            "th:first-child,td:first-child{text-align:left}tr:nth-child(even){background:#f2f4f9}"
            "th{border-bottom:1px solid #999}\n"
            ".small{font-size:.8rem;color:#444}.statement p{margin:.15rem 0;font-size:.85rem}\n"
            "code{font-family:'DejaVu Sans "
            "Mono',monospace;font-size:.8rem;background:#f4f4f4;padding:.4rem;"
            "display:block;white-space:pre-wrap;word-break:break-all}\nsvg{max-width:100%;height:"
            "auto}\n"
         << "</style>\n</head>\n<body>\n";
    html << "<h1>PFA Explorer report — " << e(model.title) << "</h1>\n<p class=\"meta\">"
         << e(model.runLabel) << " · generated " << e(model.generated) << " · PFA Explorer "
         << e(model.version) << "</p>\n";
    auto fields = [&](const std::string& title, const std::vector<ReportField>& list) {
        html << "<div><h2>" << e(title) << "</h2>\n<dl>\n";
        for (const ReportField& field : list)
            html << "<dt>" << e(field.label) << "</dt><dd>" << e(field.value) << "</dd>\n";
        html << "</dl>\n</div>\n";
    };
    html << "<div class=\"cols\">\n";
    fields("Data set", model.dataset);
    fields("Configuration", model.configuration);
    html << "</div>\n";
    if (!model.algorithmSettings.empty())
        html << "<p class=\"small\">Settings: " << e(model.algorithmSettings) << "</p>\n";
    html << "<h2>Tradeoff: test error against " << e(model.violationName)
         << ", every run on these data</h2>\n"
         << tradeoffChartSvg(model, 523.0, 215.0) << "\n";
    if (!model.protectionNote.empty()) {
        html << "<p class=\"small\""
             << (model.mixedProtection() ? " style=\"color:#8c0d00; font-weight:bold\"" : "") << ">"
             << e(model.protectionNote) << "</p>\n";
    }
    html << "<h2>Per-group results of this run on the test rows</h2>\n<table>\n";
    const std::vector<std::vector<Cell>> rows = tableRows(model);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        html << "<tr>";
        for (const Cell& cell : rows[r]) {
            html << (r == 0 ? "<th>" : "<td>") << e(cell.value);
            if (!cell.interval.empty())
                html << "<br><span class=\"small\">" << e(cell.interval) << "</span>";
            html << (r == 0 ? "</th>" : "</td>");
        }
        html << "</tr>\n";
    }
    html << "</table>\n<p><b>" << e(gapLine(model)) << "</b>";
    if (model.bootstrap) html << " (the record: " << e(rate(model.recordedViolation)) << ")";
    html << "</p>\n<p class=\"small\">"
         << e(model.bootstrap ? model.intervalMethod : noIntervalLine(model)) << "</p>\n";
    html << "<h2>Privacy</h2>\n<div class=\"statement\">\n";
    std::istringstream lines(model.statement);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty()) continue;
        const bool strong =
            line.rfind("Privacy statement", 0) == 0 || line.rfind("Guarantee:", 0) == 0;
        html << (strong ? "<p><b>" : "<p>") << e(line) << (strong ? "</b></p>\n" : "</p>\n");
    }
    html << "</div>\n<p>Ledger: " << e(model.ledger) << "</p>\n";
    html << "<h2>Reproduce this run</h2>\n";
    if (model.reproduce.empty()) {
        html << "<p class=\"small\">No command: " << e(model.reproduceNote) << "</p>\n";
    } else {
        html << "<code>" << e(model.reproduce) << "</code>\n";
        if (!model.reproduceNote.empty())
            html << "<p class=\"small\">" << e(model.reproduceNote) << "</p>\n";
    }
    html << "<p class=\"small\">PFA Explorer " << e(model.version) << " · " << e(model.generated)
         << " · the guarantee and the ledger total are the privacy accountant’s; other ε values "
            "are budgets asked for</p>\n</body>\n</html>\n";
    return html.str();
}

void writeReport(const ReportModel& model, const std::string& path) {
    const std::string extension = lowerExtension(path);
    if (extension == "pdf") {
        writeReportPdf(model, path);
        return;
    }
    if (extension != "html" && extension != "htm") {
        throw InputError("'" + path +
                         "': the report is written as .pdf or .html (by the file's extension)");
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("cannot write the report to '" + path + "'");
    out << reportHtml(model);
    out.close();
    if (!out) throw InputError("cannot write the report to '" + path + "'");
}

}  // namespace pfa::report
