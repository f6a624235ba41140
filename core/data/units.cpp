#include "core/data/units.h"

#include <algorithm>

namespace pfa {

UnitIndex::UnitIndex(std::span<const int> unitIdOfRow, const std::vector<std::string>& namesById) {
    build(unitIdOfRow, namesById);
}

UnitIndex::UnitIndex(const Eigen::VectorXi& unitIdOfRow,
                     const std::vector<std::string>& namesById) {
    build(std::span<const int>(unitIdOfRow.data(), static_cast<std::size_t>(unitIdOfRow.size())),
          namesById);
}

void UnitIndex::build(std::span<const int> unitIdOfRow, const std::vector<std::string>& namesById) {
    m_ids.assign(unitIdOfRow.begin(), unitIdOfRow.end());
    std::sort(m_ids.begin(), m_ids.end());
    m_ids.erase(std::unique(m_ids.begin(), m_ids.end()), m_ids.end());

    // A counting sort by unit position: stable, so rows stay ascending within each unit.
    const std::size_t unitCount = m_ids.size();
    m_unitOfRow.resize(unitIdOfRow.size());
    m_offsets.assign(unitCount + 1, 0);
    for (std::size_t row = 0; row < unitIdOfRow.size(); ++row) {
        const auto position = std::lower_bound(m_ids.begin(), m_ids.end(), unitIdOfRow[row]);
        m_unitOfRow[row] = static_cast<long>(position - m_ids.begin());
        ++m_offsets[static_cast<std::size_t>(m_unitOfRow[row]) + 1];
    }
    for (std::size_t unit = 0; unit < unitCount; ++unit) m_offsets[unit + 1] += m_offsets[unit];
    std::vector<long> next(m_offsets.begin(), m_offsets.end() - 1);
    m_rowOrder.resize(unitIdOfRow.size());
    for (std::size_t row = 0; row < unitIdOfRow.size(); ++row) {
        const auto unit = static_cast<std::size_t>(m_unitOfRow[row]);
        m_rowOrder[static_cast<std::size_t>(next[unit]++)] = static_cast<long>(row);
    }

    m_names.resize(unitCount);
    for (std::size_t unit = 0; unit < unitCount; ++unit) {
        const int id = m_ids[unit];
        const bool named = id >= 0 && static_cast<std::size_t>(id) < namesById.size() &&
                           !namesById[static_cast<std::size_t>(id)].empty();
        m_names[unit] = named ? namesById[static_cast<std::size_t>(id)] : std::to_string(id);
    }

    m_maxRowsPerUnit = 0;
    m_minRowsPerUnit = 0;
    for (long unit = 0; unit < units(); ++unit) {
        const long count = rowCount(unit);
        m_maxRowsPerUnit = std::max(m_maxRowsPerUnit, count);
        m_minRowsPerUnit = unit == 0 ? count : std::min(m_minRowsPerUnit, count);
    }
}

std::optional<long> UnitIndex::find(int id) const {
    const auto position = std::lower_bound(m_ids.begin(), m_ids.end(), id);
    if (position == m_ids.end() || *position != id) return std::nullopt;
    return static_cast<long>(position - m_ids.begin());
}

std::vector<long> matchUnits(const UnitIndex& from, const UnitIndex& to) {
    std::vector<long> positions(static_cast<std::size_t>(from.units()), -1);
    for (long unit = 0; unit < from.units(); ++unit) {
        if (const std::optional<long> match = to.find(from.id(unit))) {
            positions[static_cast<std::size_t>(unit)] = *match;
        }
    }
    return positions;
}

}  // namespace pfa
