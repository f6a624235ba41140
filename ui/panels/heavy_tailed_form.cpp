#include "ui/panels/heavy_tailed_form.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <cmath>

#include "core/algorithms/heavy_tail/heavy_tail_steps.h"

namespace pfa::ui {

namespace {

QDoubleSpinBox* realBox(double low, double high, double step, int decimals, const QString& tip) {
    auto* box = new QDoubleSpinBox();
    box->setRange(low, high);
    box->setSingleStep(step);
    box->setDecimals(decimals);
    box->setToolTip(tip);
    box->setKeyboardTracking(false);  // regenerate when a value is committed, not per keystroke
    return box;
}

}  // namespace

HeavyTailedForm::HeavyTailedForm(QWidget* parent) : QWidget(parent) {
    const pfa::HeavyTailedOptions defaults;
    m_rows = new QSpinBox();
    m_rows->setRange(100, 10000000);
    m_rows->setSingleStep(1000);
    m_rows->setToolTip(tr("Rows generated (training and test rows together)"));
    m_rows->setKeyboardTracking(false);
    m_features = new QSpinBox();
    m_features->setRange(1, 200);
    m_features->setToolTip(tr("Number of features d"));
    m_features->setKeyboardTracking(false);
    m_featureTail = realBox(
        0.5, 1000, 0.5, 2,
        tr("Degrees of freedom ν of the Student-t features: small ν means heavy tails. "
           "Moments of order below ν are finite; ν ≤ 2 gives features with infinite variance"));
    m_gaussian = new QCheckBox(tr("Gaussian (ν = ∞)"));
    m_gaussian->setToolTip(tr(
        "Gaussian features: the light-tailed limit of the Student-t family, every moment finite"));
    m_tail = new QLabel();
    m_tail->setWordWrap(true);
    m_tail->setTextFormat(Qt::PlainText);
    m_tail->setToolTip(
        tr("The tail index k the heavy-tail algorithms may assume on these data (their setting "
           "\"Tail index k\"): moments of order k < ν are finite, so k = ν − 0.5 is admissible"));
    m_noiseTail = realBox(0.5, 1000, 0.5, 2,
                          tr("Degrees of freedom ν_ξ of the Student-t noise on the target"));
    m_noiseScale = realBox(0, 100, 0.1, 3, tr("Scale s_ξ of the noise: ξ = s_ξ · t(ν_ξ)"));
    m_outlierShare = realBox(
        0, 0.49, 0.01, 3,
        tr("Share of outlier rows, whose features and noise are multiplied by the outlier scale"));
    m_outlierScale =
        realBox(1, 10000, 10, 1, tr("Factor applied to the features and noise of outlier rows"));

    auto* tailRow = new QHBoxLayout();
    tailRow->setContentsMargins(0, 0, 0, 0);
    tailRow->addWidget(m_featureTail);
    tailRow->addWidget(m_gaussian);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Rows"), m_rows);
    form->addRow(tr("Features"), m_features);
    form->addRow(tr("Feature tail ν"), tailRow);
    form->addRow(QString(), m_tail);
    form->addRow(tr("Noise tail ν_ξ"), m_noiseTail);
    form->addRow(tr("Noise scale"), m_noiseScale);
    form->addRow(tr("Outlier share"), m_outlierShare);
    form->addRow(tr("Outlier scale"), m_outlierScale);
    setOptions(defaults);

    for (QSpinBox* box : {m_rows, m_features})
        connect(box, &QSpinBox::valueChanged, this, &HeavyTailedForm::changed);
    for (QDoubleSpinBox* box :
         {m_featureTail, m_noiseTail, m_noiseScale, m_outlierShare, m_outlierScale})
        connect(box, &QDoubleSpinBox::valueChanged, this, &HeavyTailedForm::changed);
    connect(m_featureTail, &QDoubleSpinBox::valueChanged, this, &HeavyTailedForm::updateTailText);
    connect(m_gaussian, &QCheckBox::toggled, this, [this](bool gaussian) {
        m_featureTail->setEnabled(!gaussian);
        updateTailText();
        emit changed();
    });
}

pfa::HeavyTailedOptions HeavyTailedForm::options() const {
    pfa::HeavyTailedOptions o;
    o.rows = m_rows->value();
    o.features = m_features->value();
    o.featureTail = m_gaussian->isChecked() ? INFINITY : m_featureTail->value();
    o.noiseTail = m_noiseTail->value();
    o.noiseScale = m_noiseScale->value();
    o.outlierShare = m_outlierShare->value();
    o.outlierScale = m_outlierScale->value();
    return o;
}

void HeavyTailedForm::setOptions(const pfa::HeavyTailedOptions& o) {
    const QSignalBlocker blockRows(m_rows), blockFeatures(m_features), blockTail(m_featureTail),
        blockGaussian(m_gaussian), blockNoiseTail(m_noiseTail), blockNoiseScale(m_noiseScale),
        blockShare(m_outlierShare), blockScale(m_outlierScale);
    m_rows->setValue(o.rows);
    m_features->setValue(o.features);
    m_gaussian->setChecked(std::isinf(o.featureTail));
    m_featureTail->setEnabled(!std::isinf(o.featureTail));
    if (std::isfinite(o.featureTail)) m_featureTail->setValue(o.featureTail);
    m_noiseTail->setValue(std::isfinite(o.noiseTail) ? o.noiseTail : m_noiseTail->maximum());
    m_noiseScale->setValue(o.noiseScale);
    m_outlierShare->setValue(o.outlierShare);
    m_outlierScale->setValue(o.outlierScale);
    updateTailText();
}

QString HeavyTailedForm::tailText() const { return m_tail->text(); }

void HeavyTailedForm::updateTailText() {
    if (m_gaussian->isChecked()) {
        m_tail->setText(tr("Admissible tail index: every k (Gaussian features have all moments)."));
        return;
    }
    const double nu = m_featureTail->value();
    const double k = pfa::admissibleTailIndex(nu);
    if (nu <= 2.0) {
        m_tail->setText(
            tr("ν ≤ 2: infinite variance. No moment bound r_k of order k ≥ 2 holds, so the "
               "heavy-tail accuracy guarantees do not apply (privacy still does: clipping bounds "
               "every row's influence)."));
    } else if (k < 2.0) {
        m_tail->setText(
            tr("Admissible tail index k = ν − 0.5 = %1: below 2, the smallest k the heavy-tail "
               "methods assume; their accuracy guarantees do not apply.")
                .arg(k, 0, 'g', 3));
    } else {
        m_tail->setText(
            tr("Admissible tail index k = ν − 0.5 = %1 (moments of order below ν are finite).")
                .arg(k, 0, 'g', 3));
    }
}

QJsonObject HeavyTailedForm::toJson() const {
    const pfa::HeavyTailedOptions o = options();
    QJsonObject json;
    json["rows"] = o.rows;
    json["features"] = o.features;
    json["feature_tail"] =
        std::isinf(o.featureTail) ? QJsonValue(QStringLiteral("inf")) : QJsonValue(o.featureTail);
    json["noise_tail"] = o.noiseTail;
    json["noise_scale"] = o.noiseScale;
    json["outlier_share"] = o.outlierShare;
    json["outlier_scale"] = o.outlierScale;
    return json;
}

void HeavyTailedForm::fromJson(const QJsonObject& json) {
    pfa::HeavyTailedOptions o = options();
    o.rows = json["rows"].toInt(o.rows);
    o.features = json["features"].toInt(o.features);
    if (json["feature_tail"].isString())
        o.featureTail = INFINITY;
    else
        o.featureTail = json["feature_tail"].toDouble(o.featureTail);
    o.noiseTail = json["noise_tail"].toDouble(o.noiseTail);
    o.noiseScale = json["noise_scale"].toDouble(o.noiseScale);
    o.outlierShare = json["outlier_share"].toDouble(o.outlierShare);
    o.outlierScale = json["outlier_scale"].toDouble(o.outlierScale);
    setOptions(o);
}

}  // namespace pfa::ui
