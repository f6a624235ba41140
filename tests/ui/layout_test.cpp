// The main window on a 1280×720 projector or laptop: it fits, the experiment panel is never
// clipped (also with a catalog data set chosen), no chart axis title or tick label is elided;
// and Space pauses a run except while a text or number field has the keyboard focus.
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <catch2/catch.hpp>
#include <filesystem>

#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/sweep/sweep_spec.h"
#include "ui/charts/chart_view.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/live_charts_panel.h"
#include "ui/panels/sweep_views_panel.h"
#include "ui/runs/run_history_model.h"
#include "ui/runs/run_history_view.h"
#include "ui_test_support.h"

namespace ui_layout_test {

using namespace pfa::ui;
using namespace pfa::ui::test;

namespace {

constexpr QSize kProjector(1280, 720);

/// A fresh window on clean settings, shown at `size` and laid out.
std::unique_ptr<MainWindow> windowAt(QSize size) {
    QSettings().clear();
    auto window = std::make_unique<MainWindow>();
    window->setConfirmOnClose(false);
    window->resize(size);
    window->show();
    REQUIRE(QTest::qWaitForWindowExposed(window.get(), 60000));
    QTest::qWait(50);  // the docks' layouts settle
    return window;
}

/// Lets pending layouts run, then the chart views' resize handling.
void settle() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QTest::qWait(20);
    }
}

QScrollArea* panelScrollArea(ExperimentPanel* panel) {
    // panel → viewport → scroll area
    QWidget* viewport = panel->parentWidget();
    return viewport ? qobject_cast<QScrollArea*>(viewport->parentWidget()) : nullptr;
}

QString describe(const QWidget* widget) {
    QString text;
    if (auto* button = qobject_cast<const QAbstractButton*>(widget)) text = button->text();
    if (auto* label = qobject_cast<const QLabel*>(widget)) text = label->text().left(40);
    if (auto* box = qobject_cast<const QComboBox*>(widget)) text = box->currentText();
    return QStringLiteral("%1 \"%2\"")
        .arg(QString::fromLatin1(widget->metaObject()->className()), text);
}

/// Every visible control of the panel lies within the scroll area's width (it has no horizontal
/// scroll bar) and can be scrolled to; buttons and one-line labels are not squeezed below what
/// their text needs.
void checkPanelNotClipped(ExperimentPanel* panel) {
    QScrollArea* scroll = panelScrollArea(panel);
    REQUIRE(scroll);
    const QWidget* viewport = scroll->viewport();
    INFO("viewport " << viewport->width() << "×" << viewport->height() << ", panel "
                     << panel->width() << "×" << panel->height() << " (minimum "
                     << panel->minimumSizeHint().width() << "×" << panel->minimumSizeHint().height()
                     << ")");
    CHECK(panel->width() <= viewport->width());
    for (QWidget* widget : panel->findChildren<QWidget*>()) {
        if (!widget->isVisibleTo(panel) || widget->isWindow()) continue;
        const QRect inViewport(widget->mapTo(viewport, QPoint(0, 0)), widget->size());
        const QRect inPanel(widget->mapTo(panel, QPoint(0, 0)), widget->size());
        INFO(describe(widget).toStdString()
             << " at x " << inViewport.x() << ".." << inViewport.right() << ", y " << inPanel.y()
             << ".." << inPanel.bottom());
        CHECK(inViewport.left() >= 0);
        CHECK(inViewport.right() < viewport->width());
        CHECK(inPanel.top() >= 0);
        CHECK(inPanel.bottom() < panel->height());  // reachable with the vertical scroll bar
        if (qobject_cast<QAbstractButton*>(widget) &&
            !qobject_cast<QAbstractSpinBox*>(widget->parentWidget())) {
            CHECK(widget->width() >= widget->sizeHint().width());  // the whole text shows
        }
        if (auto* label = qobject_cast<QLabel*>(widget);
            label && !label->wordWrap() && !label->text().isEmpty()) {
            CHECK(widget->width() >= widget->minimumSizeHint().width());
        }
        // No row squeezed: fields and labels keep the height their text needs (the line edit
        // inside a spin box or combo box is its parent's business).
        const bool inner = qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) ||
                           qobject_cast<QComboBox*>(widget->parentWidget());
        if (inner) continue;
        if (qobject_cast<QLineEdit*>(widget) || qobject_cast<QAbstractSpinBox*>(widget) ||
            qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractButton*>(widget) ||
            qobject_cast<QLabel*>(widget)) {
            CHECK(widget->height() >= widget->minimumSizeHint().height());
        }
    }
}

