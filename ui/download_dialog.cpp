#include "ui/download_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "app/fetch/dataset_fetcher.h"
#include "core/data/catalog.h"
#include "core/data/data_directory.h"

namespace pfa::ui {

DownloadDialog::DownloadDialog(const QString& datasetName, QWidget* parent)
    : QDialog(parent), m_name(datasetName), m_cancelFlag(std::make_shared<std::atomic<bool>>(false)) {
    const pfa::CatalogEntry& entry = pfa::findCatalogEntry(datasetName.toStdString());
    setWindowTitle(tr("Download %1").arg(QString::fromStdString(entry.title)));
    m_label = new QLabel(tr("Connecting to %1 …").arg(QString::fromStdString(entry.files.front().urls.front())));
    m_label->setWordWrap(true);
    m_bar = new QProgressBar();
    m_bar->setRange(0, 1000);
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop the download; what has arrived is kept and the next "
                            "download resumes from there"));
    auto* buttons = new QDialogButtonBox();
    buttons->addButton(m_cancel, QDialogButtonBox::RejectRole);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(buttons);
    connect(m_cancel, &QPushButton::clicked, this, &DownloadDialog::reject);
    connect(this, &DownloadDialog::progressed, this, [this](qint64 done, qint64 total, const QString& file) {
        m_bar->setValue(total > 0 ? static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)) : 0);
        m_label->setText(tr("%1: %2 of %3 MB").arg(file).arg(static_cast<double>(done) / 1e6, 0, 'f', 1)
                             .arg(static_cast<double>(total) / 1e6, 0, 'f', 1));
    });
    resize(520, sizeHint().height());
}

DownloadDialog::~DownloadDialog() { m_cancelFlag->store(true); }

void DownloadDialog::start() {
    m_running = true;
    const std::string name = m_name.toStdString();
    auto cancel = m_cancelFlag;
    QPointer<DownloadDialog> self(this);
    (void)QtConcurrent::run([name, cancel, self] {
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
                        QMetaObject::invokeMethod(self, "progressed", Qt::QueuedConnection,
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
            QMetaObject::invokeMethod(self, [self, error, cancelled] {
                if (self) self->finish(error, cancelled);
            }, Qt::QueuedConnection);
        }
    });
}

void DownloadDialog::reject() {
    if (m_running) {
        // Ask the transfer to stop; the dialog closes when it has.
        m_cancelFlag->store(true);
        m_cancel->setEnabled(false);
        m_label->setText(tr("Stopping…"));
        return;
    }
    QDialog::reject();
}

void DownloadDialog::finish(const QString& error, bool cancelled) {
    m_running = false;
    m_error = error;
    m_cancelled = cancelled;
    if (error.isEmpty()) {
        accept();
    } else {
        QDialog::reject();
    }
}

}  // namespace pfa::ui
