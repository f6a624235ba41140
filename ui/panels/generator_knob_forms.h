#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <string>
#include <vector>

#include "core/data/builtin_datasets.h"

class QFormLayout;
class QLabel;
class QTimer;
class QWidget;

namespace pfa::ui {

class ParameterForm;

/// The rows of every data generator's knobs, generated from their declarations
/// (core/generators/): for each generator a form of its main knobs, placed in the experiment
/// panel's main form, and one of its advanced knobs (seed, users, silos, …) in the advanced
/// section; only the chosen generator's rows are shown. Values are read, written and stored in
/// sessions under the knobs' names (the command line's spelling); sessions of earlier versions
/// (their "heavy_tailed" and "units" objects) still load. Edits are committed after a short
/// pause, so typing a number regenerates the data once, not at every keystroke.
class GeneratorKnobForms : public QObject {
    Q_OBJECT
public:
    /// Inserts the main rows into `mainForm` at row `mainRow` (each generator's form spans the
    /// row, followed by its note) and appends the advanced rows to `advancedForm`.
    GeneratorKnobForms(QFormLayout* mainForm, int mainRow, QFormLayout* advancedForm,
                       QObject* parent = nullptr);

    /// Shows the rows of generator `name` and hides the others ("" or a data set that is not a
    /// generator: none).
    void setGenerator(const std::string& name);
    /// Writes the knobs of the request's generator into `request`; returns the first problem
    /// of a row in plain words ("" if none; the knob keeps its earlier value).
    QString applyTo(pfa::DatasetRequest& request) const;
    /// Shows the knobs of the request's generator (e.g. a preset's), without signals.
    void showRequest(const pfa::DatasetRequest& request);

    /// Writes every generator's knobs under their names.
    void writeJson(QJsonObject& json) const;
    /// Reads what writeJson wrote, and the knobs of earlier sessions under their former names.
    void readJson(const QJsonObject& json);

    /// The widget editing knob `name` (nullptr when there is none).
    QWidget* field(const std::string& name) const;
    /// The note under the chosen generator's rows (e.g. the admissible tail index).
    QString noteText() const;

signals:
    /// A committed change: the data must be generated again.
    void changed();

private:
    struct Forms {
        std::string generator;
        ParameterForm* main = nullptr;
        ParameterForm* advanced = nullptr;
        QLabel* title = nullptr;  ///< above the advanced rows
    };
    const Forms* formsOf(const std::string& generator) const;
    void updateNote();

    std::vector<Forms> m_forms;
    std::string m_current;
    QLabel* m_note;
    QTimer* m_commit;
};

}  // namespace pfa::ui
