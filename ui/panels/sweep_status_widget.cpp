#include "ui/panels/sweep_status_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <algorithm>
#include <cmath>

namespace pfa::ui {

SweepStatusWidget::SweepStatusWidget(QWidget* parent) : QWidget(parent) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_label = new QLabel();
    m_bar = new QProgressBar();
    m_bar->setMaximumWidth(220);
    auto* stop = new QPushButton(tr("Stop sweep"));
    stop->setToolTip(tr("Stop all runs of the sweep within one minibatch; finished runs are kept"));
    connect(stop, &QPushButton::clicked, this, &SweepStatusWidget::stopRequested);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(stop);
    setVisible(false);
}

void SweepStatusWidget::start(int runs) {
    m_bar->setRange(0, std::max(1, runs));
    m_bar->setValue(0);
    m_label->setText(tr("Sweep: starting %1 runs…").arg(runs));
    setVisible(true);
}

void SweepStatusWidget::showProgress(const pfa::SweepProgress& p) {
    const std::size_t done = p.finished + p.alreadyDone;
    m_bar->setRange(0, static_cast<int>(std::max<std::size_t>(1, p.total)));
    m_bar->setValue(static_cast<int>(done));
    m_label->setText(tr("Sweep: %1 of %2 runs done, %3 failed, about %4 s left")
                         .arg(done)
                         .arg(p.total)
                         .arg(p.failed)
                         .arg(std::ceil(p.etaSeconds)));
}

void SweepStatusWidget::finish() { setVisible(false); }

QString SweepStatusWidget::text() const { return m_label->text(); }

}  // namespace pfa::ui
