// What the user types and what the window shows of data: ε and δ refused or warned about
// visibly (never changed silently), opening a session over unsaved runs, and data-derived text
// (class labels such as "<=50K", file and column names) never taken as markup.
#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTimer>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <memory>

#include "core/config/config_validation.h"
#include "ui/actions/session_actions.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/controllers/session_controller.h"
#include "ui/dialogs/sweep_dialog.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/run_details_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui_test_support.h"

namespace ui_input_values_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

/// Selects the spin box's text, types `text` and presses Enter, as a user would.
void typeInto(QDoubleSpinBox* spin, const QString& text) {
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

/// The red (or amber) line of the experiment panel: the label showing problem() or a note.
QLabel* problemLabel(ExperimentPanel* panel, const QString& containing) {
    for (QLabel* label : panel->findChildren<QLabel*>()) {
        if (label->isVisibleTo(panel) && label->text().contains(containing)) return label;
    }
    return nullptr;
}

/// Answers the next message box with `button` and keeps its text in `*text`, while the
/// returned object lives (so that it never answers a box of a later test).
std::unique_ptr<QTimer> answerNextMessageBox(QMessageBox::StandardButton button, QString* text) {
    auto poll = std::make_unique<QTimer>();
    poll->setInterval(20);
    QTimer* timer = poll.get();
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        *text = box->text();
        timer->stop();
        box->button(button)->click();
    });
    poll->start();
    return poll;
}

}  // namespace

