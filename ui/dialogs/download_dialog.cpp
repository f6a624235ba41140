#include "ui/dialogs/download_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "core/data/catalog.h"
#include "ui/controllers/dataset_controller.h"

namespace pfa::ui {

DownloadDialog::DownloadDialog(DatasetController* datasets, const QString& datasetName,
                               QWidget* parent)
    : QDialog(parent), m_datasets(datasets), m_name(datasetName) {
    const pfa::CatalogEntry& entry = pfa::findCatalogEntry(datasetName.toStdString());
    setWindowTitle(tr("Download %1").arg(QString::fromStdString(entry.title)));
    m_label = new QLabel(
        tr("Connecting to %1 …").arg(QString::fromStdString(entry.files.front().urls.front())));
    m_label->setWordWrap(true);
    m_bar = new QProgressBar();
    m_bar->setRange(0, 1000);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setToolTip(
        tr("Stop the download; what has arrived is kept and the next "
           "download resumes from there"));
    auto* buttons = new QDialogButtonBox();
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(buttons);
    connect(m_cancel, &QPushButton::clicked, this, &DownloadDialog::reject);
    connect(this, &DownloadDialog::progressed, this,
            [this](qint64 done, qint64 total, const QString& file) {
                m_bar->setValue(total > 0 ? static_cast<int>(1000.0 * static_cast<double>(done) /
                                                             static_cast<double>(total))
                                          : 0);
                m_label->setText(tr("%1: %2 of %3 MB")
                                     .arg(file)
                                     .arg(static_cast<double>(done) / 1e6, 0, 'f', 1)
                                     .arg(static_cast<double>(total) / 1e6, 0, 'f', 1));
            });
    resize(520, sizeHint().height());
}

DownloadDialog::~DownloadDialog() {
    if (m_running && m_datasets) m_datasets->cancelDownload();
}

void DownloadDialog::start() {
    if (m_running || m_datasets->isDownloading()) return;
    m_running = true;
    connect(m_datasets, &DatasetController::downloadProgressed, this, &DownloadDialog::progressed);
    connect(
        m_datasets, &DatasetController::downloadFinished, this,
        [this](const QString&, const QString& error, bool cancelled) { finish(error, cancelled); });
    m_datasets->download(m_name);
}

void DownloadDialog::reject() {
    if (m_running) {
        // Ask the transfer to stop; the dialog closes when it has.
        m_datasets->cancelDownload();
        m_cancel->setEnabled(false);
        m_label->setText(tr("Stopping…"));
        return;
    }
    QDialog::reject();
}

QString DownloadDialog::failureMessage() const {
    return tr("%1\n\nIf this machine cannot reach the source, fetch the files elsewhere (or copy "
              "them from a colleague) and choose Import from folder… beside the data set: the "
              "files are checked against the same checksums.")
        .arg(m_error);
}

void DownloadDialog::finish(const QString& error, bool cancelled) {
    m_running = false;
    if (m_datasets) disconnect(m_datasets, nullptr, this, nullptr);
    m_error = error;
    m_cancelled = cancelled;
    if (error.isEmpty()) {
        accept();
    } else {
        QDialog::reject();
    }
}

}  // namespace pfa::ui
