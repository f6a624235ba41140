// The experiment form generated from the parameter declarations: one row per parameter an
// algorithm declares, every value through config() and sessions and back, sessions of earlier
// versions, invalid text reported (and Run disabled), and pictures of the panel at dock width.
#include "ui/panels/parameter_form.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/algorithms/registry.h"
#include "core/config/parameters.h"
#include "ui/panels/epsilon_control.h"
#include "ui_test_support.h"

namespace ui_parameter_form_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// The parameters with a control of their own above the generated rows.
bool hasOwnControl(const pfa::ParamSpec& spec) {
    return spec.name == "fairness" || spec.name == "epsilon" || spec.name == "lambda";
}

void selectAlgorithm(ExperimentPanel& panel, const std::string& name) {
    panel.algorithmBox()->setCurrentIndex(
        panel.algorithmBox()->findData(QString::fromStdString(name)));
    REQUIRE(panel.config().algorithm == name);
}

/// A valid value of `spec` other than `current` (canonical text), as one would type it.
std::string otherNumber(const pfa::ParamSpec& spec, const std::string& current) {
    const bool boundedAbove = std::isfinite(spec.max) && spec.max < 1e6;
    double value = 0.0;
    if (std::isfinite(spec.min) && boundedAbove)
        value = (spec.min + spec.max) / 2;
    else if (std::isfinite(spec.min))
        value = spec.min + 1.5;
    else
        value = 1.5;
    if (spec.kind == pfa::ParamKind::Integer) value = std::floor(value) + 2;
    std::string text = pfa::parseParameter(spec, value);
    if (text == current || spec.isAuto(text)) text = pfa::parseParameter(spec, value + 1);
    return text;
}

/// Puts a value other than the shown one into the widget of `spec`, as a user would.
void setOtherValue(QWidget* field, const pfa::ParamSpec& spec, const pfa::TrainConfig& shown) {
    const std::string current = spec.get(shown);
    if (auto* box = qobject_cast<QCheckBox*>(field)) {
        box->setChecked(!box->isChecked());
    } else if (auto* box = qobject_cast<QComboBox*>(field)) {
        box->setCurrentIndex((box->currentIndex() + 1) % box->count());
    } else if (auto* box = qobject_cast<QSpinBox*>(field)) {
        box->setValue(std::stoi(otherNumber(spec, current)));
    } else if (auto* edit = qobject_cast<QLineEdit*>(field)) {
        // Whole numbers beyond the int range (seeds) keep every digit.
        edit->setText(QString::fromStdString(spec.name == "seed" ? "12345678901234"
                                                                 : otherNumber(spec, current)));
    } else {
        FAIL("no known widget for " << spec.name);
    }
}

/// An algorithm declaring a parameter of its own (the registry has none yet).
class OwnParameterAlgorithm : public pfa::Algorithm {
public:
    static pfa::ParamSpec ownSpec() {
        using namespace std::string_literals;  // (assigning literals trips GCC 12's -Wrestrict)
        pfa::ParamSpec spec;
        spec.name = "tail-weight"s;
        spec.label = "Tail weight"s;
        spec.kind = pfa::ParamKind::Real;
        spec.help = "how much the tail counts"s;
        spec.min = 0;
        spec.max = 1;
        spec.autoMeaning = "half"s;
        spec.autoValue = "0"s;
        spec.defaultValue = "0"s;
        return pfa::ownParameter(spec);
    }
    std::string name() const override { return "own-test"; }
    std::string description() const override { return "test algorithm"; }
    pfa::AlgorithmCapabilities capabilities() const override { return {}; }
    std::vector<pfa::ParamSpec> parameters() const override {
        std::vector<pfa::ParamSpec> list = pfa::commonParameters({"epochs", "seed"});
        list.push_back(ownSpec());
        return list;
    }
    void validate(const pfa::TrainConfig&, const pfa::DataSplit&) const override {}
    pfa::RunResult run(const pfa::PreparedConfig&, const pfa::DataSplit&, pfa::TrainingObserver&,
                       const pfa::CancelToken&) const override {
        return {};
    }
};

}  // namespace

