#include "ui/dataset_controller.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>
#include <map>

#include "app/fetch/dataset_fetcher.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"

namespace pfa::ui {

/// Data sets loaded earlier, by key. Only the load queue's one thread touches it.
struct DatasetController::Cache {
    std::map<std::string, pfa::PreparedDatasetPtr> byKey;
};

DatasetController::DatasetController(QObject* parent)
    : QObject(parent), m_cache(std::make_shared<Cache>()),
      m_cancelDownload(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<pfa::PreparedDatasetPtr>();
    m_loadQueue.setMaxThreadCount(1);
    m_loadQueue.setObjectName(QStringLiteral("pfa-dataset-loading"));
}

DatasetController::~DatasetController() {
    m_cancelDownload->store(true);
    m_loadQueue.clear();  // loads nobody waits for any more
    m_loadQueue.waitForDone();
}

pfa::PreparedDatasetPtr DatasetController::datasetFor(const pfa::DatasetRequest& request) const {
    if (!m_dataset || m_dataset->key != pfa::datasetKey(request)) return nullptr;
    return m_dataset;
}

void DatasetController::requestDataset(const pfa::DatasetRequest& request) {
    const int requestId = ++m_latestRequest;
    emit datasetLoading();
    auto* watcher = new QFutureWatcher<Loaded>(this);
    connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const Loaded loaded = watcher->result();
        if (loaded.requestId != m_latestRequest) return;  // a newer request is on its way
        if (!loaded.data) {
            emit datasetFailed(loaded.error);
            return;
        }
        m_dataset = loaded.data;
        emit datasetReady(loaded.data);
    });
    watcher->setFuture(QtConcurrent::run(&m_loadQueue, [cache = m_cache, request, requestId]() -> Loaded {
        Loaded out;
        out.requestId = requestId;
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
    }));
}

void DatasetController::download(const QString& datasetName) {
    if (m_downloading) return;
    m_downloading = true;
    m_cancelDownload->store(false);
    const std::string name = datasetName.toStdString();
    auto cancel = m_cancelDownload;
    QPointer<DatasetController> self(this);
    (void)QtConcurrent::run([name, datasetName, cancel, self] {
        QString error;
        bool cancelled = false;
        try {
            const pfa::CatalogEntry& entry = pfa::findCatalogEntry(name);
            auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
            pfa::fetch::fetchDataset(entry, pfa::catalogDatasetDirectory(name), [&](const pfa::fetch::DatasetProgress& p) {
                // At most ~20 updates a second reach the GUI.
                const auto now = std::chrono::steady_clock::now();
                if (now - last > std::chrono::milliseconds(50) || p.done == p.total) {
                    last = now;
                    if (self) {
                        QMetaObject::invokeMethod(self, "downloadProgressed", Qt::QueuedConnection,
                                                  Q_ARG(qint64, static_cast<qint64>(p.done)),
                                                  Q_ARG(qint64, static_cast<qint64>(p.total)),
                                                  Q_ARG(QString, QString::fromStdString(p.file)));
                    }
                }
                return cancel->load();
            });
        } catch (const pfa::fetch::FetchCancelled& stopped) {
            error = QString::fromStdString(stopped.what());
            cancelled = true;
        } catch (const std::exception& problem) {
            error = QString::fromStdString(problem.what());
        }
        if (self) {
            QMetaObject::invokeMethod(self, [self, datasetName, error, cancelled] {
                if (!self) return;
                self->m_downloading = false;
                emit self->downloadFinished(datasetName, error, cancelled);
            }, Qt::QueuedConnection);
        }
    });
}

void DatasetController::cancelDownload() { m_cancelDownload->store(true); }

void DatasetController::importFromFolder(const QString& name, const QString& folder) {
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, name] {
        watcher->deleteLater();
        emit importFinished(name, watcher->result());
    });
    const std::string datasetName = name.toStdString(), source = folder.toStdString();
    watcher->setFuture(QtConcurrent::run([datasetName, source]() -> QString {
        try {
            pfa::fetch::importDataset(pfa::findCatalogEntry(datasetName), source,
                                      pfa::catalogDatasetDirectory(datasetName));
            return {};
        } catch (const std::exception& problem) {
            return QString::fromStdString(problem.what());
        }
    }));
}

}  // namespace pfa::ui