/// ε, λ and Live mode are on screen without scrolling, and so is the toolbar's Run button.
void checkKeyControlsShown(MainWindow& window) {
    ExperimentPanel* panel = window.experimentPanel();
    QScrollArea* scroll = panelScrollArea(panel);
    REQUIRE(scroll);
    scroll->verticalScrollBar()->setValue(0);
    settle();
    const QRect viewportRect = scroll->viewport()->rect();
    for (QWidget* widget : {static_cast<QWidget*>(panel->epsilonControl()),
                            static_cast<QWidget*>(panel->lambdaControl()),
                            static_cast<QWidget*>(panel->liveModeBox())}) {
        INFO(describe(widget).toStdString());
        REQUIRE(widget->isVisible());
        const QRect inViewport(widget->mapTo(scroll->viewport(), QPoint(0, 0)), widget->size());
        CHECK(viewportRect.contains(inViewport));
    }
    QWidget* run = nullptr;
    for (QToolBar* bar : window.findChildren<QToolBar*>()) {
        if (QWidget* button = bar->widgetForAction(window.runAction())) run = button;
    }
    REQUIRE(run);
    CHECK(run->isVisible());
    const QRect runInWindow(run->mapTo(&window, QPoint(0, 0)), run->size());
    CHECK(window.rect().contains(runInWindow));
}

/// Every visible chart shows its axis titles and tick labels in full: the text items the chart
/// draws carry no "…" of elision, and every axis title is drawn as given.
void checkChartsUnelided(MainWindow& window) {
    int charts = 0;
    for (ChartView* view : window.findChildren<ChartView*>()) {
        if (!view->isVisible() || !view->chart()) continue;
        ++charts;
        const QString chartTitle = view->chart()->title();
        INFO("chart \"" << chartTitle.toStdString() << "\" " << view->width() << "×"
                        << view->height());
        QStringList drawn;
        for (QGraphicsItem* item : view->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (!text || !text->isVisible() || text->toPlainText().isEmpty()) continue;
            drawn << text->toPlainText();
            INFO("drawn text \"" << text->toPlainText().toStdString() << "\"");
            // Qt Charts elides with three dots.
            CHECK_FALSE(text->toPlainText().contains(QStringLiteral("...")));
            CHECK_FALSE(text->toPlainText().contains(QChar(0x2026)));
        }
        for (QAbstractAxis* axis : view->chart()->axes()) {
            if (!axis->isVisible() || !axis->isTitleVisible() || axis->titleText().isEmpty())
                continue;
            INFO("axis title \"" << axis->titleText().toStdString() << "\"");
            CHECK(drawn.contains(axis->titleText()));
        }
    }
    CHECK(charts >= 5);  // the four live charts and the tradeoff chart
}

void chooseDataset(MainWindow& window, const QString& name) {
    QComboBox* box = window.experimentPanel()->datasetBox();
    const int index = box->findData(name);
    REQUIRE(index >= 0);
    box->setCurrentIndex(index);
    settle();
}

void saveShot(QWidget& widget, const QString& name) {
    CHECK(widget.grab().save(QStringLiteral(PFA_SCREENSHOT_DIR "/") + name));
}

}  // namespace

TEST_CASE("The main window fits 1280×720", "[ui][layout]") {
    auto window = windowAt(kProjector);
    settle();
    INFO("minimum " << window->minimumSize().width() << "×" << window->minimumSize().height()
                    << ", hint " << window->minimumSizeHint().width() << "×"
                    << window->minimumSizeHint().height());
    CHECK(window->minimumSizeHint().width() <= kProjector.width());
    CHECK(window->minimumSizeHint().height() <= kProjector.height());
    CHECK(window->minimumSize().width() <= kProjector.width());
    CHECK(window->minimumSize().height() <= kProjector.height());
    CHECK(window->size() == kProjector);
}

