#include "ui/dialogs/cluster_job_dialog.h"

#include <QClipboard>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <utility>

#include "core/util/error.h"

namespace pfa::ui {

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

/// A line edit with a placeholder and a tooltip.
QLineEdit* lineEdit(const QString& placeholder, const QString& tip) {
    auto* edit = new QLineEdit();
    edit->setPlaceholderText(placeholder);
    edit->setToolTip(tip);
    return edit;
}

/// The pfa-cli installed beside this application.
QString pfaCliBeside() {
    return QDir(QCoreApplication::applicationDirPath()).absoluteFilePath(QStringLiteral("pfa-cli"));
}

}  // namespace

ClusterJobDialog::ClusterJobDialog(pfa::SweepPreset sweep, const pfa::SweepDataSize& size,
                                   const QString& dataDirectory, const QString& results,
                                   QWidget* parent)
    : QDialog(parent), m_sweep(std::move(sweep)), m_size(size), m_dataDirectory(dataDirectory) {
    setWindowTitle(tr("Run on a cluster (Slurm)"));
    m_results = lineEdit(tr("results.jsonl"),
                         tr("The merged results file. Beside it go the sweep file (.sweep.json), "
                            "the manifest (.manifest.json), every shard's results "
                            "(.shard-I.jsonl) and the job scripts (.slurm/). Use a path the "
                            "cluster's nodes see (a shared file system)."));
    m_results->setText(results);
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Results file"), m_results->text(), tr("JSON lines (*.jsonl)"), nullptr,
            QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) m_results->setText(path);
    });
    auto* resultsRow = new QHBoxLayout();
    resultsRow->addWidget(m_results, 1);
    resultsRow->addWidget(browse);

    m_shards = new QSpinBox();
    m_shards->setRange(0, 100000);
    m_shards->setSpecialValueText(tr("Automatic (one per seed)"));
    m_shards->setToolTip(
        tr("Array tasks: task I trains the runs whose index %N is I. Automatic: one per seed, "
           "so that runs sharing batches by seed stay together (about 8 runs a task for one "
           "seed)."));
    m_cpus = new QSpinBox();
    m_cpus->setRange(1, 1024);
    m_cpus->setValue(2);
    m_cpus->setToolTip(tr("CPUs per task (--cpus-per-task); each task uses what it is given"));
    m_time = lineEdit(tr("estimated"), tr("Time limit per task, e.g. 02:00:00 or 1-00:00:00; "
                                          "empty: a generous estimate from the runs, their "
                                          "epochs and the data size"));
    m_mem = lineEdit(tr("estimated"),
                     tr("Memory per task, e.g. 8G; empty: an estimate from the data size"));
    m_partition = lineEdit(tr("cluster default"), tr("Slurm partition (--partition)"));
    m_account = lineEdit(tr("cluster default"), tr("Slurm account (--account)"));
    m_qos = lineEdit(tr("cluster default"), tr("Quality of service (--qos)"));
    m_pfaCli = lineEdit(tr("path to pfa-cli"),
                        tr("The pfa-cli the tasks run, as the cluster's nodes see it; by default "
                           "the one installed beside this application"));
    m_pfaCli->setText(pfaCliBeside());

    auto* form = new QFormLayout();
    form->addRow(tr("Results file"), resultsRow);
    form->addRow(tr("Shards"), m_shards);
    form->addRow(tr("CPUs per task"), m_cpus);
    form->addRow(tr("Time limit"), m_time);
    form->addRow(tr("Memory"), m_mem);
    form->addRow(tr("Partition"), m_partition);
    form->addRow(tr("Account"), m_account);
    form->addRow(tr("QoS"), m_qos);
    form->addRow(tr("pfa-cli"), m_pfaCli);

    m_summary = new QLabel();
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_output = new QPlainTextEdit();
    m_output->setReadOnly(true);
    m_output->setPlaceholderText(tr("What was written, and the command that submits it"));
    m_output->setMinimumHeight(140);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_write = buttons->addButton(tr("Write job files"), QDialogButtonBox::ActionRole);
    m_write->setToolTip(tr("Write the sweep file, the manifest and the job scripts"));
    m_copy = buttons->addButton(tr("Copy submit command"), QDialogButtonBox::ActionRole);
    m_copy->setEnabled(false);
    m_follow = buttons->addButton(tr("Follow in sweep views"), QDialogButtonBox::ActionRole);
    m_follow->setToolTip(
        tr("Open the manifest: the shards' runs so far in the sweep views "
           "(File → Open sweep results… on it again shows later ones)"));
    m_follow->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_write, &QPushButton::clicked, this, [this] {
        QString error;
        if (!writeJobs(&error)) m_output->setPlainText(tr("Not written: %1").arg(error));
    });
    connect(m_copy, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(fromStd(m_written.jobs.submitCommand));
    });
    connect(m_follow, &QPushButton::clicked, this, [this] {
        emit followRequested(fromStd(SweepJobFiles(m_written.manifest.mergedFile).manifest));
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_output, 1);
    layout->addWidget(buttons);

    for (QLineEdit* edit : {m_results, m_time, m_mem, m_partition, m_account, m_qos, m_pfaCli}) {
        connect(edit, &QLineEdit::textChanged, this, &ClusterJobDialog::updateSummary);
    }
    for (QSpinBox* box : {m_shards, m_cpus})
        connect(box, &QSpinBox::valueChanged, this, &ClusterJobDialog::updateSummary);
    updateSummary();
}