TEST_CASE(
    "Parameter form: every setting has a row, each algorithm shows exactly the ones it declares",
    "[ui][form]") {
    ExperimentPanel panel;
    // The GUI offers every setting the command line does (and the seed).
    for (const pfa::ParamSpec& spec : pfa::allParameters()) {
        if (hasOwnControl(spec)) continue;
        INFO(spec.name);
        QWidget* field = panel.parameterField(spec.name);
        REQUIRE(field);
        CHECK((panel.settingsForm()->field(spec.name) != nullptr) == (!spec.advanced));
        CHECK((panel.advancedSettingsForm()->field(spec.name) != nullptr) == spec.advanced);
        CHECK(field->toolTip().contains(QString::fromStdString(spec.help).toHtmlEscaped()));
        CHECK(field->toolTip().contains(QStringLiteral("Read by:")));
    }
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        selectAlgorithm(panel, algorithm->name());
        for (const pfa::ParamSpec& spec : pfa::allParameters()) {
            if (hasOwnControl(spec)) continue;
            INFO(algorithm->name() << ": " << spec.name);
            ParameterForm* form =
                spec.advanced ? panel.advancedSettingsForm() : panel.settingsForm();
            CHECK(form->isShown(spec.name) == pfa::readsParameter(*algorithm, spec.name));
        }
    }
    // dp-fermi reads the calibration; erm none of the settings under ε.
    selectAlgorithm(panel, "dp-fermi");
    CHECK(panel.settingsForm()->isShown("calibration"));
    selectAlgorithm(panel, "erm");
    CHECK_FALSE(panel.settingsForm()->hasShownRows());

    // Widgets by kind: typed reals, spin boxes, combo boxes with "auto" first, check boxes.
    CHECK(qobject_cast<QLineEdit*>(panel.parameterField("lr-theta")));
    CHECK(panel.deltaEdit()->placeholderText().startsWith(QStringLiteral("auto: 1/n²")));
    CHECK(panel.epochsBox());
    auto* batch = qobject_cast<QSpinBox*>(panel.parameterField("batch-size"));
    REQUIRE(batch);
    CHECK(batch->minimum() == 0);
    CHECK(batch->text().startsWith(QStringLiteral("auto")));
    REQUIRE(panel.averagingBox());
    CHECK(panel.averagingBox()->itemData(0).toString() == QStringLiteral("auto"));
    CHECK(panel.secureNoiseBox());
    CHECK(panel.diagnosticsBox());
    CHECK(qobject_cast<QLineEdit*>(panel.parameterField("seed")));
    // A unit the label does not name follows the number.
    auto* every = qobject_cast<QSpinBox*>(panel.parameterField("evaluate-every"));
    REQUIRE(every);
    CHECK(every->text() == QStringLiteral("1 epoch"));
    every->setValue(5);
    CHECK(every->text() == QStringLiteral("5 epochs"));
    QJsonObject json;
    panel.advancedSettingsForm()->writeJson(json);
    json["evaluate-every"] = 1;
    panel.advancedSettingsForm()->readJson(json);
    CHECK(every->text() == QStringLiteral("1 epoch"));
}

TEST_CASE("Parameter form: rows without effect in the context are disabled, saying why",
          "[ui][form]") {
    ExperimentPanel panel;
    selectAlgorithm(panel, "dp-fermi");
    panel.epsilonControl()->setValue(1.0);
    CHECK(panel.deltaEdit()->isEnabled());
    CHECK(panel.wStreamBox()->isEnabled());
    CHECK_FALSE(panel.parameterField("feature-bound")->isEnabled());  // published only
    CHECK(panel.parameterField("feature-bound")
              ->toolTip()
              .contains(QStringLiteral("the published calibration")));
    panel.epsilonControl()->setValue(std::numeric_limits<double>::infinity());
    CHECK_FALSE(panel.deltaEdit()->isEnabled());
    CHECK(panel.deltaEdit()->toolTip().contains(QStringLiteral("private runs")));
    // Text of a disabled row is not a problem of this run, and stays as typed.
    panel.deltaEdit()->setText(QStringLiteral("abc"));
    pfa::TrainConfig config;
    CHECK(panel.settingsForm()->applyTo(config).isEmpty());
    CHECK(config.delta == 0.0);
    CHECK(panel.deltaEdit()->text() == QStringLiteral("abc"));
    panel.epsilonControl()->setValue(1.0);
    CHECK(panel.settingsForm()->applyTo(config).contains(QStringLiteral("δ = abc is invalid")));
}