TEST_CASE("Typed ε outside the offered range is refused in words, never silently changed",
          "[ui][values][epsilon]") {
    auto window = readyWindow(5);
    ExperimentPanel* panel = window->experimentPanel();
    EpsilonControl* epsilon = panel->epsilonControl();
    QDoubleSpinBox* spin = epsilon->spinBox();
    epsilon->setValue(2.0);
    REQUIRE(panel->problem().isEmpty());
    CHECK(spin->text() == QStringLiteral("2"));  // significant digits, not "2.000"

    struct Typed {
        const char* text;
        double value;
        const char* reason;
    };
    for (const Typed& typed : {Typed{"0.001", 0.001, "the smallest budget offered is 0.05"},
                               Typed{"1000", 1000.0, "the largest budget offered is 100"},
                               Typed{"-5", -5.0, "a privacy budget must be positive"}}) {
        INFO(typed.text);
        typeInto(spin, QString::fromLatin1(typed.text));
        // The value stays as typed (not the previous 2, not clamped, not made positive) …
        CHECK(spin->value() == typed.value);
        CHECK(spin->text() == QString::fromLatin1(typed.text));
        CHECK(panel->config().epsilon == typed.value);
        // … and is refused in words next to Run, which is off.
        const QString expected =
            QStringLiteral("ε = %1 is refused: %2")
                .arg(QString::fromLatin1(typed.text), QString::fromLatin1(typed.reason));
        CHECK(panel->problem().startsWith(expected));
        CHECK(panel->problem().contains(QStringLiteral("from 0.05 to 100")));
        CHECK(problemLabel(panel, expected) != nullptr);
        CHECK_FALSE(window->runAction()->isEnabled());
        // The slider rests at the nearer end.
        CHECK(epsilon->slider()->value() ==
              (typed.value > 1 ? epsilon->slider()->maximum() : epsilon->slider()->minimum()));
    }
    // From a refused value the arrows step into the range, never beyond it.
    spin->stepBy(1);
    CHECK(spin->value() == pfa::kSmallestOfferedEpsilon);
    CHECK(panel->problem().isEmpty());
    typeInto(spin, QStringLiteral("1000"));
    spin->stepBy(-1);
    CHECK(spin->value() == pfa::kLargestOfferedEpsilon);
    spin->stepBy(1);
    CHECK(spin->value() == pfa::kLargestOfferedEpsilon);
    // A value in range is taken, and Run comes back.
    typeInto(spin, QStringLiteral("0.5"));
    CHECK(spin->value() == 0.5);
    CHECK(panel->problem().isEmpty());
    CHECK(window->runAction()->isEnabled());
    // A session (or saved settings) with a value outside the range shows it refused too.
    epsilon->setValue(0.001);
    CHECK(spin->value() == 0.001);
    CHECK(panel->problem().startsWith(QStringLiteral("ε = 0.001 is refused")));
    // ∞ is offered.
    epsilon->infinityBox()->setChecked(true);
    CHECK(panel->problem().isEmpty());

    epsilon->infinityBox()->setChecked(false);
    typeInto(spin, QStringLiteral("0.001"));
    QTest::qWait(50);
    REQUIRE(panel->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/epsilon-refused.png")));
}

TEST_CASE("The sweep dialog refuses the same ε values and δ ≥ 0.1, and warns from 1/n",
          "[ui][values][epsilon][delta][sweep]") {
    pfa::TrainConfig base;
    base.algorithm = "dp-fermi";
    SweepDialog dialog(base, QStringLiteral("Synthetic"), 3000, 8, 0.01, nullptr);
    REQUIRE(dialog.problem().isEmpty());
    for (const auto& [typed, reason] :
         {std::pair{"0.001", "ε = 0.001 is refused"}, std::pair{"1, 1000", "ε = 1000 is refused"},
          std::pair{"-5", "ε = -5 is refused"},
          std::pair{"log:0.001:1:4", "ε = 0.001 is refused"}}) {
        INFO(typed);
        dialog.epsilonEdit()->setText(QString::fromLatin1(typed));
        CHECK(dialog.problem().startsWith(QString::fromUtf8(reason)));
        CHECK(dialog.problem().contains(QStringLiteral("from 0.05 to 100")));
        CHECK_FALSE(dialog.startButton()->isEnabled());
        CHECK(dialog.summaryLabel()->text().contains(QString::fromUtf8(reason)));
    }
    dialog.epsilonEdit()->setText(QStringLiteral("0.05, 1, 100, inf"));
    CHECK(dialog.problem().isEmpty());
    CHECK(dialog.startButton()->isEnabled());
    CHECK_FALSE(dialog.summaryLabel()->text().contains(QStringLiteral("Warning")));

    // δ comes from the experiment panel: refused from 0.1, warned about from 1/n.
    base.delta = 0.5;
    SweepDialog refused(base, QStringLiteral("Synthetic"), 3000, 8, 0.01, nullptr);
    CHECK(refused.problem().startsWith(QStringLiteral("δ = 0.5 is invalid")));
    CHECK(refused.problem().contains(QStringLiteral("promises nothing")));
    CHECK_FALSE(refused.startButton()->isEnabled());
    // Only non-private runs: δ does not apply.
    refused.epsilonEdit()->setText(QStringLiteral("inf"));
    CHECK(refused.problem().isEmpty());
    base.delta = 0.01;
    SweepDialog warned(base, QStringLiteral("Synthetic"), 3000, 8, 0.01, nullptr);
    CHECK(warned.problem().isEmpty());
    CHECK(warned.startButton()->isEnabled());
    CHECK(warned.summaryLabel()->text().contains(
        QStringLiteral("Warning: δ = 0.01 is not below 1/n")));
}

TEST_CASE("δ from 1/n is warned about, δ ≥ 0.1 refused, and no statement ever certifies it",
          "[ui][values][delta]") {
    auto window = readyWindow(2);
    ExperimentPanel* panel = window->experimentPanel();
    panel->algorithmBox()->setCurrentIndex(
        panel->algorithmBox()->findData(QStringLiteral("dp-fermi")));
    panel->epsilonControl()->setValue(5.0);
    REQUIRE(panel->problem().isEmpty());
    REQUIRE(panel->deltaEdit());

    // Refused, with the reason, and Run is off.
    for (const char* delta : {"0.5", "0.1"}) {
        INFO(delta);
        panel->deltaEdit()->setText(QString::fromLatin1(delta));
        CHECK(panel->problem().startsWith(
            QStringLiteral("δ = %1 is invalid").arg(QString::fromLatin1(delta))));
        CHECK(panel->problem().contains(QStringLiteral("promises nothing")));
        CHECK(panel->problem().contains(QStringLiteral("leave it empty for auto")));
        CHECK_FALSE(window->runAction()->isEnabled());
    }
    // Allowed with a warning (the synthetic data has thousands of training rows).
    panel->deltaEdit()->setText(QStringLiteral("0.01"));
    CHECK(panel->problem().isEmpty());
    CHECK(window->runAction()->isEnabled());
    QLabel* warning = problemLabel(panel, QStringLiteral("Warning: δ = 0.01 is not below 1/n"));
    REQUIRE(warning);
    CHECK(warning->text().contains(QStringLiteral("training rows")));
    QTest::qWait(100);  // the scroll area lays the longer panel out
    REQUIRE(panel->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/delta-warning.png")));
    // Auto: neither.
    panel->deltaEdit()->setText(QString());
    CHECK(problemLabel(panel, QStringLiteral("Warning: δ")) == nullptr);

    // Even a run started around the panel is refused by the engine: no statement of δ = 0.5.
    const pfa::PreparedDatasetPtr data =
        window->datasetController()->datasetFor(panel->datasetRequest());
    REQUIRE(data);
    pfa::TrainConfig config = panel->config();
    config.delta = 0.5;
    QSignalSpy failed(window->controller(), &TrainingController::runFailed);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    QString shownError;
    const auto answer = answerNextMessageBox(QMessageBox::Ok, &shownError);  // "Run N failed"
    window->controller()->startRun(config, data);
    REQUIRE(waitForSignals(failed, 1));
    CHECK(failed.at(0).at(1).toString().contains(QStringLiteral("delta = 0.5 is invalid")));
    QTextDocument shown;
    shown.setHtml(shownError);
    CHECK(shown.toPlainText().contains(QStringLiteral("delta = 0.5 is invalid")));
    CHECK(finished.count() == 0);
    CHECK(window->historyModel()->rowCount() == 0);
}

TEST_CASE("Opening a session over unsaved runs asks first, the old run's statement goes",
          "[ui][values][session][slow]") {
    auto window = readyWindow(5);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 1));
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("one-run.pfa"));
    QString error;
    REQUIRE(window->session()->saveTo(saved, &error));
    window->experimentPanel()->lambdaControl()->setValue(2.0);
    clickToolbar(*window, window->runAction());
    REQUIRE(waitForSignals(finished, 2));
    REQUIRE(window->session()->hasUnsavedWork());
    REQUIRE_FALSE(window->privacyStatement()->text().isEmpty());  // the second run's

    // Cancel keeps everything.
    QString question;
    auto answer = answerNextMessageBox(QMessageBox::Cancel, &question);
    CHECK_FALSE(window->sessionActions()->openSessionFile(saved));
    CHECK(question.contains(QStringLiteral("opening another session")));
    CHECK(window->historyModel()->rowCount() == 2);
    CHECK(window->session()->hasUnsavedWork());

    // Discard opens the file; nothing of the replaced runs stays on show.
    question.clear();
    answer = answerNextMessageBox(QMessageBox::Discard, &question);
    CHECK(window->sessionActions()->openSessionFile(saved));
    CHECK_FALSE(question.isEmpty());
    answer.reset();
    CHECK(window->historyModel()->rowCount() == 1);
    CHECK(window->privacyStatement()->text().isEmpty());
    CHECK(window->runDetails()->groupTable()->rowCount() == 0);

    // Nothing unsaved: no question.
    REQUIRE_FALSE(window->session()->hasUnsavedWork());
    CHECK(window->sessionActions()->openSessionFile(saved));
    CHECK(window->historyModel()->rowCount() == 1);

    // A run still going when another session opens ends up neither in its history nor on
    // show (it is charged to the ledger, as every run that touched the data).
    window->experimentPanel()->epochsBox()->setValue(20000);
    clickToolbar(*window, window->runAction());
    REQUIRE(QTest::qWaitFor([&] { return window->controller()->activeRunId() != 0; }, 60000));
    QTest::qWait(200);
    REQUIRE_FALSE(window->session()->hasUnsavedWork());  // a run is charged when it ends
    CHECK(window->sessionActions()->openSessionFile(saved));
    const int finishedBefore = finished.count();
    QTest::qWait(1500);
    CHECK(finished.count() == finishedBefore);
    CHECK(window->historyModel()->rowCount() == 1);
    CHECK(window->privacyStatement()->text().isEmpty());
    CHECK(window->controller()->state() == TrainingController::State::Idle);
}

