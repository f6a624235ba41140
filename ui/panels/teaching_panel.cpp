#include "ui/panels/teaching_panel.h"

#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QLineEdit>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include "core/sweep/sweep_spec.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/teaching_texts.h"

namespace pfa::ui {

namespace {

constexpr TeachingPanel::Topic kTopics[] = {
    TeachingPanel::Topic::Algorithm, TeachingPanel::Topic::Privacy, TeachingPanel::Topic::Lambda,
    TeachingPanel::Topic::Fairness, TeachingPanel::Topic::Data};

}  // namespace

TeachingPanel::TeachingPanel(QWidget* parent) : QWidget(parent) {
    m_browser = new QTextBrowser();
    m_browser->setObjectName(QStringLiteral("teachingText"));
    m_browser->setOpenLinks(false);
    m_browser->setFrameShape(QFrame::NoFrame);
    m_browser->setToolTip(
        tr("Plain-words explanations with the numbers of the current run; the "
           "control you are on in the experiment panel comes first"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    m_hoverDelay = new QTimer(this);
    m_hoverDelay->setSingleShot(true);
    m_hoverDelay->setInterval(250);  // passing over a control on the way elsewhere changes nothing
    connect(m_hoverDelay, &QTimer::timeout, this, [this] {
        if (m_hoverTopic) setTopic(*m_hoverTopic);
    });
    refresh();
}

void TeachingPanel::offerDataset(const pfa::PreparedDatasetPtr& data) {
    if (data && m_panel && data->key == pfa::datasetKey(m_panel->datasetRequest()))
        setDataset(data);
}

void TeachingPanel::failRun(int runId) {
    if (runId != m_facts.runId) return;
    m_facts.running = false;
    refresh();
}

void TeachingPanel::follow(ExperimentPanel* panel) {
    m_panel = panel;
    setConfig(panel->config());
    connect(panel, &ExperimentPanel::configChanged, this,
            [this, panel] { setConfig(panel->config()); });
    connect(panel, &ExperimentPanel::datasetRequestChanged, this, [this] { setDataset(nullptr); });

    watch(panel->algorithmBox(), Topic::Algorithm);
    watch(panel->epsilonControl(), Topic::Privacy);
    if (QLineEdit* delta = panel->deltaEdit()) watch(delta, Topic::Privacy);
    watch(panel->lambdaControl(), Topic::Lambda);
    watch(panel->fairnessBox(), Topic::Fairness);
    watch(panel->datasetBox(), Topic::Data);
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
        if (const auto topic = topicOf(now)) setTopic(*topic);
    });
}

void TeachingPanel::watch(QWidget* widget, Topic topic) {
    if (!widget) return;
    m_watched.emplace_back(widget, topic);
    // Enter and Leave reach every widget the mouse enters, the control as well as its parts.
    widget->installEventFilter(this);
}

std::optional<TeachingPanel::Topic> TeachingPanel::topicOf(const QWidget* widget) const {
    for (; widget; widget = widget->parentWidget()) {
        for (const auto& [watched, topic] : m_watched) {
            if (watched == widget) return topic;
        }
    }
    return std::nullopt;
}

bool TeachingPanel::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Enter) {
        m_hoverTopic = topicOf(qobject_cast<QWidget*>(watched));
        if (m_hoverTopic) m_hoverDelay->start();
    } else if (event->type() == QEvent::Leave) {
        m_hoverDelay->stop();
        m_hoverTopic.reset();
    }
    return QWidget::eventFilter(watched, event);
}

void TeachingPanel::setTopic(Topic topic) {
    if (topic == m_topic) return;
    m_topic = topic;
    refresh();
}

void TeachingPanel::setConfig(const pfa::TrainConfig& config) {
    m_facts.config = config;
    refresh();
}

void TeachingPanel::setDataset(const pfa::PreparedDatasetPtr& data) {
    m_facts.data = data;
    refresh();
}

void TeachingPanel::beginRun(int runId, const pfa::TrainConfig& config) {
    m_facts.runId = runId;
    m_facts.running = true;
    m_facts.runConfig = config;
    m_facts.latest.reset();
    m_facts.finished.reset();
    refresh();
}

void TeachingPanel::addEpochs(int runId, const std::vector<pfa::EpochMetrics>& metrics) {
    if (runId != m_facts.runId || metrics.empty()) return;
    m_facts.latest = metrics.back();
    refresh();
}

void TeachingPanel::finishRun(const RunEntryPtr& entry) {
    if (!entry) return;
    m_facts.runId = entry->id;
    m_facts.running = false;
    m_facts.runConfig = entry->result.config;
    m_facts.finished = entry;
    m_facts.lastFinished = entry;
    if (!entry->result.history.empty()) m_facts.latest = entry->result.history.back();
    refresh();
}

QString TeachingPanel::text() const { return m_browser->toPlainText(); }

QString TeachingPanel::topicText(Topic topic) const {
    QTextDocument document;
    document.setHtml(topicHtml(topic));
    return document.toPlainText();
}

void TeachingPanel::refresh() {
    // The focused topic first, in a highlighted box; the others after it in their usual order.
    QString html = QStringLiteral("<html><body>");
    const auto box = [](const QString& content, bool focused) {
        return focused ? QStringLiteral(
                             "<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\" "
                             "border=\"1\" style=\"border-color:#d9a400; "
                             "border-style:solid;\" bgcolor=\"#fff5cc\"><tr><td>") +
                             content + QStringLiteral("</td></tr></table>")
                       : QStringLiteral(
                             "<table width=\"100%\" cellpadding=\"8\" cellspacing=\"0\" "
                             "border=\"0\"><tr><td>") +
                             content + QStringLiteral("</td></tr></table>");
    };
    html += box(topicHtml(m_topic), true);
    for (Topic topic : kTopics) {
        if (topic != m_topic) html += box(topicHtml(topic), false);
    }
    html += QStringLiteral("</body></html>");
    // New numbers keep the reader's place; a new topic is read from the top.
    const bool sameTopic = m_shownTopic == m_topic;
    const int scroll = m_browser->verticalScrollBar()->value();
    m_browser->setHtml(html);
    m_browser->verticalScrollBar()->setValue(sameTopic ? scroll : 0);
    m_shownTopic = m_topic;
}

QString TeachingPanel::topicHtml(Topic topic) const {
    switch (topic) {
        case Topic::Algorithm:
            return teaching_texts::algorithmHtml(m_facts);
        case Topic::Privacy:
            return teaching_texts::privacyHtml(m_facts);
        case Topic::Lambda:
            return teaching_texts::lambdaHtml(m_facts);
        case Topic::Fairness:
            return teaching_texts::fairnessHtml(m_facts);
        case Topic::Data:
            return teaching_texts::dataHtml(m_facts);
    }
    return {};
}

}  // namespace pfa::ui
