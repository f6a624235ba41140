#pragma once

#include <QColor>
#include <QLabel>
#include <QPalette>
#include <QResizeEvent>
#include <algorithm>

namespace pfa::ui {

/// A word-wrapped label that always gets the height its text needs at its width. A form whose
/// labels wrap too (the generated rows' labels) underestimates the height of wrapped text in
/// its field column, and the lines of the data set's and the algorithm's descriptions were
/// cut off.
///
/// It does not answer height-for-width to the layouts: its minimum height follows its width
/// instead. Qt 6.4's QFormLayout lays out a form with height-for-width items by per-row heights
/// that rows hidden earlier overwrite (their stale slots), squeezing other rows to nothing; a
/// form without such items takes the plain path.
class FittingLabel : public QLabel {
public:
    explicit FittingLabel(const QString& text = QString()) : QLabel(text) { setWordWrap(true); }

    bool hasHeightForWidth() const override { return false; }
    /// At least the height the text needs at the label's current width (asked again whenever
    /// the text or the width changes).
    QSize minimumSizeHint() const override { return fitted(QLabel::minimumSizeHint()); }
    QSize sizeHint() const override { return fitted(QLabel::sizeHint()); }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        if (event->oldSize().width() != event->size().width()) updateGeometry();
    }
    QSize fitted(QSize size) const {
        if (!text().isEmpty() && width() > 0)
            size.setHeight(std::max(size.height(), heightForWidth(width())));
        return size;
    }
};

/// A grey explanatory line under a control (plain text: group and file names are never markup).
inline QLabel* hintLabel(const QString& text) {
    auto* label = new FittingLabel(text);
    label->setTextFormat(Qt::PlainText);
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, QColor(90, 90, 90));
    label->setPalette(palette);
    return label;
}

}  // namespace pfa::ui
