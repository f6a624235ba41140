#pragma once

#include <QPointer>
#include <QWidget>
#include <optional>
#include <utility>
#include <vector>

#include "core/config/run_result.h"
#include "core/config/train_config.h"
#include "core/sweep/prepared_dataset.h"
#include "ui/panels/teaching_texts.h"
#include "ui/runs/run_entry.h"

class QTextBrowser;
class QTimer;

namespace pfa::ui {

class ExperimentPanel;

/// A dock's content for teaching: what the selected algorithm does, what ε and δ promise,
/// what λ trades and what the fairness notion measures on the current groups, in plain words
/// and with the numbers of the current run. The topic of the control the user is on (focus or
/// hover in the experiment panel) comes first, highlighted.
///
/// Privacy numbers follow the privacy statement's rules: the ε the user chose is always
/// labelled as the target; an ε read as "spent" is only ever one the run's accountant
/// certified (the epochs' epsilonSpent or the run's privacy report).
class TeachingPanel : public QWidget {
    Q_OBJECT
public:
    /// What the panel explains; the order of the enum is the order of the sections.
    enum class Topic { Algorithm, Privacy, Lambda, Fairness, Data };
    Q_ENUM(Topic)

    explicit TeachingPanel(QWidget* parent = nullptr);

    /// Follows `panel`'s settings and the control the user is on. The runs and the data sets
    /// arrive through beginRun, addEpochs, finishRun, failRun and offerDataset (the window
    /// connects them: connectTeaching, ui/shell/panel_wiring.h).
    void follow(ExperimentPanel* panel);
    /// A data set finished loading: shown when it is the one `panel` (of follow) asks for.
    void offerDataset(const pfa::PreparedDatasetPtr& data);

    /// The settings as chosen (ε and δ there are targets).
    void setConfig(const pfa::TrainConfig& config);
    /// The data set the runs use (null: none loaded).
    void setDataset(const pfa::PreparedDatasetPtr& data);
    /// A run started with `config` (automatic values such as δ resolved).
    void beginRun(int runId, const pfa::TrainConfig& config);
    /// Epoch metrics of the run `runId`, in order.
    void addEpochs(int runId, const std::vector<pfa::EpochMetrics>& metrics);
    /// A run ended (its final test metrics and privacy report).
    void finishRun(const RunEntryPtr& entry);
    /// The run `runId` failed.
    void failRun(int runId);

    /// Brings `topic` to the top and highlights it.
    void setTopic(Topic topic);
    Topic topic() const { return m_topic; }
    /// Registers `widget` (and everything inside it) as a control about `topic`: focusing it
    /// shows the topic at once, resting the mouse on it shortly after.
    void watch(QWidget* widget, Topic topic);

    /// The whole text as shown (plain), and one topic's text.
    QString text() const;
    QString topicText(Topic topic) const;
    QTextBrowser* browser() const { return m_browser; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refresh();
    /// The topic of the watched control `widget` is in, if any.
    std::optional<Topic> topicOf(const QWidget* widget) const;
    /// One topic's text (teaching_texts) from the facts now.
    QString topicHtml(Topic topic) const;

    QTextBrowser* m_browser;
    QTimer* m_hoverDelay;
    Topic m_topic = Topic::Algorithm;
    std::optional<Topic> m_shownTopic;  ///< the topic on top of the text last shown
    std::optional<Topic> m_hoverTopic;
    std::vector<std::pair<QPointer<QWidget>, Topic>> m_watched;

    QPointer<ExperimentPanel> m_panel;  ///< the panel followed (follow)
    /// The settings, the data set and the run shown, which the texts are written from.
    TeachingFacts m_facts;
};

}  // namespace pfa::ui
