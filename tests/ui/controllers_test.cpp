// The controllers behind the main window, tested without a window: data sets.
#include <catch2/catch.hpp>

#include <QSignalSpy>
#include <QTest>

#include "ui/dataset_controller.h"
#include "ui_test_support.h"

using namespace pfa::ui;
using namespace pfa::ui::test;

TEST_CASE("Data-set controller: loads off the GUI thread, answers only the latest request, names failures",
          "[ui][controllers]") {
    DatasetController datasets;
    QSignalSpy loading(&datasets, &DatasetController::datasetLoading);
    QSignalSpy ready(&datasets, &DatasetController::datasetReady);
    QSignalSpy failed(&datasets, &DatasetController::datasetFailed);

    pfa::DatasetRequest first;
    pfa::DatasetRequest second;
    second.split.seed = 7;  // other training rows: another data set
    datasets.requestDataset(first);
    datasets.requestDataset(second);
    CHECK(loading.count() == 2);
    CHECK(ready.isEmpty());  // nothing is loaded on the GUI thread
    REQUIRE(waitForSignals(ready, 1, 20000));
    QTest::qWait(100);
    REQUIRE(ready.count() == 1);  // the first answer was superseded before it arrived
    const auto data = ready.at(0).at(0).value<pfa::PreparedDatasetPtr>();
    REQUIRE(data);
    CHECK(data->key == pfa::datasetKey(second));
    CHECK(datasets.dataset() == data);
    CHECK(datasets.datasetFor(second) == data);
    CHECK_FALSE(datasets.datasetFor(first));

    // The same request again is served from the cache: the very same data.
    datasets.requestDataset(second);
    REQUIRE(waitForSignals(ready, 2, 20000));
    CHECK(ready.at(1).at(0).value<pfa::PreparedDatasetPtr>() == data);

    pfa::DatasetRequest missing;
    missing.name = "file";
    missing.filePath = "/nonexistent/own-data.csv";
    datasets.requestDataset(missing);
    REQUIRE(waitForSignals(failed, 1, 20000));
    CHECK(failed.at(0).at(0).toString().contains(QStringLiteral("own-data.csv")));
    CHECK(datasets.dataset() == data);  // a failed load keeps the last good data set
}
