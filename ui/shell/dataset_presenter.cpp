#include "ui/shell/dataset_presenter.h"

#include "core/sweep/prepared_dataset.h"
#include "ui/controllers/dataset_controller.h"
#include "ui/panels/dataset_card.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/ledger_status_label.h"
#include "ui/panels/privacy_ledger_panel.h"
#include "ui/runs/privacy_ledger_book.h"
#include "ui/shell/live_run_presenter.h"

namespace pfa::ui {

DatasetPresenter::DatasetPresenter(DatasetController* datasets, LedgerBook* ledger,
                                   const Views& views, QObject* parent)
    : QObject(parent), m_datasets(datasets), m_views(views) {
    ExperimentPanel* panel = views.panel;
    DatasetCard* card = views.card;
    connect(panel, &ExperimentPanel::datasetRequestChanged, this, &DatasetPresenter::followPanel);
    connect(datasets, &DatasetController::datasetLoading, panel,
            &ExperimentPanel::setDatasetLoading);
    connect(datasets, &DatasetController::datasetReady, panel, &ExperimentPanel::setDataset);
    connect(datasets, &DatasetController::datasetReady, this,
            [panel, card, ledger](const pfa::PreparedDatasetPtr& data) {
                if (data && data->key == pfa::datasetKey(panel->datasetRequest()))
                    card->showDataset(data);
                // Its rows are known now: their persistent ledger is read (and shown).
                if (data)
                    ledger->setDataFingerprint(data->context.ledgerKey,
                                               data->context.dataFingerprint);
            });
    connect(datasets, &DatasetController::datasetFailed, this, [card](const QString& message) {
        card->showDataset(nullptr, tr("The data set could not be loaded: %1").arg(message));
    });
    connect(datasets, &DatasetController::datasetFailed, panel, &ExperimentPanel::setDatasetFailed);
}

void DatasetPresenter::followPanel() {
    ExperimentPanel* panel = m_views.panel;
    m_views.live->followExperiment();
    const std::string ledgerKey = pfa::ledgerKey(panel->datasetRequest());
    if (m_views.ledgerPanel->currentKey() != ledgerKey) m_views.ledgerPanel->showLedger(ledgerKey);
    m_views.ledgerStatus->showLedger(ledgerKey);
    if (!panel->catalogFilesPresent()) {
        // What it is, before any download.
        m_views.card->showCatalogEntry(panel->currentCatalogName());
        return;
    }
    m_views.card->showDataset(nullptr, tr("Loading…"));
    m_datasets->requestDataset(panel->datasetRequest());
}

}  // namespace pfa::ui