TEST_CASE("The main window still fits 1280×720 with runs on the charts", "[ui][layout]") {
    // Runs bring the charts' legend keys, the run names above them and live points: the
    // charts' minimum heights (whole vertical axis titles) grew past 720 with them once.
    auto window = windowAt(kProjector);
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
    window->experimentPanel()->epochsBox()->setValue(20);
    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    for (double lambda : {0.0, 4.0}) {
        window->experimentPanel()->lambdaControl()->spinBox()->setValue(lambda);
        clickToolbar(*window, window->runAction());
        REQUIRE(waitForSignals(finished, finished.count() + 1, 60000));
    }
    const auto& entries = window->historyModel()->entries();
    window->historyView()->selectRuns({entries[0]->id, entries[1]->id});  // two compared
    window->resize(kProjector);
    settle();
    INFO("minimum " << window->minimumSize().width() << "×" << window->minimumSize().height());
    CHECK(window->minimumSize().width() <= kProjector.width());
    CHECK(window->minimumSize().height() <= kProjector.height());
    CHECK(window->size() == kProjector);
}

TEST_CASE("At 1280×720 the experiment panel is not clipped and the charts' titles are whole",
          "[ui][layout]") {
    auto window = windowAt(kProjector);
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
    settle();
    REQUIRE(window->size() == kProjector);
    ExperimentPanel* panel = window->experimentPanel();

    SECTION("synthetic data") {
        checkPanelNotClipped(panel);
        checkKeyControlsShown(*window);
        checkChartsUnelided(*window);
        saveShot(*window, QStringLiteral("layout-1280x720-synthetic.png"));
    }
    SECTION("advanced settings open") {
        panel->advancedToggle()->click();
        settle();
        checkPanelNotClipped(panel);
        checkKeyControlsShown(*window);
    }
    SECTION("Adult, not downloaded yet") {
        // The test program's own data folder: an import by an earlier test of it is undone.
        std::filesystem::remove_all(pfa::catalogDatasetDirectory("adult"));
        chooseDataset(*window, QStringLiteral("adult"));
        REQUIRE_FALSE(panel->catalogFilesPresent());
        // Download buttons and the red "not downloaded" message take their room.
        REQUIRE_FALSE(panel->problem().isEmpty());
        checkPanelNotClipped(panel);
        checkKeyControlsShown(*window);
        checkChartsUnelided(*window);
        saveShot(*window, QStringLiteral("layout-1280x720-adult-missing.png"));
    }
}