TEST_CASE("Parameter form: every value set in the form survives config, a session and back",
          "[ui][form][session]") {
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        INFO(algorithm->name());
        ExperimentPanel panel;
        selectAlgorithm(panel, algorithm->name());
        const pfa::TrainConfig defaults = panel.config();
        for (const pfa::ParamSpec& spec : algorithm->parameters()) {
            if (hasOwnControl(spec)) continue;
            INFO(spec.name);
            if (panel.settingsForm()->isForced(spec.name) ||
                panel.advancedSettingsForm()->isForced(spec.name)) {
                // Decided by another setting (replace-one adjacency under "Sensitive attribute
                // only"): shown, disabled, and the row keeps its own value.
                CHECK_FALSE(panel.parameterField(spec.name)->isEnabled());
                CHECK(spec.get(panel.config()) == spec.get(defaults));
                continue;
            }
            setOtherValue(panel.parameterField(spec.name), spec, panel.config());
            // Every declared parameter now differs from its default.
            CHECK(spec.get(panel.config()) != spec.get(defaults));
        }
        const pfa::TrainConfig changed = panel.config();
        CHECK(pfa::settingsKey(changed) != pfa::settingsKey(defaults));
        const QJsonObject session = panel.toJson();
        for (const pfa::ParamSpec& spec : algorithm->parameters()) {
            CHECK(session.contains(QString::fromStdString(spec.name)));
        }
        ExperimentPanel other;
        other.fromJson(session);
        CHECK(pfa::settingsKey(other.config()) == pfa::settingsKey(changed));
        CHECK(other.config().seed == changed.seed);
        CHECK(other.toJson() == session);
    }
}

TEST_CASE("Parameter form: sessions of earlier versions load (snake_case keys, δ as text)",
          "[ui][form][session]") {
    QJsonObject old;
    old["algorithm"] = QStringLiteral("dp-fermi");
    old["fairness"] = QStringLiteral("eo");
    old["epsilon"] = 2.0;
    old["delta"] = QString();
    old["lambda"] = 3.0;
    old["calibration"] = QStringLiteral("published");
    old["scope"] = QStringLiteral("sensitive-only");
    old["epochs"] = 17;
    old["batch_size"] = 64;
    old["lr_theta"] = 0.02;
    old["lr_w"] = 0.2;
    old["clip_theta"] = 2.5;
    old["loss_clip_share"] = 0.3;
    old["averaging"] = QStringLiteral("none");
    old["w_stream"] = QStringLiteral("gradient");
    old["seed"] = 42.0;
    old["secure_noise"] = true;
    old["record_diagnostics"] = false;
    old["split_method"] = QStringLiteral("seeded");
    old["split_seed"] = 0;
    old["test_fraction"] = 0.25;
    old["live_mode"] = false;

    ExperimentPanel panel;
    panel.fromJson(old);
    const pfa::TrainConfig c = panel.config();
    CHECK(c.algorithm == "dp-fermi");
    CHECK(c.fairness == pfa::FairnessNotion::EqualizedOdds);
    CHECK(c.epsilon == 2.0);
    CHECK(c.delta == 0.0);  // auto
    CHECK(panel.deltaEdit()->text().isEmpty());
    CHECK(c.lambda == 3.0);
    CHECK(c.calibration == pfa::Calibration::Published);
    CHECK(c.scope == pfa::ProtectionScope::SensitiveOnly);
    CHECK(c.epochs == 17);
    CHECK(c.batchSize == 64);
    CHECK(c.lrTheta == 0.02);
    CHECK(c.lrW == 0.2);
    CHECK(c.clipTheta == 2.5);
    CHECK(c.lossClipShare == 0.3);
    REQUIRE(c.averaging.has_value());
    CHECK(*c.averaging == pfa::IterateAveraging::None);
    CHECK(c.wStream == pfa::WStream::ClippedGradient);
    CHECK(c.seed == 42);
    CHECK(c.secureNoise);
    CHECK_FALSE(c.recordDiagnostics);
    CHECK_FALSE(panel.problem().contains(QStringLiteral("invalid")));

    // Written back in the one spelling; a δ typed as text in an old session is read as well.
    const QJsonObject now = panel.toJson();
    CHECK(now["batch-size"].toInt() == 64);
    CHECK_FALSE(now.contains(QStringLiteral("batch_size")));
    CHECK(now["delta"].toString() == QStringLiteral("auto"));
    CHECK(now["secure-noise"].toBool());
    old["delta"] = QStringLiteral("1e-6");
    panel.fromJson(old);
    CHECK(panel.config().delta == 1e-6);
    // A parameter the session does not name gets its default.
    old.remove(QStringLiteral("batch_size"));
    panel.fromJson(old);
    CHECK(panel.config().batchSize == 0);
}

