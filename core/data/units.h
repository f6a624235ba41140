#pragma once

#include <Eigen/Core>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace pfa {

/// The rows of one data part grouped into units — users (all rows of one person) or silos (all
/// rows one institution holds) — for algorithms whose unit of privacy is not a row.
///
/// Layout, as a compressed sparse row matrix: unit u's rows are
///   rowOrder()[offsets()[u]], …, rowOrder()[offsets()[u + 1] − 1]
/// so iterating over a unit's rows (rowsOf) is a view into one array and never allocates.
///
/// Invariants, established once by the constructor (the index is immutable):
///  - every row 0 … rows() − 1 belongs to exactly one unit, and unitOf(row) names it;
///  - every unit holds at least one row: a unit without rows in this part is not listed;
///  - units are ordered by id, ascending, and ids are distinct;
///  - within a unit, rows are ascending;
///  - offsets() has units() + 1 entries, starts at 0, ends at rows() and strictly increases.
///
/// One index describes one part of a split (training or test rows). A unit's position differs
/// between the parts, its id does not: find(id) maps between them, and a test unit may be
/// absent from training (a user or silo whose rows all went to the test part).
class UnitIndex {
public:
    /// No rows and no units.
    UnitIndex() = default;

    /// Groups rows 0 … n − 1 by `unitIdOfRow[row]` (any int). `namesById[id]`, where present
    /// and not empty, names the unit with that id; other units are named by their id.
    explicit UnitIndex(std::span<const int> unitIdOfRow,
                       const std::vector<std::string>& namesById = {});
    /// As above, from an Eigen vector (Dataset::userId).
    explicit UnitIndex(const Eigen::VectorXi& unitIdOfRow,
                       const std::vector<std::string>& namesById = {});

    /// Number of rows indexed (the part's row count).
    long rows() const { return static_cast<long>(m_unitOfRow.size()); }
    /// Number of units with at least one row.
    long units() const { return static_cast<long>(m_ids.size()); }

    /// The rows of unit `unit` (position 0 … units() − 1), ascending.
    std::span<const long> rowsOf(long unit) const {
        const auto begin = static_cast<std::size_t>(m_offsets[static_cast<std::size_t>(unit)]);
        const auto end = static_cast<std::size_t>(m_offsets[static_cast<std::size_t>(unit) + 1]);
        return std::span<const long>(m_rowOrder).subspan(begin, end - begin);
    }
    /// How many rows unit `unit` holds (≥ 1).
    long rowCount(long unit) const {
        return m_offsets[static_cast<std::size_t>(unit) + 1] -
               m_offsets[static_cast<std::size_t>(unit)];
    }
    /// Position of the unit that holds `row`.
    long unitOf(long row) const { return m_unitOfRow[static_cast<std::size_t>(row)]; }
    /// The id of unit `unit` (a user id of the data, or a silo number).
    int id(long unit) const { return m_ids[static_cast<std::size_t>(unit)]; }
    /// A readable name of unit `unit` (the user column's value, a silo's attribute value, ...).
    const std::string& name(long unit) const { return m_names[static_cast<std::size_t>(unit)]; }
    /// Position of the unit with id `id`, or nothing when no row of this part belongs to it.
    std::optional<long> find(int id) const;

    /// Largest number of rows of one unit (0 without rows): the group size that user-level
    /// privacy of a row-level guarantee has to cover.
    long maxRowsPerUnit() const { return m_maxRowsPerUnit; }
    /// Smallest number of rows of one unit (0 without rows).
    long minRowsPerUnit() const { return m_minRowsPerUnit; }

    /// units() + 1 offsets into rowOrder().
    const std::vector<long>& offsets() const { return m_offsets; }
    /// All rows, grouped by unit.
    const std::vector<long>& rowOrder() const { return m_rowOrder; }
    /// Unit position per row.
    const std::vector<long>& unitOfRows() const { return m_unitOfRow; }
    /// Unit ids, ascending.
    const std::vector<int>& ids() const { return m_ids; }

    bool operator==(const UnitIndex& other) const = default;

private:
    void build(std::span<const int> unitIdOfRow, const std::vector<std::string>& namesById);

    std::vector<long> m_offsets{0};
    std::vector<long> m_rowOrder;
    std::vector<long> m_unitOfRow;
    std::vector<int> m_ids;
    std::vector<std::string> m_names;
    long m_maxRowsPerUnit = 0;
    long m_minRowsPerUnit = 0;
};

/// For each unit of `from`, its position in `to` (same id), or −1 when `to` has no rows of it:
/// e.g. the training position of every test user, to evaluate personalised models.
std::vector<long> matchUnits(const UnitIndex& from, const UnitIndex& to);

}  // namespace pfa
