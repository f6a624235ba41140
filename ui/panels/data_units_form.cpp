#include "ui/panels/data_units_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>
#include <limits>

#include "core/generators/generator.h"

namespace pfa::ui {

namespace {

/// Large enough for every data set offered (the synthetic data's users and silos are checked
/// against its rows by the generator; a silo split against the training rows by makeSilos).
constexpr int kMaxUnits = 1000000;

QSpinBox* spinBox(int low, int high, int value, const QString& tip) {
    auto* box = new QSpinBox();
    box->setRange(low, high);
    box->setValue(value);
    box->setToolTip(tip);
    box->setKeyboardTracking(false);  // reload at a committed value, not at every keystroke
    return box;
}

QDoubleSpinBox* doubleBox(double low, double high, double step, int decimals, double value,
                          const QString& tip) {
    auto* box = new QDoubleSpinBox();
    box->setRange(low, high);
    box->setDecimals(decimals);
    box->setSingleStep(step);
    box->setValue(value);
    box->setToolTip(tip);
    box->setKeyboardTracking(false);
    return box;
}

}  // namespace

DataUnitsForm::DataUnitsForm(QFormLayout* form, QWidget* parent) : QWidget(parent) {
    const pfa::SiloOptions silos;
    m_method = new QComboBox();
    m_method->addItem(tr("none"), QStringLiteral("none"));
    m_method->addItem(tr("equal, at random"), QStringLiteral("equal"));
    m_method->addItem(tr("Dirichlet label mix"), QStringLiteral("dirichlet"));
    m_method->addItem(tr("one per value of a column"), QStringLiteral("attribute"));
    m_method->setToolTip(
        tr("Deal the rows out to silos — institutions (hospitals, banks) that each hold their own "
           "rows — "
           "after the train/test split, for algorithms that protect or train per silo.\n"
           "Equal, at random: N silos of equal size, alike in expectation.\n"
           "Dirichlet label mix: each class is shared among the N silos in Dirichlet(α) "
           "proportions, so "
           "silos differ in their label mix (small α: silos dominated by one class).\n"
           "One per value of a column: e.g. one silo per country; values with too few rows are "
           "merged."));
    m_count = spinBox(1, kMaxUnits, silos.silos, tr("Number of silos N"));
    m_alpha = doubleBox(
        0.01, 1000.0, 0.1, 2, silos.dirichletAlpha,
        tr("Concentration α of the Dirichlet draw: 0.1 gives silos dominated by one class, "
           "1 varied mixes, 100 nearly the same mix everywhere"));
    m_column = new QComboBox();
    m_column->setToolTip(
        tr("What the silos follow: the label (one silo per class), the sensitive group, or "
           "a categorical column of the data"));
    m_column->addItem(tr("the label"), QStringLiteral("label"));
    m_column->addItem(tr("the sensitive group"), QStringLiteral("group"));
    m_column->setCurrentIndex(1);
    m_minRows = spinBox(
        1, kMaxUnits, static_cast<int>(silos.minTrainRowsPerSilo),
        tr("Every silo gets at least this many training rows. Dirichlet: the proportions are "
           "drawn again until it holds. One per value: values with fewer rows share one "
           "silo, “other”."));
    m_seed = spinBox(0, std::numeric_limits<int>::max(), static_cast<int>(silos.seed),
                     tr("Seed of the silo split: another seed deals the rows out differently"));
    if (form) {
        m_form = form;
        setVisible(false);  // the rows live in `form`
    } else {
        m_form = new QFormLayout(this);
        m_form->setContentsMargins(0, 0, 0, 0);
    }
    m_form->addRow(tr("Silo split"), m_method);
    m_form->addRow(tr("Silos N"), m_count);
    m_form->addRow(tr("Dirichlet α"), m_alpha);
    m_form->addRow(tr("Silos follow"), m_column);
    m_form->addRow(tr("Min. rows/silo"), m_minRows);
    m_form->addRow(tr("Silo seed"), m_seed);
    m_method->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_method->setMinimumContentsLength(8);
    m_column->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_column->setMinimumContentsLength(8);

    const auto changedNow = [this] {
        updateRows();
        emit changed();
    };
    for (QComboBox* box : {m_method, m_column})
        connect(box, &QComboBox::currentIndexChanged, this, changedNow);
    for (QSpinBox* box : {m_count, m_minRows, m_seed})
        connect(box, &QSpinBox::valueChanged, this, changedNow);
    connect(m_alpha, &QDoubleSpinBox::valueChanged, this, changedNow);
    updateRows();
}

void DataUnitsForm::updateRows() {
    const QString method = m_method->currentData().toString();
    // The generator's silos and a silo split of the same rows would contradict each other.
    m_method->setEnabled(!m_generatedSilos);
    const bool split = !m_generatedSilos && method != QLatin1String("none");
    m_form->setRowVisible(m_count, split && method != QLatin1String("attribute"));
    m_form->setRowVisible(m_alpha, split && method == QLatin1String("dirichlet"));
    m_form->setRowVisible(m_column, split && method == QLatin1String("attribute"));
    m_form->setRowVisible(m_minRows, split && method != QLatin1String("equal"));
    m_form->setRowVisible(m_seed, split && method != QLatin1String("attribute"));
}

void DataUnitsForm::setGeneratedSilos(bool generated) {
    if (generated == m_generatedSilos) return;
    m_generatedSilos = generated;
    updateRows();
}

void DataUnitsForm::setColumns(const QStringList& columns) {
    const QString current = m_column->currentData().toString();
    const QSignalBlocker block(m_column);
    while (m_column->count() > 2) m_column->removeItem(2);
    for (const QString& column : columns) m_column->addItem(tr("column “%1”").arg(column), column);
    const int index = m_column->findData(current);
    if (index >= 0) {
        m_column->setCurrentIndex(index);
    } else {
        // A column of another data set: keep it chosen (the load says if it is missing).
        m_column->addItem(tr("column “%1”").arg(current), current);
        m_column->setCurrentIndex(m_column->count() - 1);
    }
}

void DataUnitsForm::applyTo(pfa::DatasetRequest& request) const {
    const QString method = m_method->currentData().toString();
    // Data that comes in silos (the generator's) is not split into silos again.
    const bool generatedSilos = !pfa::generatedSilos(request).empty();
    if (method == QLatin1String("none") || generatedSilos) {
        request.silos.reset();
        return;
    }
    pfa::SiloOptions silos;
    silos.method = pfa::parseSiloMethod(method.toStdString());
    if (silos.method != pfa::SiloMethod::ByAttribute) {
        silos.silos = m_count->value();
        silos.seed = static_cast<std::uint64_t>(m_seed->value());
    } else {
        pfa::setSiloColumn(silos, m_column->currentData().toString().toStdString());
    }
    if (silos.method == pfa::SiloMethod::Dirichlet) silos.dirichletAlpha = m_alpha->value();
    if (silos.method != pfa::SiloMethod::EqualRandom)
        silos.minTrainRowsPerSilo = m_minRows->value();
    request.silos = silos;
}

void DataUnitsForm::showRequest(const pfa::DatasetRequest& request) {
    QJsonObject json;
    json["silo_split"] = QStringLiteral("none");
    if (request.silos) {
        const pfa::SiloOptions& silos = *request.silos;
        json["silo_split"] = QString::fromStdString(pfa::siloMethodName(silos.method));
        json["silos"] = silos.silos;
        json["silo_alpha"] = silos.dirichletAlpha;
        json["silo_column"] = QString::fromStdString(pfa::siloColumnName(silos));
        json["silo_min_rows"] = static_cast<double>(silos.minTrainRowsPerSilo);
        json["silo_seed"] = static_cast<double>(silos.seed);
    }
    const QSignalBlocker block(this);
    fromJson(json);
}

QJsonObject DataUnitsForm::toJson() const {
    QJsonObject json;
    json["silo_split"] = m_method->currentData().toString();
    json["silos"] = m_count->value();
    json["silo_alpha"] = m_alpha->value();
    json["silo_column"] = m_column->currentData().toString();
    json["silo_min_rows"] = m_minRows->value();
    json["silo_seed"] = m_seed->value();
    return json;
}

void DataUnitsForm::fromJson(const QJsonObject& json) {
    {
        const QSignalBlocker blocks[] = {QSignalBlocker(m_method),  QSignalBlocker(m_count),
                                         QSignalBlocker(m_alpha),   QSignalBlocker(m_column),
                                         QSignalBlocker(m_minRows), QSignalBlocker(m_seed)};
        const int method = m_method->findData(json["silo_split"].toString(QStringLiteral("none")));
        m_method->setCurrentIndex(method >= 0 ? method : 0);
        const auto setInt = [&](QSpinBox* box, const char* key) {
            if (json.contains(QLatin1String(key)))
                box->setValue(json[QLatin1String(key)].toInt(box->value()));
        };
        const auto setReal = [&](QDoubleSpinBox* box, const char* key) {
            if (json.contains(QLatin1String(key)))
                box->setValue(json[QLatin1String(key)].toDouble(box->value()));
        };
        setInt(m_count, "silos");
        setReal(m_alpha, "silo_alpha");
        if (json.contains(QLatin1String("silo_column"))) {
            const QString column = json["silo_column"].toString();
            int index = m_column->findData(column);
            if (index < 0 && !column.isEmpty()) {
                m_column->addItem(tr("column “%1”").arg(column), column);
                index = m_column->count() - 1;
            }
            if (index >= 0) m_column->setCurrentIndex(index);
        }
        setInt(m_minRows, "silo_min_rows");
        setInt(m_seed, "silo_seed");
    }
    updateRows();
    emit changed();
}

}  // namespace pfa::ui
