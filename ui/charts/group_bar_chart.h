#pragma once

#include <QWidget>
#include <vector>

namespace pfa::ui {

/// A compact horizontal bar chart for the data-set card: one row per group with its size
/// (bar length, relative to the largest group) and its base rate (the share of the positive
/// class, drawn as a second, darker bar on a 0–100 % scale), so bias is visible before any
/// training.
class GroupBarChart : public QWidget {
    Q_OBJECT
public:
    struct Group {
        QString name;
        long size = 0;
        double baseRate = 0.0;  ///< in [0, 1]
    };

    explicit GroupBarChart(QWidget* parent = nullptr);
    void setGroups(std::vector<Group> groups, const QString& positiveClass);
    const std::vector<Group>& groups() const { return m_groups; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<Group> m_groups;
    QString m_positiveClass;
};

}  // namespace pfa::ui
