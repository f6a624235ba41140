#pragma once

#include <QJsonObject>
#include <QString>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "core/config/algorithm.h"
#include "core/config/parameters.h"
#include "core/config/train_config.h"
#include "ui/panels/parameter_text.h"

class QFormLayout;
class QLabel;

namespace pfa::ui {

/// Shows or hides the row of `field` in `form` (its label and field widgets).
void setFormRowVisible(QFormLayout* form, QWidget* field, bool visible);

/// Name of the boolean property that marks a line edit holding a number: like a spin box, it
/// ignores Space, which would otherwise replace its selected text (RunActions::eventFilter).
inline constexpr char kNumberFieldProperty[] = "pfaNumberField";

/// A form generated from parameter declarations (ParamSpec): one row per parameter, labelled
/// with its label and explained in its tooltip (help, choices, default, allowed values, which
/// algorithms read it). Real numbers are typed (empty = automatic where the parameter has an
/// automatic value), whole numbers use a spin box (a line edit beyond the int range), choices
/// a combo box and flags a check box. Values are read and written by the parameters' own
/// get/set, and stored in JSON under their names: the form knows no parameter by name.
class ParameterForm : public QWidget {
    Q_OBJECT
public:
    /// `readBy` names what reads the parameters in their tooltips ("" = the algorithms that
    /// declare them; a data generator's knobs say their data set).
    explicit ParameterForm(std::vector<pfa::ParamSpec> specs, QWidget* parent = nullptr,
                           const QString& readBy = QString());

    const std::vector<pfa::ParamSpec>& specs() const { return m_specs; }

    /// Shows the rows of the parameters `algorithm` declares and hides the others.
    void setAlgorithm(const pfa::Algorithm& algorithm);
    /// Disables the rows whose parameter has no effect in this context (ParamSpec::applies),
    /// saying why in their tooltips.
    void setContext(bool isPrivate, pfa::Calibration calibration, bool fairnessOn);

    /// Writes every value into `config` (spec.set after parseParameter). Returns the first
    /// problem of a row that is shown and enabled, in plain words ("" if none); an invalid
    /// value leaves `config`'s value as it was, and the text stays as typed.
    QString applyTo(pfa::TrainConfig& config) const;
    /// Shows the values of `config`.
    void showConfig(const pfa::TrainConfig& config);

    /// Writes every value under its parameter's name: numbers, words (choices), true/false
    /// (flags), "auto" for automatic values; text that is not valid is kept as typed.
    void writeJson(QJsonObject& json) const;
    /// Reads the values written by writeJson, also under the parameters' former names and in
    /// earlier forms ("" = automatic); a parameter that is absent gets its default.
    void readJson(const QJsonObject& json);

    /// Shows `value` in the row of `name`, disabled, with `why` first in its tooltip: whatever
    /// the row held, runs in this context use `value` (e.g. replace-one adjacency under the
    /// sensitive-attribute-only scope). The row's own value is kept and still read and written
    /// (applyTo, writeJson, showConfig, readJson); releaseValue shows it again.
    void forceValue(const std::string& name, const std::string& value, const QString& why);
    /// Ends forceValue for `name` (nothing happens when it is not forced).
    void releaseValue(const std::string& name);
    /// Whether the row of `name` shows a forced value.
    bool isForced(const std::string& name) const;

    /// The widget editing parameter `name` (nullptr when the form has no such row).
    QWidget* field(const std::string& name) const;
    /// The label of parameter `name`'s row (nullptr when none, and for flags: their check box
    /// carries the label).
    QLabel* label(const std::string& name) const;
    /// Whether the row of `name` is shown (the algorithm reads the parameter).
    bool isShown(const std::string& name) const;
    /// Whether the form shows any row for the current algorithm.
    bool hasShownRows() const;
    /// The form's layout: a caller may add rows of its own (they share the label column).
    QFormLayout* formLayout() const { return m_layout; }

signals:
    /// A value was edited.
    void changed();

private:
    struct Row {
        const pfa::ParamSpec* spec = nullptr;
        QLabel* label = nullptr;  ///< none for flags
        QWidget* field = nullptr;
        QString tooltip;
        bool shown = true;
        bool applies = true;
        QString inapplicable;  ///< why the row has no effect now ("" when it has)
        /// forceValue: the row's own value while the widget shows the forced one.
        std::optional<std::string> held;
        std::string forcedValue;
        QString forcedWhy;
    };

    QWidget* makeField(const pfa::ParamSpec& spec);
    void onEdited();
    /// The row's value, as a user would type it ("auto" for automatic): what its widget holds,
    /// or its own value while the widget shows a forced one.
    std::string rawText(const Row& row) const;
    /// What the row's widget holds.
    std::string widgetText(const Row& row) const;
    /// Shows `text` (canonical, "auto", or invalid text a session kept) in the row's widget.
    void showText(Row& row, const std::string& text);
    /// Puts `text` into the row's widget (showText, or a forced value).
    void displayText(Row& row, const std::string& text);
    void updateRowState(Row& row, const QString& why);
    const Row* row(const std::string& name) const;
    Row* row(const std::string& name);

    std::vector<pfa::ParamSpec> m_specs;
    std::vector<Row> m_rows;
    QFormLayout* m_layout;
    bool m_quiet = false;  ///< values are being shown, not edited
};

}  // namespace pfa::ui
