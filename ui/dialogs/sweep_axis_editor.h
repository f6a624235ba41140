#pragma once

#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/sweep/sweep_spec.h"

class QComboBox;
class QLineEdit;

namespace pfa::ui {

/// The sweep dialog's extra axis: one sweepable setting chosen in a box and its values typed
/// beside it (numbers, log:/lin: generators, or a choice setting's names). A preset may sweep
/// more settings than the dialog edits: its further axes are kept as they are.
class SweepAxisEditor : public QWidget {
    Q_OBJECT
public:
    explicit SweepAxisEditor(QWidget* parent = nullptr);

    /// The setting chosen ("" = none).
    QString parameter() const;
    /// Chooses `parameter` when it is offered (else the choice stays) and types `values`.
    void setAxis(const QString& parameter, const QString& values);
    /// Edits the first of a preset's `axes` (none: no extra axis) and keeps the others.
    void applyPreset(const std::vector<pfa::SweepAxis>& axes);
    /// The axes swept: the one edited, when a setting is chosen, then the kept ones (except one
    /// over the edited setting); the first problem of the values typed goes to `problem`.
    std::vector<pfa::SweepAxis> axes(QString* problem) const;
    /// The kept axes swept besides the edited one, as "parameter = values".
    QStringList keptAxesText() const;
    QLineEdit* valuesEdit() const { return m_values; }

signals:
    /// The setting or its values changed.
    void changed();

private:
    QComboBox* m_parameter;
    QLineEdit* m_values;
    /// A preset's axes after its first (which the editor edits).
    std::vector<pfa::SweepAxis> m_kept;
};

}  // namespace pfa::ui
