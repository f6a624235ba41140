#include "ui/shell/guided_tour.h"

#include <QComboBox>
#include <QDockWidget>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/charts/tradeoff_chart.h"
#include "ui/panels/epsilon_control.h"
#include "ui/panels/experiment_panel.h"
#include "ui/panels/lambda_control.h"
#include "ui/panels/teaching_panel.h"
#include "ui/shell/main_window.h"

namespace pfa::ui {

namespace {

const QColor kAccent(0xd9, 0x8c, 0x00);  // the outline round the target and the bubble's edge

/// Makes `widget` visible to the user: its dock raised, its scroll area scrolled to it.
void reveal(QWidget* widget) {
    for (QWidget* w = widget; w; w = w->parentWidget()) {
        if (auto* dock = qobject_cast<QDockWidget*>(w)) {
            dock->show();
            dock->raise();
        }
    }
    for (QWidget* w = widget->parentWidget(); w; w = w->parentWidget()) {
        if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
            scroll->ensureWidgetVisible(widget, 10, 10);
            break;
        }
    }
}

}  // namespace

const char* GuidedTour::seenKey() { return "tour/seen"; }

GuidedTour* GuidedTour::of(MainWindow* window) {
    if (auto* tour = window->findChild<GuidedTour*>(QString(), Qt::FindDirectChildrenOnly))
        return tour;
    return new GuidedTour(window);
}

bool GuidedTour::showOnFirstLaunch(MainWindow* window) {
    if (qEnvironmentVariableIsSet("PFA_NO_TOUR")) return false;
    if (QSettings().value(QLatin1String(seenKey()), false).toBool()) return false;
    // After the window has laid out its docks (they are sized when it is first shown).
    QTimer::singleShot(400, window, [window] { of(window)->start(); });
    return true;
}

GuidedTour::GuidedTour(MainWindow* window) : QWidget(window), m_window(window) {
    setObjectName(QStringLiteral("guidedTour"));
    setAttribute(Qt::WA_TransparentForMouseEvents);  // the window stays usable: not modal
    setAttribute(Qt::WA_NoSystemBackground);
    hide();

    ExperimentPanel* panel = window->experimentPanel();
    const auto runButton = [window]() -> QWidget* {
        for (QToolBar* bar : window->findChildren<QToolBar*>()) {
            if (QWidget* button = bar->widgetForAction(window->runAction())) return button;
        }
        return nullptr;
    };
    m_steps = {
        {tr("Pick the data"),
         tr("Start here: choose a data set. The built-in <b>synthetic</b> data is ready at once; "
            "its two groups have different base rates, so an accurate model treats them "
            "differently."),
         [panel] { return panel->datasetBox(); }},
        {tr("Run"),
         tr("Press <b>Run</b>. The charts in the middle draw the test error and the fairness "
            "violation epoch by epoch, and the privacy spent so far."),
         runButton},
        {tr("Move λ"),
         tr("λ weighs fairness against accuracy. Drag it up: the violation falls and the test "
            "error usually rises. With <b>Live mode</b> on, every change reruns at once."),
         [panel] { return panel->lambdaControl(); }},
        {tr("Move ε"),
         tr("ε is the privacy budget. A smaller ε adds more noise: more privacy and, on average, "
            "a less accurate model. One run is one draw of that noise, so a single run at a small "
            "ε can come out ahead of one at a larger ε; λ and ε also interact. To see the spread, "
            "right-click a point of the tradeoff chart: <i>Run this point with 4 more seeds</i> "
            "(or compare seeds in Sweep → New sweep…). ε = ∞ turns privacy off."),
         [panel] { return panel->epsilonControl(); }},
        {tr("Read the tradeoff"),
         tr("Every finished run becomes a point here: test error against violation. Runs at "
            "several λ trace the curve; compare the curves of different ε to see the price of "
            "privacy."),
         [window] { return window->tradeoffChart(); }},
        {tr("Ask the teaching panel"),
         tr("The <b>Teaching panel</b> explains the control you are on, with the numbers of the "
            "current run. Show or hide it from View; reopen this tour from Help → Guided tour."),
         [window]() -> QWidget* { return window->findChild<TeachingPanel*>(); }},
    };

    m_bubble = new QFrame(window);
    m_bubble->setObjectName(QStringLiteral("guidedTourBubble"));
    m_bubble->setFrameShape(QFrame::StyledPanel);
    m_bubble->setAutoFillBackground(true);
    m_bubble->setStyleSheet(QStringLiteral("QFrame#guidedTourBubble { background: #fffdf4; border: "
                                           "2px solid %1; border-radius: 8px; }"
                                           "QLabel { background: transparent; color: #202020; }")
                                .arg(kAccent.name()));
    m_counter = new QLabel();
    m_counter->setStyleSheet(QStringLiteral("color: #7a5a00;"));
    m_title = new QLabel();
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    m_title->setFont(titleFont);
    m_text = new QLabel();
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_back = new QPushButton(tr("Back"));
    m_next = new QPushButton(tr("Next"));
    m_skip = new QPushButton(tr("Skip tour"));
    m_back->setToolTip(tr("The previous step"));
    m_next->setToolTip(tr("The next step"));
    m_skip->setToolTip(tr("Close the tour; Help → Guided tour shows it again"));
    m_next->setDefault(true);
    auto* buttons = new QHBoxLayout();
    buttons->addWidget(m_skip);
    buttons->addStretch();
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    auto* layout = new QVBoxLayout(m_bubble);
    layout->setContentsMargins(16, 12, 16, 12);
    layout->addWidget(m_counter);
    layout->addWidget(m_title);
    layout->addWidget(m_text);
    layout->addLayout(buttons);
    m_bubble->hide();
    connect(m_back, &QPushButton::clicked, this, &GuidedTour::back);
    connect(m_next, &QPushButton::clicked, this, &GuidedTour::next);
    connect(m_skip, &QPushButton::clicked, this, &GuidedTour::skip);
    window->installEventFilter(this);  // follows the window's size
}

