#include "ui/runs/run_history_model.h"

#include <QBrush>
#include <QTextDocument>
#include <algorithm>
#include <cmath>
#include <set>

#include "core/util/format.h"
#include "ui/runs/run_variants.h"
#include "ui/support/palette.h"

namespace pfa::ui {

namespace {

QString number(double value, int digits = 4) {
    if (std::isinf(value)) return QStringLiteral("∞");
    if (std::isnan(value)) return QStringLiteral("–");
    return QString::fromStdString(pfa::formatNumber(value, digits));
}

}  // namespace

RunHistoryModel::RunHistoryModel(QObject* parent) : QAbstractTableModel(parent) {
    connect(this, &RunHistoryModel::entriesChanged, this, &RunHistoryModel::updateVariants);
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int RunHistoryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::DisplayRole) {
        static const char* const names[] = {
            "#",        "Algorithm", "Data set",  "Fairness", "ε",        "λ",      "Seed",
            "Progress", "Error",     "Violation", "ε spent",  "Protects", "Status", "Finished"};
        return QString::fromUtf8(names[section]);
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case Epsilon:
                return tr("Privacy budget the run was asked to meet (∞ = no privacy)");
            case Epochs:
                return tr(
                    "How far the run got, in its algorithm's own unit: epochs over the "
                    "training rows, rounds or steps");
            case EpsilonSpent:
                return tr("ε certified by the Rényi-DP accountant at the run's δ");
            case Violation:
                return tr("Fairness violation of the run's notion on the test set");
            case TestError:
                return tr("Share of misclassified test rows");
            case Protects:
                return tr(
                    "What the run's guarantee protects: the unit of privacy (a record, a "
                    "user, or only a record's sensitive attribute) and the adjacency "
                    "(add/remove-one or replace-one). Runs that differ here make claims "
                    "about different things: their ε are not comparable.");
            default:
                return {};
        }
    }
    return {};
}

void RunHistoryModel::updateVariants() {
    std::vector<const pfa::TrainConfig*> configs;
    for (const RunEntryPtr& entry : m_entries) configs.push_back(&entry->result.config);
    const RunVariants variants(configs);
    std::map<int, std::string> labels;
    for (const RunEntryPtr& entry : m_entries) {
        const std::string label = variants.label(entry->result.config);
        if (label != entry->result.config.algorithm) labels[entry->id] = label;
    }
    if (labels == m_variants) return;
    m_variants = std::move(labels);
    if (!m_entries.empty())
        emit dataChanged(index(0, Algorithm), index(rowCount() - 1, Algorithm), {Qt::DisplayRole});
}

void RunHistoryModel::setEpsilonPalette(const chart_style::EpsilonPalette& palette) {
    if (palette == m_palette) return;
    m_palette = palette;
    if (!m_entries.empty())
        emit dataChanged(index(0, Epsilon), index(rowCount() - 1, Epsilon), {Qt::DecorationRole});
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const RunEntry& e = *m_entries[static_cast<std::size_t>(index.row())];
    const pfa::TrainConfig& c = e.result.config;
    if (role == RunIdRole) return e.id;
    if (role == SortRole) {
        switch (index.column()) {
            case Id:
                return e.id;
            case Epsilon:
                return std::isinf(c.epsilon) ? 1e300 : c.epsilon;
            case Lambda:
                return c.lambda;
            case Seed:
                return static_cast<qulonglong>(c.seed);
            case Epochs:
                return static_cast<double>(e.progressDone());
            case TestError:
                return e.result.test.error;
            case Violation:
                return e.violation();
            case EpsilonSpent:
                return std::isinf(e.certifiedEpsilon()) ? 1e300 : e.certifiedEpsilon();
            case Finished:
                return e.finished;
            default:
                return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
            case Id:
                return e.id;
            case Algorithm: {
                // Named by the own settings that tell it from the algorithm's other runs listed
                // ("isrl-dp-sgd (trust = local)").
                const auto variant = m_variants.find(e.id);
                return QString::fromStdString(variant != m_variants.end() ? variant->second
                                                                          : c.algorithm);
            }
            case Dataset:
                return QString::fromStdString(e.result.dataset);
            case Notion:
                return QString::fromStdString(pfa::fairnessCode(c.fairness));
            case Epsilon:
                return number(c.epsilon, 3);
            case Lambda:
                return number(c.lambda, 3);
            case Seed:
                return static_cast<qulonglong>(c.seed);
            case Epochs:
                return e.progressText();  // in the algorithm's own unit (epochs, rounds, steps)
            case TestError:
                return number(e.result.test.error);
            case Violation:
                return number(e.violation());
            case EpsilonSpent:
                return number(e.certifiedEpsilon(), 3);
            case Protects:
                return e.protectionText();
            case Status:
                return e.statusText();
            case Finished:
                return e.finished.toString(QStringLiteral("HH:mm:ss"));
            default:
                return {};
        }
    }
    if (role == Qt::DecorationRole && index.column() == Epsilon) {
        return m_palette.color(c.epsilon);
    }
    // Tooltips take markup; the summary quotes data-set and class names.
    if (role == Qt::ToolTipRole) return Qt::convertFromPlainText(e.summary(), Qt::WhiteSpaceNormal);
    if (role == Qt::ForegroundRole && !e.isComplete()) return QBrush(QColor(140, 140, 140));
    if (role == Qt::TextAlignmentRole && index.column() != Algorithm && index.column() != Dataset &&
        index.column() != Status && index.column() != Protects) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

void RunHistoryModel::append(const RunEntryPtr& entry) { insert(rowCount(), entry); }

void RunHistoryModel::append(const std::vector<RunEntryPtr>& entries) {
    if (entries.empty()) return;
    beginInsertRows({}, rowCount(), rowCount() + static_cast<int>(entries.size()) - 1);
    m_entries.insert(m_entries.end(), entries.begin(), entries.end());
    endInsertRows();
    emit entriesChanged();
}

int RunHistoryModel::appendUnlisted(const std::vector<RunEntryPtr>& entries) {
    std::set<std::string> known;
    for (const RunEntryPtr& entry : m_entries) {
        if (!entry->context.runKey.empty()) known.insert(entry->context.runKey);
    }
    std::vector<RunEntryPtr> fresh;
    for (const RunEntryPtr& entry : entries) {
        if (entry->context.runKey.empty() || known.insert(entry->context.runKey).second)
            fresh.push_back(entry);
    }
    append(fresh);
    return static_cast<int>(fresh.size());
}

void RunHistoryModel::insert(int row, const RunEntryPtr& entry) {
    row = std::clamp(row, 0, rowCount());
    beginInsertRows({}, row, row);
    m_entries.insert(m_entries.begin() + row, entry);
    endInsertRows();
    emit entriesChanged();
}

int RunHistoryModel::remove(int id) {
    const int row = rowOf(id);
    if (row < 0) return -1;
    beginRemoveRows({}, row, row);
    m_entries.erase(m_entries.begin() + row);
    endRemoveRows();
    emit entriesChanged();
    return row;
}

void RunHistoryModel::clear() { setEntries({}); }

void RunHistoryModel::setEntries(std::vector<RunEntryPtr> entries) {
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
    emit entriesChanged();
}

RunEntryPtr RunHistoryModel::entry(int id) const {
    const int row = rowOf(id);
    return row < 0 ? nullptr : m_entries[static_cast<std::size_t>(row)];
}

int RunHistoryModel::rowOf(int id) const {
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i]->id == id) return static_cast<int>(i);
    }
    return -1;
}

}  // namespace pfa::ui
