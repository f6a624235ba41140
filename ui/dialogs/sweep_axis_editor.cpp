#include "ui/dialogs/sweep_axis_editor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <algorithm>

#include "ui/dialogs/sweep_values.h"

namespace pfa::ui {

SweepAxisEditor::SweepAxisEditor(QWidget* parent) : QWidget(parent) {
    m_parameter = new QComboBox();
    m_parameter->addItem(tr("(none)"), QString());
    for (const std::string& name : pfa::sweepParameterNames()) {
        m_parameter->addItem(QString::fromStdString(name), QString::fromStdString(name));
    }
    m_parameter->setToolTip(tr("Sweep one more hyper-parameter, e.g. the learning rate"));
    m_values = new QLineEdit();
    m_values->setPlaceholderText(tr(
        "values, comma-separated, or e.g. log:0.01:1:5; names for a choice (central,isrl,local)"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_parameter);
    row->addWidget(m_values, 1);
    connect(m_parameter, &QComboBox::currentIndexChanged, this, &SweepAxisEditor::changed);
    connect(m_values, &QLineEdit::textChanged, this, &SweepAxisEditor::changed);
}

QString SweepAxisEditor::parameter() const { return m_parameter->currentData().toString(); }

void SweepAxisEditor::setAxis(const QString& parameter, const QString& values) {
    const int index = m_parameter->findData(parameter);
    if (index >= 0) m_parameter->setCurrentIndex(index);
    m_values->setText(values);
}

void SweepAxisEditor::applyPreset(const std::vector<pfa::SweepAxis>& axes) {
    // The dialog edits one extra axis: the preset's first. Further axes of the preset are kept
    // as they are and named in the summary (the ppsgd preset sweeps a and the step size).
    m_parameter->setCurrentIndex(0);
    m_values->clear();
    m_kept.assign(axes.begin() + std::min<std::ptrdiff_t>(1, std::ssize(axes)), axes.end());
    if (!axes.empty())
        setAxis(QString::fromStdString(axes.front().parameter),
                sweep_values::axisText(axes.front()));
}

std::vector<pfa::SweepAxis> SweepAxisEditor::axes(QString* problem) const {
    std::vector<pfa::SweepAxis> axes;
    const QString edited = parameter();
    if (!edited.isEmpty())
        axes.push_back(sweep_values::parseAxis(edited, m_values->text(), problem));
    for (const pfa::SweepAxis& kept : m_kept) {
        if (kept.parameter != edited.toStdString()) axes.push_back(kept);
    }
    return axes;
}

QStringList SweepAxisEditor::keptAxesText() const {
    QStringList axes;
    for (const pfa::SweepAxis& axis : m_kept) {
        if (axis.parameter == parameter().toStdString()) continue;
        axes << QStringLiteral("%1 = %2").arg(QString::fromStdString(axis.parameter),
                                              sweep_values::axisText(axis));
    }
    return axes;
}

}  // namespace pfa::ui