TEST_CASE(
    "At 1280×720 and 1920×1080 every algorithm's settings fit: no row squeezed, the window's "
    "minimum within the screen",
    "[ui][layout]") {
    // Qt 6.4's form layout squeezed rows to nothing once rows had been hidden (the heavy-tail
    // settings at 1280×720), and long texts pushed the window's minimum past the screen.
    for (const QSize screen : {kProjector, QSize(1920, 1080)}) {
        auto window = windowAt(screen);
        REQUIRE(
            QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
        ExperimentPanel* panel = window->experimentPanel();
        QComboBox* algorithms = panel->algorithmBox();
        REQUIRE(algorithms->count() >= 19);
        for (bool advanced : {false, true}) {
            if (panel->advancedToggle()->isChecked() != advanced) panel->advancedToggle()->click();
            for (int i = 0; i < algorithms->count(); ++i) {
                algorithms->setCurrentIndex(i);
                settle();
                INFO(screen.width() << "×" << screen.height() << ", algorithm "
                                    << algorithms->itemData(i).toString().toStdString()
                                    << (advanced ? ", advanced settings open" : ""));
                INFO("minimum " << window->minimumSize().width() << "×"
                                << window->minimumSize().height());
                CHECK(window->minimumSize().width() <= kProjector.width());
                CHECK(window->minimumSize().height() <= kProjector.height());
                window->resize(screen);
                settle();
                CHECK(window->size() == screen);
                checkPanelNotClipped(panel);
            }
        }
        algorithms->setCurrentIndex(algorithms->findData(QStringLiteral("noisy-clipped-gd")));
        settle();
        saveShot(*window, QStringLiteral("layout-%1x%2-heavy-tail-advanced.png")
                              .arg(screen.width())
                              .arg(screen.height()));
    }
}

TEST_CASE("At 1280×720 and 1920×1080 the panel and the charts fit Adult once it is imported",
          "[ui][layout][needs-data]") {
    const QString folder = sharedDatasetFolder(QStringLiteral("adult"));
    if (folder.isEmpty()) PFA_SKIP_TEST(missingDatasetReason(QStringLiteral("adult")));
    auto window = windowAt(kProjector);
    REQUIRE(QTest::qWaitFor([&] { return window->experimentPanel()->problem().isEmpty(); }, 60000));
    settle();
    REQUIRE(window->size() == kProjector);
    ExperimentPanel* panel = window->experimentPanel();
    chooseDataset(*window, QStringLiteral("adult"));
    if (!panel->catalogFilesPresent()) {
        QSignalSpy imported(window->datasetController(), &DatasetController::importFinished);
        window->datasetController()->importFromFolder(QStringLiteral("adult"), folder);
        REQUIRE(waitForSignals(imported, 1, 60000));
    }
    REQUIRE(QTest::qWaitFor([&] { return panel->problem().isEmpty(); }, 60000));
    settle();
    checkPanelNotClipped(panel);
    checkKeyControlsShown(*window);
    checkChartsUnelided(*window);
    saveShot(*window, QStringLiteral("layout-1280x720-adult.png"));
    // And on a full-HD screen.
    window->resize(1920, 1080);
    settle();
    checkPanelNotClipped(panel);
    checkChartsUnelided(*window);
    saveShot(*window, QStringLiteral("layout-1920x1080-adult.png"));
}

TEST_CASE("Charts stay whole from 1280×720 to 1920×1080 and back", "[ui][layout]") {
    auto window = windowAt(kProjector);
    settle();
    checkChartsUnelided(*window);
    window->resize(1920, 1080);
    settle();
    REQUIRE(window->size() == QSize(1920, 1080));
    checkChartsUnelided(*window);
    checkPanelNotClipped(window->experimentPanel());
    saveShot(*window, QStringLiteral("layout-1920x1080-synthetic.png"));
    // Back: the chart views did not keep the larger size as their minimum.
    window->resize(kProjector);
    settle();
    CHECK(window->size() == kProjector);
    checkChartsUnelided(*window);
}

TEST_CASE("Space types into a focused field and pauses a run everywhere else",
          "[ui][layout][space]") {
    auto window = readyWindow(100000);
    window->activateWindow();
    REQUIRE(QTest::qWaitForWindowActive(window.get(), 60000));
    ExperimentPanel* panel = window->experimentPanel();
    auto* batch = qobject_cast<QAbstractSpinBox*>(panel->parameterField("batch-size"));
    REQUIRE(batch);
    QLineEdit* delta = panel->deltaEdit();
    REQUIRE(delta);
    REQUIRE(delta->isVisible());
    // A text field of the window (there is none among the settings: they all hold numbers).
    auto* note = new QLineEdit(window->statusBar());
    window->statusBar()->addWidget(note);
    note->show();

    QSignalSpy finished(window->controller(), &TrainingController::runFinished);
    clickToolbar(*window, window->runAction());
    using State = TrainingController::State;
    REQUIRE(
        QTest::qWaitFor([&] { return window->controller()->state() == State::Running; }, 60000));

    // Number fields keep their value: a space is no part of a number, and typed over the
    // selected text it would empty the field. The run goes on.
    batch->setFocus();
    batch->selectAll();
    const QString batchText = batch->text();
    REQUIRE_FALSE(batchText.trimmed().isEmpty());
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);
    QTest::qWait(50);
    CHECK(batch->text() == batchText);
    CHECK(window->controller()->state() == State::Running);
    delta->setFocus();
    delta->setText(QStringLiteral("1e-6"));
    delta->selectAll();
    QTest::keyClick(delta, Qt::Key_Space);
    QTest::qWait(50);
    CHECK(delta->text() == QStringLiteral("1e-6"));
    CHECK(window->controller()->state() == State::Running);
    delta->clear();

    // A text field takes the space as typed.
    note->setFocus();
    QTest::keyClicks(note, QStringLiteral("two"));
    QTest::keyClick(note, Qt::Key_Space);
    QTest::keyClicks(note, QStringLiteral("words"));
    QTest::qWait(50);
    CHECK(note->text() == QStringLiteral("two words"));
    CHECK(window->controller()->state() == State::Running);

    // Anywhere else Space pauses and resumes.
    window->historyView()->setFocus();
    QTest::keyClick(window->historyView(), Qt::Key_Space);
    CHECK(QTest::qWaitFor([&] { return window->controller()->state() == State::Paused; }, 60000));
    QTest::keyClick(window->historyView(), Qt::Key_Space);
    CHECK(QTest::qWaitFor([&] { return window->controller()->state() == State::Running; }, 60000));
    // The live mode check box is no text field either.
    panel->liveModeBox()->setFocus();
    const bool live = panel->liveModeBox()->isChecked();
    QTest::keyClick(panel->liveModeBox(), Qt::Key_Space);
    CHECK(QTest::qWaitFor([&] { return window->controller()->state() == State::Paused; }, 60000));
    CHECK(panel->liveModeBox()->isChecked() == live);

    clickToolbar(*window, window->stopAction());
    REQUIRE(waitForSignals(finished, 1, 60000));
}

