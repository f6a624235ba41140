#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QToolButton;

namespace pfa::ui {

/// The sensitive attribute of the chosen data set, one row of the experiment panel: a choice of
/// the catalog data set's attributes (or the one attribute a built-in or imported data set
/// has) and a button whose checkable menu adds further attributes, whose intersections then
/// form the groups ("Female & non-White"). Choices that cannot be combined (a number split at a
/// threshold, two readings of one column) are disabled with the reason.
class SensitiveChooser : public QWidget {
    Q_OBJECT
public:
    explicit SensitiveChooser(QWidget* parent = nullptr);

    /// Offers the sensitive choices of the catalog data set `catalog`, the first chosen.
    void showCatalog(const QString& catalog);
    /// Offers the one attribute a built-in or imported data set has, described by `label`
    /// (a null label: none to show).
    void showFixed(const QString& label);

    /// The chosen id, or several joined by "+" (intersections); "" unless a catalog data set
    /// is shown.
    QString id() const;
    /// Selects `id` (possibly several joined by "+") without signalling changed().
    void selectId(const QString& id);

    QComboBox* box() const { return m_box; }
    QToolButton* intersectButton() const { return m_intersect; }

signals:
    /// The user chose another attribute or combination.
    void changed();

private:
    /// Fills the intersect menu with the catalog choices other than the one chosen, keeping
    /// those of `checked` that can still be combined.
    void rebuildIntersectMenu(const QStringList& checked);
    void updateIntersectButton();
    QStringList checkedExtras() const;

    QString m_catalog;
    QComboBox* m_box;
    QToolButton* m_intersect;
};

}  // namespace pfa::ui
