#pragma once

#include <QJsonObject>
#include <QWidget>

#include "core/data/builtin_datasets.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;

namespace pfa::ui {

/// The data set's units, in the experiment panel's advanced section: how to split any data set
/// into silos (none, equal random, Dirichlet label mix, one per value of a column) and, for the
/// synthetic data, the generator's users and silos knobs. Rows without effect are hidden.
class DataUnitsForm : public QWidget {
    Q_OBJECT
public:
    /// Puts its rows into `form` (e.g. the advanced section's, so that the columns line up),
    /// or into a form of its own when `form` is null. With a form of another widget this widget
    /// only owns the logic and stays hidden.
    explicit DataUnitsForm(QFormLayout* form = nullptr, QWidget* parent = nullptr);

    /// Writes the silo options (and, when the request is the synthetic data, the users and
    /// silos knobs) into `request`.
    void applyTo(pfa::DatasetRequest& request) const;
    /// Shows the silo options and synthetic knobs of `request` (a preset's), without signals.
    void showRequest(const pfa::DatasetRequest& request);
    /// Whether the synthetic knobs apply (the synthetic data set is chosen).
    void setSynthetic(bool synthetic);
    /// The categorical columns a silo split may follow (besides the label and the group).
    void setColumns(const QStringList& columns);

    /// Settings as JSON (sessions) and back; absent keys keep the defaults.
    QJsonObject toJson() const;
    void fromJson(const QJsonObject& json);

    QFormLayout* formLayout() const { return m_form; }
    QComboBox* siloMethodBox() const { return m_method; }
    QSpinBox* siloCountBox() const { return m_count; }
    QDoubleSpinBox* alphaBox() const { return m_alpha; }
    QComboBox* columnBox() const { return m_column; }
    QSpinBox* minRowsBox() const { return m_minRows; }
    QSpinBox* siloSeedBox() const { return m_seed; }
    QSpinBox* usersBox() const { return m_users; }
    QDoubleSpinBox* userSkewBox() const { return m_userSkew; }
    QDoubleSpinBox* userCorrelationBox() const { return m_userCorrelation; }
    QDoubleSpinBox* atypicalUsersBox() const { return m_atypical; }
    QSpinBox* syntheticSilosBox() const { return m_syntheticSilos; }
    QDoubleSpinBox* heterogeneityBox() const { return m_heterogeneity; }

signals:
    /// A committed change: the data must be loaded again.
    void changed();

private:
    void updateRows();

    QFormLayout* m_form;
    QComboBox* m_method;
    QSpinBox* m_count;
    QDoubleSpinBox* m_alpha;
    QComboBox* m_column;
    QSpinBox* m_minRows;
    QSpinBox* m_seed;
    QSpinBox* m_users;
    QDoubleSpinBox* m_userSkew;
    QDoubleSpinBox* m_userCorrelation;
    QDoubleSpinBox* m_atypical;
    QSpinBox* m_syntheticSilos;
    QDoubleSpinBox* m_heterogeneity;
    bool m_synthetic = true;
};

}  // namespace pfa::ui
