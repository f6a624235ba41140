#pragma once

#include <QObject>

namespace pfa::ui {

class DatasetCard;
class DatasetController;
class ExperimentPanel;
class LedgerBook;
class LedgerPanel;
class LedgerStatusLabel;
class LiveRunPresenter;

/// The data set the experiment panel asks for, and what is shown of it: loads it when its files
/// are there (the panel shows loading, the data or the failure), shows its card (the catalog
/// entry before any download), opens the persistent privacy ledger of its rows once they are
/// known, and points the ledger panel, the status-bar summary and the tradeoff chart at it.
class DatasetPresenter : public QObject {
    Q_OBJECT
public:
    /// The views it drives; they must outlive it.
    struct Views {
        ExperimentPanel* panel = nullptr;
        DatasetCard* card = nullptr;
        LedgerPanel* ledgerPanel = nullptr;
        LedgerStatusLabel* ledgerStatus = nullptr;
        LiveRunPresenter* live = nullptr;  ///< the tradeoff chart follows the panel through it
    };

    DatasetPresenter(DatasetController* datasets, LedgerBook* ledger, const Views& views,
                     QObject* parent = nullptr);

    /// Shows (and loads) the data set the panel asks for now.
    void followPanel();

private:
    DatasetController* m_datasets;
    Views m_views;
};

}  // namespace pfa::ui
