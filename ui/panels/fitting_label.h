#pragma once

#include <QColor>
#include <QLabel>
#include <QPalette>
#include <QResizeEvent>

namespace pfa::ui {

/// A word-wrapped label that always gets the height its text needs at its width. A form whose
/// labels wrap too (the generated rows' labels) underestimates the height of wrapped text in
/// its field column, and the lines of the data set's and the algorithm's descriptions were
/// cut off.
class FittingLabel : public QLabel {
public:
    explicit FittingLabel(const QString& text = QString()) : QLabel(text) { setWordWrap(true); }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        const int needed = text().isEmpty() ? 0 : heightForWidth(width());
        if (needed != minimumHeight()) setMinimumHeight(needed);
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