TEST_CASE("Parameter form: an invalid value is explained, kept as typed, and disables Run",
          "[ui][form]") {
    auto window = readyWindow(5);
    ExperimentPanel* panel = window->experimentPanel();
    REQUIRE(panel->problem().isEmpty());
    panel->lossClipShareBox()->setText(QStringLiteral("abc"));
    CHECK(panel->problem().contains(
        QStringLiteral("Loss clip share = abc is invalid: it must be in [0, 1)")));
    CHECK_FALSE(window->runAction()->isEnabled());
    CHECK(panel->lossClipShareBox()->text() == QStringLiteral("abc"));
    CHECK(panel->toJson()["loss-clip-share"].toString() == QStringLiteral("abc"));
    panel->lossClipShareBox()->setText(QStringLiteral("1"));
    CHECK(panel->problem().contains(QStringLiteral("Loss clip share = 1 is invalid")));
    panel->lossClipShareBox()->setText(QStringLiteral("0.25"));
    CHECK(panel->problem().isEmpty());
    CHECK(window->runAction()->isEnabled());

    auto* lr = qobject_cast<QLineEdit*>(panel->parameterField("lr-theta"));
    REQUIRE(lr);
    lr->clear();
    CHECK(panel->problem().contains(QStringLiteral("is empty")));
    CHECK_FALSE(window->runAction()->isEnabled());
    lr->setText(QStringLiteral("0.05"));
    CHECK(panel->problem().isEmpty());
    CHECK(panel->config().lrTheta == 0.05);

    // A row the algorithm does not read reports nothing.
    panel->lossClipShareBox()->setText(QStringLiteral("abc"));
    CHECK_FALSE(panel->problem().isEmpty());
    selectAlgorithm(*panel, "dp-sgd");
    CHECK(panel->problem().isEmpty());
    CHECK(window->runAction()->isEnabled());
}

TEST_CASE("Parameter form: an algorithm's own parameters get rows and are stored by name",
          "[ui][form]") {
    const OwnParameterAlgorithm algorithm;
    std::vector<pfa::ParamSpec> specs = pfa::commonParameters({"epochs", "delta"});
    specs.push_back(OwnParameterAlgorithm::ownSpec());
    ParameterForm form(specs);
    form.setAlgorithm(algorithm);
    CHECK(form.isShown("epochs"));
    CHECK_FALSE(form.isShown("delta"));
    CHECK(form.isShown("tail-weight"));
    auto* edit = qobject_cast<QLineEdit*>(form.field("tail-weight"));
    REQUIRE(edit);
    CHECK(edit->placeholderText() == QStringLiteral("auto: half"));

    pfa::TrainConfig config;
    CHECK(form.applyTo(config).isEmpty());
    CHECK(config.extra.at("tail-weight") == "0");  // auto
    edit->setText(QStringLiteral("0.75"));
    CHECK(form.applyTo(config).isEmpty());
    CHECK(config.extra.at("tail-weight") == "0.75");
    CHECK(pfa::withOwnParameters(algorithm, config).extra.at("tail-weight") == "0.75");
    edit->setText(QStringLiteral("2"));
    CHECK(form.applyTo(config) ==
          QStringLiteral(
              "Tail weight = 2 is invalid: it must be in [0, 1], or empty for auto (half)."));

    edit->setText(QStringLiteral("0.5"));
    QJsonObject json;
    form.writeJson(json);
    CHECK(json["tail-weight"].toDouble() == 0.5);
    ParameterForm other({OwnParameterAlgorithm::ownSpec()});
    other.readJson(json);
    pfa::TrainConfig read;
    CHECK(other.applyTo(read).isEmpty());
    CHECK(read.extra.at("tail-weight") == "0.5");
    other.showConfig(pfa::TrainConfig{});
    CHECK(qobject_cast<QLineEdit*>(other.field("tail-weight"))->text().isEmpty());
}

