#pragma once

#include <QDialog>
#include <QPointer>

class QLabel;
class QProgressBar;
class QPushButton;

namespace pfa::ui {

class DatasetController;

/// Shows a catalog data set's download by the DatasetController (which fetches it off the GUI
/// thread): a progress bar over all its files, Cancel (the partial file is kept, so the next
/// download resumes), and a clear message when a file does not match its SHA-256.
class DownloadDialog : public QDialog {
    Q_OBJECT
public:
    DownloadDialog(DatasetController* datasets, const QString& datasetName,
                   QWidget* parent = nullptr);
    /// A download still running is cancelled (closing the window meanwhile).
    ~DownloadDialog() override;

    /// Starts the download (call once; open() or show() the dialog, it closes by itself).
    void start();
    /// Empty after a success; the reason otherwise (also after Cancel).
    QString error() const { return m_error; }
    /// What the window says when the download failed: the error, and the way around it
    /// (Import from folder… with files fetched elsewhere, checked against the same checksums).
    QString failureMessage() const;
    bool cancelled() const { return m_cancelled; }

    /// Cancel: stops the transfer (the partial file is kept); closes once it has stopped.
    void reject() override;

signals:
    void progressed(qint64 done, qint64 total, const QString& file);

private:
    void finish(const QString& error, bool cancelled);

    QPointer<DatasetController> m_datasets;
    QString m_name;
    QLabel* m_label;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
    QString m_error;
    bool m_cancelled = false;
    bool m_running = false;
};

}  // namespace pfa::ui
