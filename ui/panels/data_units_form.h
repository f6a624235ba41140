#pragma once

#include <QJsonObject>
#include <QWidget>
#include <utility>
#include <vector>

#include "core/data/builtin_datasets.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;

namespace pfa {
struct SiloSetting;
}

namespace pfa::ui {

/// The data set's silos, in the experiment panel's advanced section: how to split any data set
/// into silos (none, equal random, Dirichlet label mix, one per value of a column). Labels,
/// tooltips, ranges, defaults and which rows go with which method come from the silo split's
/// declarations (core/generators/silo_settings.h); rows without effect are hidden. (A
/// generator's own users and silos are its knobs: GeneratorKnobForms.)
class DataUnitsForm : public QWidget {
    Q_OBJECT
public:
    /// Puts its rows into `form` (e.g. the advanced section's, so that the columns line up),
    /// or into a form of its own when `form` is null. With a form of another widget this widget
    /// only owns the logic and stays hidden.
    explicit DataUnitsForm(QFormLayout* form = nullptr, QWidget* parent = nullptr);

    /// Writes the silo options into `request` (none when its data already comes in silos).
    void applyTo(pfa::DatasetRequest& request) const;
    /// Shows the silo options of `request` (a preset's), without signals.
    void showRequest(const pfa::DatasetRequest& request);
    /// Whether the chosen data already comes in silos (the generator made them): then no silo
    /// split can be chosen.
    void setGeneratedSilos(bool generated);
    /// The categorical columns a silo split may follow (besides the label and the group).
    void setColumns(const QStringList& columns);

    /// Settings as JSON (sessions), under the settings' names, and back (also under their
    /// former names, as earlier sessions wrote them); absent keys keep the values shown.
    QJsonObject toJson() const;
    void fromJson(const QJsonObject& json);

    QFormLayout* formLayout() const { return m_form; }
    QComboBox* siloMethodBox() const { return m_method; }
    QSpinBox* siloCountBox() const { return m_count; }
    QDoubleSpinBox* alphaBox() const { return m_alpha; }
    QComboBox* columnBox() const { return m_column; }
    QSpinBox* minRowsBox() const { return m_minRows; }
    QSpinBox* siloSeedBox() const { return m_seed; }

signals:
    /// A committed change: the data must be loaded again.
    void changed();

private:
    void updateRows();
    /// The row of each declared setting, in declaration order.
    std::vector<std::pair<const pfa::SiloSetting*, QWidget*>> rows() const;

    QFormLayout* m_form;
    QComboBox* m_method;
    QSpinBox* m_count;
    QDoubleSpinBox* m_alpha;
    QComboBox* m_column;
    QSpinBox* m_minRows;
    QSpinBox* m_seed;
    bool m_generatedSilos = false;
};

}  // namespace pfa::ui
