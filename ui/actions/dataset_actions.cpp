#include "ui/actions/dataset_actions.h"

#include <QAction>
#include <QFileDialog>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTextDocument>

#include "core/data/catalog.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/dialogs/download_dialog.h"
#include "ui/dialogs/import_wizard.h"
#include "ui/panels/experiment_panel.h"

namespace pfa::ui {

DatasetActions::DatasetActions(DatasetController* datasets, ExperimentPanel* panel, QWidget* window)
    : QObject(window), m_datasets(datasets), m_panel(panel), m_window(window) {
    m_importFile = new QAction(tr("&Import data file…"), this);
    connect(m_importFile, &QAction::triggered, this, &DatasetActions::importOwnFile);
    connect(panel, &ExperimentPanel::downloadRequested, this,
            [this](const QString& name) { download(name); });
    connect(panel, &ExperimentPanel::importFolderRequested, this, &DatasetActions::importFolder);
    connect(panel, &ExperimentPanel::importFileRequested, this, &DatasetActions::importOwnFile);
    connect(datasets, &DatasetController::importFinished, this,
            [this](const QString& name, const QString& error) {
                if (!error.isEmpty()) {
                    QMessageBox::warning(m_window, tr("Import from folder"),
                                         Qt::convertFromPlainText(error, Qt::WhiteSpaceNormal));
                    return;
                }
                m_panel->refreshAvailability();
                emit message(tr("%1 imported: checksums verified").arg(name), 8000);
            });
}

void DatasetActions::download(const QString& name, std::function<void()> afterSuccess) {
    if (name.isEmpty()) return;
    auto* dialog = new DownloadDialog(m_datasets, name, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        dialog, &QDialog::finished, this,
        [this, dialog, name, afterSuccess = std::move(afterSuccess)] {
            if (!dialog->error().isEmpty()) {
                if (!dialog->cancelled())
                    QMessageBox::warning(
                        m_window, tr("Download"),
                        Qt::convertFromPlainText(dialog->failureMessage(), Qt::WhiteSpaceNormal));
                emit message(dialog->cancelled() ? tr("Download cancelled; it resumes next time")
                                                 : tr("Download failed"),
                             8000);
                return;
            }
            emit message(tr("%1 downloaded and verified").arg(name), 8000);
            m_panel->refreshAvailability();
            if (afterSuccess) afterSuccess();
        });
    dialog->start();
    dialog->open();
}

void DatasetActions::importFolder(const QString& name) {
    if (name.isEmpty()) return;
    const QString folder = QFileDialog::getExistingDirectory(
        m_window,
        tr("Folder with the files of %1")
            .arg(QString::fromStdString(pfa::findCatalogEntry(name.toStdString()).title)));
    if (folder.isEmpty()) return;
    // Hashing and copying take a while: a window-modal progress dialog explains the wait and
    // goes when the controller reports the outcome.
    auto* progress = new QProgressDialog(
        tr("Verifying the checksums of the files in %1…").arg(folder), QString(), 0, 0, m_window);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    connect(m_datasets, &DatasetController::importFinished, progress, &QObject::deleteLater,
            Qt::SingleShotConnection);
    m_datasets->importFromFolder(name, folder);
}

void DatasetActions::importOwnFile() {
    auto* wizard = new ImportWizard(m_window);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QDialog::accepted, this,
            [this, wizard] { m_panel->addUserFile(wizard->filePath(), wizard->schema()); });
    wizard->open();
}

}  // namespace pfa::ui
