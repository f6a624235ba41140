#pragma once

#include <QWidget>
#include <vector>

namespace pfa::ui {

/// Groups with fewer test rows than this are flagged (never hidden) in the group bars and the
/// per-group table. Why 30: a rate measured on n rows has a standard error of up to
/// √(0.25 / n), 0.09 at n = 30 — a 95 % interval of about ±0.18, as wide as the fairness gaps
/// the app shows; below that a group's rates, and any gap involving it, are mostly noise.
inline constexpr long kSmallGroupRows = 30;

/// The warning shown for a group of `testRows` test rows, e.g. "n = 12 test rows — too few
/// for a reliable rate (fewer than 30: …)"; "" when the group is large enough. 0 rows: "empty".
QString smallGroupNote(long testRows);

/// A compact horizontal bar chart for the data-set card: one row per group with its size
/// (bar length, relative to the largest group) and its base rate (the share of the positive
/// class, drawn as a second, darker bar on a 0–100 % scale), so bias is visible before any
/// training. Groups with few test rows (kSmallGroupRows) are drawn hatched with a warning.
class GroupBarChart : public QWidget {
    Q_OBJECT
public:
    struct Group {
        QString name;
        long size = 0;
        double baseRate = 0.0;  ///< in [0, 1]
        long testSize = -1;     ///< rows in the test set (-1: unknown, then `size` is judged)
        /// The rows the small-group flag judges.
        long judgedRows() const { return testSize >= 0 ? testSize : size; }
        bool small() const { return judgedRows() < kSmallGroupRows; }
    };

    explicit GroupBarChart(QWidget* parent = nullptr);
    void setGroups(std::vector<Group> groups, const QString& positiveClass);
    const std::vector<Group>& groups() const { return m_groups; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    std::vector<Group> m_groups;
    QString m_positiveClass;
};

}  // namespace pfa::ui