QWidget* GuidedTour::currentTarget() const { return m_active ? m_target.data() : nullptr; }

QString GuidedTour::currentTitle() const { return m_active ? m_steps[m_step].title : QString(); }

void GuidedTour::start() {
    m_active = true;
    m_step = 0;
    showStep();
}

void GuidedTour::next() {
    if (!m_active) return;
    if (m_step + 1 >= stepCount()) {
        close(true);  // finished
        return;
    }
    ++m_step;
    showStep();
}

void GuidedTour::back() {
    if (!m_active || m_step == 0) return;
    --m_step;
    showStep();
}

void GuidedTour::skip() { close(true); }

void GuidedTour::close(bool seen) {
    if (m_target) m_target->removeEventFilter(this);
    m_active = false;
    m_target = nullptr;
    hide();
    m_bubble->hide();
    if (seen) QSettings().setValue(QLatin1String(seenKey()), true);
    emit closed();
}

void GuidedTour::showStep() {
    if (m_target) m_target->removeEventFilter(this);
    const Step& step = m_steps[m_step];
    m_target = step.target();
    if (m_target) {
        reveal(m_target);
        m_target->installEventFilter(this);  // follows the target when it moves or resizes
    }
    m_counter->setText(tr("Step %1 of %2").arg(m_step + 1).arg(stepCount()));
    m_title->setText(step.title);
    m_text->setText(step.text);
    m_back->setEnabled(m_step > 0);
    m_next->setText(m_step + 1 == stepCount() ? tr("Done") : tr("Next"));
    show();
    m_bubble->show();
    place();
    raise();
    m_bubble->raise();
    m_next->setFocus();
}

QRect GuidedTour::targetRect() const {
    if (!m_target || !m_target->isVisible()) return {};
    return QRect(m_target->mapTo(m_window, QPoint(0, 0)), m_target->size());
}

void GuidedTour::place() {
    setGeometry(m_window->rect());
    const QRect window = m_window->rect();
    const int width = std::min(380, window.width() - 24);
    m_bubble->setFixedWidth(width);
    m_bubble->adjustSize();
    const QSize size = m_bubble->size();
    const QRect target = targetRect();
    const int gap = 18;
    QPoint at;
    if (target.isNull()) {
        at = window.center() - QPoint(size.width() / 2, size.height() / 2);
    } else if (target.right() + gap + size.width() <= window.right()) {
        at = QPoint(target.right() + gap, target.center().y() - size.height() / 2);
    } else if (target.left() - gap - size.width() >= 0) {
        at = QPoint(target.left() - gap - size.width(), target.center().y() - size.height() / 2);
    } else if (target.bottom() + gap + size.height() <= window.bottom()) {
        at = QPoint(target.center().x() - size.width() / 2, target.bottom() + gap);
    } else {
        at = QPoint(target.center().x() - size.width() / 2, target.top() - gap - size.height());
    }
    at.setX(std::clamp(at.x(), 8, std::max(8, window.width() - size.width() - 8)));
    // Below the menu bar: the menus stay reachable while the tour is shown.
    const int top =
        m_window->menuBar()->isVisible() ? m_window->menuBar()->geometry().bottom() + 8 : 8;
    at.setY(std::clamp(at.y(), top, std::max(top, window.height() - size.height() - 8)));
    m_bubble->move(at);
    update();
}

bool GuidedTour::eventFilter(QObject* watched, QEvent* event) {
    // Closing the window during the tour counts as seeing it: it opens on a first launch only.
    if (m_active && watched == m_window && event->type() == QEvent::Close) close(true);
    if (m_active && (event->type() == QEvent::Resize || event->type() == QEvent::Move ||
                     event->type() == QEvent::Show || event->type() == QEvent::Hide)) {
        if (watched == m_window || watched == m_target) place();
    }
    return QWidget::eventFilter(watched, event);
}

void GuidedTour::paintEvent(QPaintEvent*) {
    const QRect target = targetRect();
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    // Dim everything but the target, so the eye finds it (a projector washes out thin lines).
    QPainterPath dim;
    dim.addRect(rect());
    if (!target.isNull()) {
        QPainterPath hole;
        hole.addRoundedRect(target.adjusted(-6, -6, 6, 6), 6, 6);
        dim = dim.subtracted(hole);
    }
    painter.fillPath(dim, QColor(0, 0, 0, 70));
    if (target.isNull()) return;
    painter.setPen(QPen(kAccent, 3));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(target.adjusted(-6, -6, 6, 6), 6, 6);
    // A pointer from the bubble's nearest edge to the target.
    const QRect bubble = m_bubble->geometry();
    const QPointF from(std::clamp(target.center().x(), bubble.left(), bubble.right()),
                       std::clamp(target.center().y(), bubble.top(), bubble.bottom()));
    const QRectF outline = target.adjusted(-6, -6, 6, 6);
    const QPointF to(std::clamp(from.x(), outline.left(), outline.right()),
                     std::clamp(from.y(), outline.top(), outline.bottom()));
    painter.drawLine(from, to);
    painter.setBrush(kAccent);
    painter.drawEllipse(to, 5, 5);
}

}  // namespace pfa::ui
