#pragma once

#include <QJsonObject>
#include <QWidget>

#include "core/data/heavy_tailed.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace pfa::ui {

/// The knobs of the synthetic heavy-tailed regression generator (HeavyTailedOptions), shown in
/// the experiment panel while that data set is chosen: rows, features, the features' tail index
/// ν (or Gaussian features, ν = ∞), the noise's tail and scale, the outlier rows. Beside ν it
/// states the admissible tail index k = ν − 0.5 and, for ν ≤ 2, that the features have no
/// finite variance, so no moment bound of order k ≥ 2 holds.
class HeavyTailedForm : public QWidget {
    Q_OBJECT
public:
    explicit HeavyTailedForm(QWidget* parent = nullptr);

    pfa::HeavyTailedOptions options() const;
    /// Shows `options` (a preset's or a session's) without emitting changed().
    void setOptions(const pfa::HeavyTailedOptions& options);
    /// The line beside ν: the admissible tail index, or what ν ≤ 2 means.
    QString tailText() const;

    /// Settings as JSON (sessions) and back; absent keys keep the defaults.
    QJsonObject toJson() const;
    void fromJson(const QJsonObject& json);

    QDoubleSpinBox* featureTailBox() const { return m_featureTail; }
    QCheckBox* gaussianBox() const { return m_gaussian; }

signals:
    /// A committed change: the data must be generated again.
    void changed();

private:
    void updateTailText();

    QSpinBox* m_rows;
    QSpinBox* m_features;
    QDoubleSpinBox* m_featureTail;
    QCheckBox* m_gaussian;
    QLabel* m_tail;
    QDoubleSpinBox* m_noiseTail;
    QDoubleSpinBox* m_noiseScale;
    QDoubleSpinBox* m_outlierShare;
    QDoubleSpinBox* m_outlierScale;
};

}  // namespace pfa::ui
