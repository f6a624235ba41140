#include "ui/controllers/dataset_controller.h"

#include <map>

#include "core/data/catalog.h"
#include "core/data/data_directory.h"
#include "core/fetch/dataset_fetcher.h"
#include "core/sweep/sweep_summary.h"

namespace pfa::ui {

namespace {

/// What a load hands to the GUI thread.
struct Loaded {
    int requestId = 0;
    pfa::PreparedDatasetPtr data;
    QString error;
};

/// What a download hands to the GUI thread.
struct Downloaded {
    QString error;
    bool cancelled = false;
};

}  // namespace

/// Data sets loaded earlier, by key. Only the load queue's one thread touches it.
struct DatasetController::Cache {
    std::map<std::string, pfa::PreparedDatasetPtr> byKey;
};

DatasetController::DatasetController(QObject* parent)
    : QObject(parent),
      m_cache(std::make_shared<Cache>()),
      m_closing(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<pfa::PreparedDatasetPtr>();
}

DatasetController::~DatasetController() {
    // The download stops at its next progress report (its partial file is kept), without
    // being waited for; queued loads return at once and the queue waits for the one running.
    m_download.cancel();
    m_closing->store(true);
}

pfa::PreparedDatasetPtr DatasetController::datasetFor(const pfa::DatasetRequest& request) const {
    if (!m_dataset || m_dataset->key != pfa::datasetKey(request)) return nullptr;
    return m_dataset;
}

pfa::PreparedDatasetPtr DatasetController::datasetOfRun(int runId, const std::string& runKey,
                                                        QString* whyNot) const {
    if (!m_dataset) {
        if (whyNot) *whyNot = tr("No data set is loaded.");
        return nullptr;
    }
    if (pfa::datasetOfRunKey(runKey) != m_dataset->key) {
        if (whyNot) {
            *whyNot = tr("Run %1 was trained on another data set or split than the one loaded; "
                         "load its data set first (Data set box) and try again.")
                          .arg(runId);
        }
        return nullptr;
    }
    return m_dataset;
}

void DatasetController::requestDataset(const pfa::DatasetRequest& request) {
    const int requestId = ++m_latestRequest;
    emit datasetLoading();
    auto load = [cache = m_cache, closing = m_closing, request, requestId]() -> Loaded {
        Loaded out;
        out.requestId = requestId;
        if (closing->load()) return out;
        try {
            const std::string key = pfa::datasetKey(request);
            if (const auto it = cache->byKey.find(key); it != cache->byKey.end()) {
                out.data = it->second;
                return out;
            }
            out.data = pfa::prepareDataset(request);
            if (cache->byKey.size() >= 4) cache->byKey.clear();  // a handful of data sets is plenty
            cache->byKey[key] = out.data;
        } catch (const std::exception& problem) {
            out.error = QString::fromStdString(problem.what());
        }
        return out;
    };
    m_loads.run(this, std::move(load), [this](const Loaded& loaded) {
        if (loaded.requestId != m_latestRequest) return;  // a newer request is on its way
        if (!loaded.data) {
            emit datasetFailed(loaded.error);
            return;
        }
        m_dataset = loaded.data;
        emit datasetReady(loaded.data);
    });
}

void DatasetController::download(const QString& datasetName) {
    if (m_downloading) return;
    m_downloading = true;
    const std::string name = datasetName.toStdString();
    auto fetch = [this, name](TaskContext& task) -> Downloaded {
        Downloaded out;
        try {
            const pfa::CatalogEntry& entry = pfa::findCatalogEntry(name);
            pfa::fetch::fetchDataset(entry, pfa::catalogDatasetDirectory(name),
                                     [&](const pfa::fetch::DatasetProgress& p) {
                                         if (task.progressDue() || p.done == p.total) {
                                             task.post([this, done = static_cast<qint64>(p.done),
                                                        total = static_cast<qint64>(p.total),
                                                        file = QString::fromStdString(p.file)] {
                                                 emit downloadProgressed(done, total, file);
                                             });
                                         }
                                         return task.cancelled();
                                     });
        } catch (const pfa::fetch::FetchCancelled& stopped) {
            out.error = QString::fromStdString(stopped.what());
            out.cancelled = true;
        } catch (const std::exception& problem) {
            out.error = QString::fromStdString(problem.what());
        }
        return out;
    };
    m_download =
        runInBackground(this, std::move(fetch), [this, datasetName](const Downloaded& outcome) {
            m_downloading = false;
            emit downloadFinished(datasetName, outcome.error, outcome.cancelled);
        });
}

void DatasetController::cancelDownload() { m_download.cancel(); }

void DatasetController::importFromFolder(const QString& name, const QString& folder) {
    const std::string datasetName = name.toStdString(), source = folder.toStdString();
    auto import = [datasetName, source]() -> QString {
        try {
            pfa::fetch::importDataset(pfa::findCatalogEntry(datasetName), source,
                                      pfa::catalogDatasetDirectory(datasetName));
            return {};
        } catch (const std::exception& problem) {
            return QString::fromStdString(problem.what());
        }
    };
    runInBackground(this, std::move(import),
                    [this, name](const QString& error) { emit importFinished(name, error); });
}

}  // namespace pfa::ui
