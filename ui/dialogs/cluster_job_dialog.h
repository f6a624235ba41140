#pragma once

#include <QDialog>
#include <QString>
#include <optional>
#include <utility>

#include "core/sweep/slurm_jobs.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace pfa::ui {

/// The sweep dialog's "Run on a cluster…": the sweep as a Slurm job array, as
/// `pfa-cli cluster slurm` writes it. Beside the results file it writes the sweep as a sweep
/// file (NAME.sweep.json, read by `pfa-cli train --preset`), the manifest of every run and the
/// scripts (NAME.slurm/), and shows the one command that submits the array and its merge.
/// The summary follows the fields: runs per shard and each task's time and memory.
class ClusterJobDialog : public QDialog {
    Q_OBJECT
public:
    /// `sweep`: the sweep dialog's sweep with its data sets; `dataDirectory`: the catalog
    /// data's folder ("" = the default); `results`: the sweep dialog's results file.
    ClusterJobDialog(pfa::SweepPreset sweep, const pfa::SweepDataSize& size,
                     const QString& dataDirectory, const QString& results,
                     QWidget* parent = nullptr);

    /// Writes the files; false with the reason in `error` when that failed.
    bool writeJobs(QString* error = nullptr);
    /// What writeJobs wrote (empty before).
    const pfa::ClusterSweep& written() const { return m_written; }
    /// Empty when the fields describe jobs that can be written; else what is wrong.
    QString problem() const { return m_problem; }

    // For tests.
    QLineEdit* resultsEdit() const { return m_results; }
    QSpinBox* shardsBox() const { return m_shards; }
    QSpinBox* cpusBox() const { return m_cpus; }
    QLineEdit* timeEdit() const { return m_time; }
    QLineEdit* partitionEdit() const { return m_partition; }
    QLineEdit* pfaCliEdit() const { return m_pfaCli; }
    QLabel* summaryLabel() const { return m_summary; }
    QPushButton* writeButton() const { return m_write; }
    QPushButton* copyButton() const { return m_copy; }
    QPlainTextEdit* outputText() const { return m_output; }

signals:
    /// "Follow in the sweep views": the manifest to open (its shards' runs so far).
    void followRequested(const QString& manifestPath);

private:
    void updateSummary();
    pfa::SlurmJobOptions options() const;

    pfa::SweepPreset m_sweep;
    pfa::SweepDataSize m_size;
    QString m_dataDirectory;
    QLineEdit* m_results;
    QSpinBox* m_shards;
    QSpinBox* m_cpus;
    QLineEdit* m_time;
    QLineEdit* m_mem;
    QLineEdit* m_partition;
    QLineEdit* m_account;
    QLineEdit* m_qos;
    QLineEdit* m_pfaCli;
    QLabel* m_summary;
    QPlainTextEdit* m_output;
    QPushButton* m_write;
    QPushButton* m_copy;
    QPushButton* m_follow;
    QString m_problem;
    pfa::ClusterSweep m_written;
    /// The last plan (for the summary) and the shard count it is for.
    std::optional<std::pair<int, pfa::SweepManifest>> m_plan;
};

}  // namespace pfa::ui
