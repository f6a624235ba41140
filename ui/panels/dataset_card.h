#pragma once

#include <QWidget>

#include "core/sweep/prepared_dataset.h"

class QLabel;

namespace pfa::ui {

class GroupBarChart;
class UnitHistogram;

/// The data-set card: what the data is, where it comes from (source, license, citation), its
/// size after preprocessing, and its groups with their sizes and base rates, so the bias is
/// visible before any training. When the data's rows belong to people (users) or are held by
/// silos, a "Units" section shows how many rows each holds.
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
    /// The histograms of rows per person and per silo (tests); hidden without such units.
    UnitHistogram* userHistogram() const { return m_userHistogram; }
    UnitHistogram* siloHistogram() const { return m_siloHistogram; }
    /// The one-line summaries of the units ("42 people, 75–131 recordings each"), empty when
    /// the data has no such units (tests).
    QString usersSummary() const;
    QString silosSummary() const;
    QString text() const;
    /// The shown data set's title (plain text).
    QString title() const;

private:
    QLabel* m_title;
    QLabel* m_body;
    QLabel* m_numbers;
    GroupBarChart* m_groups;
    QLabel* m_provenance;
    QLabel* m_unitsTitle;
    QLabel* m_usersSummary;
    UnitHistogram* m_userHistogram;
    QLabel* m_silosSummary;
    UnitHistogram* m_siloHistogram;

    /// Fills or hides the "Units" section for `data` (null: hidden).
    void showUnits(const pfa::PreparedDataset* data);
};

}  // namespace pfa::ui
