#pragma once

#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QWidget;

namespace pfa::ui {

class DatasetController;
class ExperimentPanel;

/// What the user does to get data besides choosing it in the panel: Download…, Import from
/// folder… and Import data file…. Their dialogs are window-modal and never waited for: what
/// follows them runs when they report back. The work itself is the DatasetController's.
class DatasetActions : public QObject {
    Q_OBJECT
public:
    /// `window` parents the dialogs.
    DatasetActions(DatasetController* datasets, ExperimentPanel* panel, QWidget* window);

    /// File → Import data file….
    QAction* importFileAction() const { return m_importFile; }

    /// Opens the download dialog for catalog data set `name`; `afterSuccess` runs once the
    /// files are downloaded and verified.
    void download(const QString& name, std::function<void()> afterSuccess = {});
    /// Asks for a folder holding `name`'s files, then verifies and copies them.
    void importFolder(const QString& name);
    /// The import wizard for the user's own file; the file joins the panel's data sets.
    void importOwnFile();

signals:
    /// For the status bar.
    void message(const QString& text, int timeoutMs);

private:
    DatasetController* m_datasets;
    ExperimentPanel* m_panel;
    QWidget* m_window;
    QAction* m_importFile;
};

}  // namespace pfa::ui