TEST_CASE("Class labels, file and column names are shown as text, never as markup",
          "[ui][values][escape]") {
    QTemporaryDir dir;
    // A data set whose labels look like tags: Adult's "<=50K" / ">50K".
    const QString path = dir.filePath(QStringLiteral("adult <b>small & co.csv"));
    {
        std::ofstream out(path.toStdString());
        out << "age,hours,sex,income\n";
        for (int i = 0; i < 400; ++i) {
            out << 20 + i % 50 << "," << 20 + (i * 7) % 40 << "," << (i % 3 ? "Male" : "Female")
                << "," << (i % 4 == 0 ? ">50K" : "<=50K") << "\n";
        }
    }
    pfa::Schema schema;
    schema.target = "income";
    schema.sensitive = {"sex"};
    auto window = readyWindow(2);
    window->experimentPanel()->addUserFile(path, schema);
    DatasetCard* card = window->datasetCard();
    const bool loaded =
        QTest::qWaitFor([&] { return card->title().contains(QStringLiteral("small")); }, 60000);
    INFO(window->experimentPanel()->problem().toStdString() << " / " << card->text().toStdString());
    REQUIRE(loaded);
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));

    // What each label shows, as the user reads it.
    QStringList shown;
    for (QLabel* label : card->findChildren<QLabel*>()) {
        if (label->textFormat() == Qt::PlainText) {
            shown << label->text();
        } else {
            CHECK(label->textFormat() == Qt::RichText);  // never left to guessing
            QTextDocument document;
            document.setHtml(label->text());
            shown << document.toPlainText();
        }
    }
    const QString all = shown.join(QLatin1Char('\n'));
    INFO(all.toStdString());
    CHECK(all.contains(QStringLiteral("Classes: <=50K 300 (75.0 %), >50K 100 (25.0 %)")));
    CHECK(all.contains(QStringLiteral("adult <b>small & co.csv")));  // the title, literally
    CHECK(all.contains(QStringLiteral("target column “income”")));
    // The experiment panel's line about the data quotes groups as text too.
    bool panelLinePlain = false;
    for (QLabel* label : window->experimentPanel()->findChildren<QLabel*>()) {
        if (label->text().contains(QStringLiteral("training rows"))) {
            panelLinePlain = label->textFormat() == Qt::PlainText;
        }
    }
    CHECK(panelLinePlain);

    card->resize(420, 420);
    REQUIRE(card->grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/dataset-card-escaped.png")));
}

}  // namespace ui_input_values_test
