#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>

#include "core/sweep/prepared_dataset.h"
#include "ui/support/background.h"

namespace pfa::ui {

/// Owns the data sets of the GUI: loads, splits and encodes the one the experiment panel asks
/// for, downloads catalog data sets and imports their files from a folder, all off the GUI
/// thread, and reports progress and errors with signals. Loads run one at a time in the order
/// asked (a quick change of choice never loads two data sets at once); only the answer to the
/// latest request is delivered.
class DatasetController : public QObject {
    Q_OBJECT
public:
    explicit DatasetController(QObject* parent = nullptr);
    ~DatasetController() override;

    /// Loads a data set in the background; answers with datasetReady or datasetFailed.
    void requestDataset(const pfa::DatasetRequest& request);
    /// The most recently loaded data set (null until one is ready).
    pfa::PreparedDatasetPtr dataset() const { return m_dataset; }
    /// The loaded data set when it is the one `request` describes, else null.
    pfa::PreparedDatasetPtr datasetFor(const pfa::DatasetRequest& request) const;
    /// The loaded data set when run `runId` (key `runKey`) was trained on it, data and split;
    /// else null, with what to do in `whyNot` (for a message to the user).
    pfa::PreparedDatasetPtr datasetOfRun(int runId, const std::string& runKey,
                                         QString* whyNot) const;

    /// Downloads and verifies catalog data set `name` into the data folder; progress with
    /// downloadProgressed, the end with downloadFinished. One download at a time.
    void download(const QString& name);
    /// Stops the download (the partial file is kept, so the next download resumes);
    /// downloadFinished follows once it has stopped.
    void cancelDownload();
    /// From download() until downloadFinished.
    bool isDownloading() const { return m_downloading; }

    /// Verifies catalog data set `name`'s files in `folder` and copies them into the data
    /// folder; importFinished reports the outcome.
    void importFromFolder(const QString& name, const QString& folder);

signals:
    void datasetLoading();
    void datasetReady(pfa::PreparedDatasetPtr data);
    void datasetFailed(const QString& message);
    /// Bytes of all the data set's files so far, and the file being fetched.
    void downloadProgressed(qint64 done, qint64 total, const QString& file);
    /// `error` is empty after a success; the reason otherwise (also after cancel).
    void downloadFinished(const QString& name, const QString& error, bool cancelled);
    /// `error` is empty when the files were verified and copied.
    void importFinished(const QString& name, const QString& error);

private:
    struct Cache;

    std::shared_ptr<Cache> m_cache;
    /// Set when the controller goes: loads still queued return at once.
    std::shared_ptr<std::atomic<bool>> m_closing;
    int m_latestRequest = 0;
    pfa::PreparedDatasetPtr m_dataset;
    BackgroundTask m_download;
    bool m_downloading = false;
    SerialQueue m_loads{
        QStringLiteral("pfa-dataset-loading")};  ///< last: destroyed (waited for) first
};

}  // namespace pfa::ui

Q_DECLARE_METATYPE(pfa::PreparedDatasetPtr)
