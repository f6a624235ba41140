#pragma once

#include <QDialog>
#include <atomic>
#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;

namespace pfa::ui {

/// Downloads a catalog data set into the per-user data folder off the GUI thread: a progress
/// bar over all its files, Cancel (the partial file is kept, so the next download resumes),
/// SHA-256 verification of every file, and a clear message when a file does not match.
class DownloadDialog : public QDialog {
    Q_OBJECT
public:
    DownloadDialog(const QString& datasetName, QWidget* parent = nullptr);
    ~DownloadDialog() override;

    /// Starts the download (call once, before exec()).
    void start();
    /// Empty after a success; the reason otherwise (also after Cancel).
    QString error() const { return m_error; }
    bool cancelled() const { return m_cancelled; }

    /// Cancel: stops the transfer (the partial file is kept); closes once it has stopped.
    void reject() override;

signals:
    void progressed(qint64 done, qint64 total, const QString& file);

private:
    void finish(const QString& error, bool cancelled);

    QString m_name;
    QLabel* m_label;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QString m_error;
    bool m_cancelled = false;
    bool m_running = false;
};

}  // namespace pfa::ui
