// The one background mechanism of the GUI (ui/support/background.h): results and progress arrive on
// the GUI thread, in order, never after their receiver is gone; cancelling keeps the outcome;
// a serial queue runs its tasks one after another; and ui/ uses nothing else — no thread of
// its own, no nested event loop (a source check).
#include "ui/support/background.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace ui_background_test {

using namespace pfa::ui;

namespace {

bool onGuiThread() { return QThread::currentThread() == QCoreApplication::instance()->thread(); }

}  // namespace

TEST_CASE("Background tasks: work off the GUI thread, progress then result on it, in order",
          "[ui][background]") {
    QObject receiver;
    std::vector<int> seen;
    bool workOnGui = true;
    bool doneOnGui = false;
    bool finished = false;
    runInBackground(
        &receiver,
        [&workOnGui] {
            workOnGui = onGuiThread();
            return 42;
        },
        [&](int result) {
            doneOnGui = onGuiThread();
            seen.push_back(result);
            finished = true;
        });
    CHECK_FALSE(finished);  // nothing is waited for
    REQUIRE(QTest::qWaitFor([&] { return finished; }, 60000));
    CHECK_FALSE(workOnGui);
    CHECK(doneOnGui);
    CHECK(seen == std::vector<int>{42});

    // Posted progress arrives before the completion, in the order posted.
    std::vector<int> order;
    runInBackground(
        &receiver,
        [&order](TaskContext& task) {
            for (int step = 1; step <= 5; ++step)
                task.post([&order, step] { order.push_back(step); });
        },
        [&order] { order.push_back(99); });
    REQUIRE(QTest::qWaitFor([&] { return !order.empty() && order.back() == 99; }, 60000));
    CHECK(order == std::vector<int>{1, 2, 3, 4, 5, 99});
}

TEST_CASE("Background tasks: nothing reaches a receiver destroyed before the work returned",
          "[ui][background]") {
    auto receiver = std::make_unique<QObject>();
    std::atomic<bool> release{false};
    std::atomic<bool> returned{false};
    int delivered = 0;
    BackgroundTask task = runInBackground(
        receiver.get(),
        [&](TaskContext& context) {
            while (!release.load()) QThread::msleep(1);
            context.post([&delivered] { ++delivered; });  // the receiver is gone by now
            returned = true;
            return 1;
        },
        [&delivered](int) { ++delivered; });
    CHECK(task.isRunning());
    receiver.reset();
    release = true;
    REQUIRE(QTest::qWaitFor([&] { return returned.load(); }, 60000));
    task.waitForFinished();
    QTest::qWait(50);
    CHECK(delivered == 0);
    CHECK_FALSE(task.isRunning());
}

TEST_CASE("Background tasks: cancel asks the work to stop and its outcome still arrives",
          "[ui][background]") {
    QObject receiver;
    int outcome = -1;
    BackgroundTask task = runInBackground(
        &receiver,
        [](TaskContext& context) {
            int rounds = 0;
            while (!context.cancelled() && rounds < 100000) {
                QThread::msleep(1);
                ++rounds;
            }
            return context.cancelToken().cancelled() ? rounds : -2;
        },
        [&outcome](int rounds) { outcome = rounds; });
    QTest::qWait(20);
    task.cancel();
    REQUIRE(QTest::qWaitFor([&] { return outcome != -1; }, 60000));
    CHECK(outcome >= 0);  // stopped early, and said how far it got
    CHECK(outcome < 100000);
}

TEST_CASE("Serial queue: tasks run one at a time, in the order given", "[ui][background]") {
    QObject receiver;
    SerialQueue queue(QStringLiteral("test-queue"));
    std::atomic<int> running{0};
    std::atomic<int> mostAtOnce{0};
    std::vector<int> started, completed;
    std::mutex mutex;
    for (int i = 0; i < 6; ++i) {
        queue.run(
            &receiver,
            [&, i] {
                const int now = ++running;
                mostAtOnce = std::max(mostAtOnce.load(), now);
                {
                    std::lock_guard<std::mutex> lock(mutex);
                    started.push_back(i);
                }
                QThread::msleep(5);
                --running;
                return i;
            },
            [&completed](int i) { completed.push_back(i); });
    }
    REQUIRE(QTest::qWaitFor([&] { return completed.size() == 6; }, 60000));
    CHECK(mostAtOnce == 1);
    CHECK(started == std::vector<int>{0, 1, 2, 3, 4, 5});
    CHECK(completed == std::vector<int>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("ui/ uses no other background mechanism and no nested event loop", "[ui][background]") {
    // The sources of ui/ in the checkout (not found from __FILE__: with Ninja that is relative
    // to the build folder, whose ui/ holds only generated files).
    const std::filesystem::path uiDir = std::filesystem::path(PFA_SOURCE_ROOT) / "ui";
    REQUIRE(std::filesystem::is_directory(uiDir));
    // Each pattern, and why it is not wanted (background.h is the one place that may use the
    // machinery it wraps).
    const std::vector<std::pair<std::regex, std::string>> forbidden = {
        {std::regex(R"(QEventLoop)"), "a nested event loop: continue in a slot instead"},
        {std::regex(R"(processEvents\s*\()"), "a nested event loop in disguise"},
        {std::regex(R"((\.|->)exec\s*\(\s*\))"),
         "a modal exec() is a nested event loop: open() the dialog"},
        {std::regex(R"(std::thread|std::async|std::jthread)"),
         "a thread of its own: use runInBackground"},
        {std::regex(R"(QtConcurrent::|QFutureWatcher|moveToThread|new QThread\b|QThread\s+m_)"),
         "background work outside background.h: use runInBackground or a SerialQueue"},
    };
    int files = 0;
    std::string violations;
    // Every folder of ui/, recursively.
    for (const auto& item : std::filesystem::recursive_directory_iterator(uiDir)) {
        const std::string name = item.path().lexically_relative(uiDir).generic_string();
        if (name.rfind("support/background.", 0) == 0) continue;
        if (item.path().extension() != ".cpp" && item.path().extension() != ".h") continue;
        ++files;
        std::ifstream in(item.path());
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            for (const auto& [pattern, why] : forbidden) {
                if (std::regex_search(line, pattern)) {
                    violations += "ui/" + name + ":" + std::to_string(number) + ": " + why +
                                  "\n    " + line + "\n";
                }
            }
        }
    }
    INFO(violations);
    CHECK(violations.empty());
    CHECK(files > 40);
}

}  // namespace ui_background_test