TEST_CASE("Parameter form: evaluate-every counts in the algorithm's own unit", "[ui][form]") {
    ParameterForm form(pfa::commonParameters({"evaluate-every"}));
    auto* box = qobject_cast<QSpinBox*>(form.field("evaluate-every"));
    REQUIRE(box);
    CHECK(box->suffix() == QStringLiteral(" epoch"));
    form.setAlgorithm(pfa::findAlgorithm("isrl-dp-sgd"));
    CHECK(form.isShown("evaluate-every"));
    CHECK(box->suffix() == QStringLiteral(" round"));
    box->setValue(5);
    CHECK(box->suffix() == QStringLiteral(" rounds"));
    form.setAlgorithm(pfa::findAlgorithm("noisy-clipped-gd"));
    CHECK(box->suffix() == QStringLiteral(" steps"));
    form.setAlgorithm(pfa::findAlgorithm("dp-fermi"));
    CHECK(box->suffix() == QStringLiteral(" epochs"));
    box->setValue(1);
    CHECK(box->suffix() == QStringLiteral(" epoch"));
}

TEST_CASE("Parameter form: the panel at dock width, Advanced open (screenshots)",
          "[ui][form][screenshot][slow]") {
    for (const auto& algorithm : pfa::algorithmRegistry()) {
        const std::string name = algorithm->name();
        ExperimentPanel panel;
        selectAlgorithm(panel, name);
        panel.advancedToggle()->click();
        const int width = 380;
        INFO(name << ": minimum width " << panel.minimumSizeHint().width());
        CHECK(panel.minimumSizeHint().width() <= width);
        panel.resize(width, panel.hasHeightForWidth() ? panel.heightForWidth(width)
                                                      : panel.sizeHint().height());
        panel.show();
        QTest::qWait(50);
        // No label is cut: every shown label has at least the width its text needs.
        for (QLabel* label : panel.findChildren<QLabel*>()) {
            if (!label->isVisible() || !label->buddy() || label->text().isEmpty())
                continue;  // form labels
            INFO(label->text().toStdString());
            if (label->wordWrap())
                CHECK(label->height() >= label->heightForWidth(label->width()));
            else
                CHECK(label->width() >= label->sizeHint().width());
        }
        // The generated fields start where their neighbours' do: under ε like the algorithm's
        // box, in the advanced section like the split's.
        auto x = [&](QWidget* widget) { return widget->mapTo(&panel, QPoint()).x(); };
        for (const pfa::ParamSpec& spec : pfa::allParameters()) {
            QWidget* field = panel.parameterField(spec.name);
            if (!field || !field->isVisible() || spec.kind == pfa::ParamKind::Flag) continue;
            INFO(spec.name);
            CHECK(x(field) == x(spec.advanced ? static_cast<QWidget*>(panel.splitMethodBox())
                                              : panel.algorithmBox()));
        }
        // Tab goes down the rows: from the data set to the settings under ε, then Advanced.
        std::vector<QWidget*> chain;
        for (QWidget* widget = panel.datasetBox(); chain.size() < 200;
             widget = widget->nextInFocusChain()) {
            chain.push_back(widget);
            if (widget == panel.advancedToggle()) break;
        }
        auto at = [&](QWidget* widget) {
            return std::find(chain.begin(), chain.end(), widget) - chain.begin();
        };
        CHECK(at(panel.algorithmBox()) < at(panel.advancedToggle()));
        CHECK(at(panel.advancedToggle()) < static_cast<long>(chain.size()));
        if (name == "dp-fermi") {
            CHECK(at(panel.algorithmBox()) < at(panel.deltaEdit()));
            CHECK(at(panel.deltaEdit()) < at(panel.parameterField("calibration")));
            CHECK(at(panel.parameterField("scope")) < at(panel.advancedToggle()));
        }
        if (QWidget* focused = QApplication::focusWidget())
            focused->clearFocus();  // no focus frame
        const QString path = QStringLiteral(PFA_SCREENSHOT_DIR "/experiment-panel-%1.png")
                                 .arg(QString::fromStdString(name));
        CHECK(panel.grab().save(path));
    }
}

}  // namespace ui_parameter_form_test
