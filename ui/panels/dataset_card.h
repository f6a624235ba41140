#pragma once

#include <QWidget>

#include "core/sweep/prepared_dataset.h"

class QLabel;

namespace pfa::ui {

class GroupBarChart;

/// The data-set card: what the data is, where it comes from (source, license, citation), its
/// size after preprocessing, and its groups with their sizes and base rates, so the bias is
/// visible before any training.
class DatasetCard : public QWidget {
    Q_OBJECT
public:
    explicit DatasetCard(QWidget* parent = nullptr);

    /// Shows `data` (null: an empty card with `message`).
    void showDataset(const pfa::PreparedDatasetPtr& data, const QString& message = QString());
    /// Shows what is known of a catalog data set before its files are here.
    void showCatalogEntry(const QString& name);
    /// The group chart (tests).
    GroupBarChart* groupChart() const { return m_groups; }
    QString text() const;
    /// The shown data set's title (plain text).
    QString title() const;

private:
    QLabel* m_title;
    QLabel* m_body;
    QLabel* m_numbers;
    GroupBarChart* m_groups;
    QLabel* m_provenance;
};

}  // namespace pfa::ui