pfa::SlurmJobOptions ClusterJobDialog::options() const {
    pfa::SlurmJobOptions o;
    o.cpusPerTask = m_cpus->value();
    o.time = m_time->text().trimmed().toStdString();
    o.mem = m_mem->text().trimmed().toStdString();
    o.partition = m_partition->text().trimmed().toStdString();
    o.account = m_account->text().trimmed().toStdString();
    o.qos = m_qos->text().trimmed().toStdString();
    o.pfaCli = QFileInfo(m_pfaCli->text().trimmed()).absoluteFilePath().toStdString();
    o.workDir = QFileInfo(m_results->text().trimmed()).absolutePath().toStdString();
    o.writtenBy = "PFA Explorer (Run on a cluster…)";
    return o;
}

void ClusterJobDialog::updateSummary() {
    QString problem;
    const QString results = m_results->text().trimmed();
    static const QRegularExpression time(QStringLiteral(R"(^(\d+-)?\d+(:\d{1,2}){0,2}$)"));
    static const QRegularExpression memory(QStringLiteral(R"(^\d+[KMGT]?$)"));
    static const QRegularExpression word(QStringLiteral(R"(^[^\s'"]*$)"));
    if (results.isEmpty() || !results.endsWith(QLatin1String(".jsonl")))
        problem = tr("Choose a results file ending in .jsonl.");
    else if (!m_time->text().trimmed().isEmpty() &&
             !time.match(m_time->text().trimmed()).hasMatch())
        problem = tr("The time limit '%1' is not a Slurm time (e.g. 02:00:00 or 1-00:00:00).")
                      .arg(m_time->text().trimmed());
    else if (!m_mem->text().trimmed().isEmpty() &&
             !memory.match(m_mem->text().trimmed()).hasMatch())
        problem = tr("The memory '%1' is not a Slurm size (e.g. 8G or 16000M).")
                      .arg(m_mem->text().trimmed());
    else if (!word.match(m_partition->text().trimmed()).hasMatch() ||
             !word.match(m_account->text().trimmed()).hasMatch() ||
             !word.match(m_qos->text().trimmed()).hasMatch())
        problem = tr("Partition, account and QoS are single words.");
    else if (m_pfaCli->text().trimmed().isEmpty())
        problem = tr("Say which pfa-cli the tasks run.");
    m_problem = problem;
    m_write->setEnabled(problem.isEmpty());
    if (!problem.isEmpty()) {
        m_summary->setText(problem);
        return;
    }
    try {
        // The plan depends on the shards alone: expanded again only when they change, not on
        // every keystroke in the other fields.
        if (!m_plan || m_plan->first != m_shards->value()) {
            m_plan.emplace(m_shards->value(), pfa::planClusterSweep(m_sweep, results.toStdString(),
                                                                    m_shards->value(), m_size));
        }
        const pfa::SweepManifest& plan = m_plan->second;
        const std::vector<long> perShard = pfa::runsPerShard(plan);
        const long largest = *std::max_element(perShard.begin(), perShard.end());
        const pfa::SlurmEstimates e = pfa::slurmEstimates(plan, options(), largest);
        QString text = tr("%1 run(s) in %2 array task(s) of up to %3 run(s); each task asks for "
                          "%4 CPU(s), %5 and %6 of memory.")
                           .arg(plan.runs.size())
                           .arg(plan.shards)
                           .arg(largest)
                           .arg(m_cpus->value())
                           .arg(fromStd(e.time), fromStd(e.mem));
        if (plan.seeds > 1 && plan.seeds % plan.shards != 0)
            text += tr(" %1 shards split the %2 seeds unevenly: runs that share batches by seed "
                       "then train apart (slower); a divisor of %2 keeps them together.")
                        .arg(plan.shards)
                        .arg(plan.seeds);
        if (m_sweep.dataset.name == "file")
            text += tr(" The tasks read your file at %1: the nodes must see it there.")
                        .arg(fromStd(m_sweep.dataset.filePath));
        m_summary->setText(text);
    } catch (const std::exception& error) {
        m_problem = QString::fromStdString(error.what());
        m_write->setEnabled(false);
        m_summary->setText(m_problem);
    }
}

bool ClusterJobDialog::writeJobs(QString* error) {
    if (!m_problem.isEmpty()) {
        if (error) *error = m_problem;
        return false;
    }
    try {
        m_written = pfa::writeClusterSweep(m_sweep, m_results->text().trimmed().toStdString(),
                                           m_shards->value(), m_size, m_dataDirectory.toStdString(),
                                           options());
    } catch (const std::exception& problem) {
        if (error) *error = QString::fromStdString(problem.what());
        return false;
    }
    const SweepJobFiles files(m_written.manifest.mergedFile);
    QString text =
        tr("Wrote:\n  %1 (the sweep; pfa-cli train --preset reads it)\n  %2 (every "
           "run's key and shard)\n  %3/ (array.sbatch, merge.sbatch, submit.sh; "
           "logs/)\n\nOn the cluster (where these paths, pfa-cli and the data are "
           "the same), submit the array and its merge with:\n  %4\n\nFollow it "
           "with:\n  pfa-cli status --manifest %5\nor here: Follow in sweep views "
           "(File → Open sweep results… on the manifest).\nA cancelled or failed "
           "task: the merge job names it; pfa-cli cluster slurm --resume %5 writes "
           "an array of only the incomplete shards.")
            .arg(fromStd(m_written.sweepFile), fromStd(files.manifest), fromStd(files.jobsDir),
                 fromStd(m_written.jobs.submitCommand), fromStd(shellQuote(files.manifest)));
    m_output->setPlainText(text);
    m_copy->setEnabled(true);
    m_follow->setEnabled(true);
    return true;
}

}  // namespace pfa::ui