TEST_CASE("The sweep views fit their dock at 1280×720 and 1920×1080: no side scrolling",
          "[ui][layout][sweepviews]") {
    for (const QSize size : {kProjector, QSize(1920, 1080)}) {
        INFO(size.width() << "×" << size.height());
        auto window = windowAt(size);
        // Runs whose names are long (what each protects, an own file's name) in every box.
        std::vector<RunEntryPtr> entries;
        int id = 1;
        for (const char* algorithm : {"dp-fermi", "dp-postprocessing", "dp-reductions"}) {
            for (double epsilon : {0.5, 1.0, 3.0}) {
                pfa::RunResult r;
                r.dataset = "a-long-own-data-set-name-from-a-csv-file";
                r.status = pfa::RunStatus::Completed;
                r.config.algorithm = algorithm;
                r.config.epsilon = epsilon;
                r.config.lambda = 4.0;
                r.test.error = 0.2;
                r.test.dpGap = r.test.eoGap = r.test.eoppGap = 0.05;
                r.privacy.isPrivate = true;
                r.privacy.epsilonSpent = epsilon;
                pfa::RunContext context;
                context.runKey = pfa::runKey(
                    "file(a-long-own-data-set-name-from-a-csv-file.csv)|split=0,0.2", r.config);
                entries.push_back(makeRunEntry(id++, std::move(r), std::move(context),
                                               QDateTime::currentDateTime()));
            }
        }
        SweepViewsPanel* views = window->sweepViews();
        views->setEntries(entries);
        views->refreshNow();
        auto* dock = window->findChild<QDockWidget*>(QStringLiteral("sweepDock"));
        REQUIRE(dock);
        dock->raise();
        settle();
        QScrollArea* scroll = nullptr;
        for (QWidget* w = views->parentWidget(); w && !scroll; w = w->parentWidget())
            scroll = qobject_cast<QScrollArea*>(w);
        REQUIRE(scroll);
        INFO("panel minimum width " << views->minimumSizeHint().width() << ", viewport "
                                    << scroll->viewport()->width());
        CHECK(views->minimumSizeHint().width() <= scroll->viewport()->width());
        CHECK_FALSE(scroll->horizontalScrollBar()->isVisible());
        saveShot(
            *window,
            QStringLiteral("layout-%1x%2-sweep-views.png").arg(size.width()).arg(size.height()));
    }
}

}  // namespace ui_layout_test
