#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pfa::privacy {

/// The Rényi orders α > 1 at which RDP curves are evaluated (privacy-accounting spec §4.3).
/// Immutable once built; the orders are sorted ascending and distinct. +∞ is allowed.
class OrderGrid {
public:
    /// The default grid G: {1.1, 1.2, …, 10.9} ∪ {11, …, 63} ∪ {128, 256, 512, 1024}
    /// (156 orders, the dp_accounting default).
    static OrderGrid standard();

    /// Opacus's default grid: {1.1, …, 10.9} ∪ {12, …, 63} (151 orders).
    static OrderGrid opacus();

    /// Builds a grid from arbitrary orders (sorted and de-duplicated here).
    /// Throws pfa::InputError when the list is empty or an order is NaN or ≤ 1.
    explicit OrderGrid(std::vector<double> orders);

    /// The orders, ascending.
    const std::vector<double>& orders() const { return m_orders; }

    /// Number of orders.
    std::size_t size() const { return m_orders.size(); }

    /// The i-th smallest order (no bounds check).
    double operator[](std::size_t i) const { return m_orders[i]; }

    /// Short human description for privacy statements, e.g. "156 orders 1.1–1024".
    std::string describe() const;

    /// Two grids are equal when they hold exactly the same orders.
    friend bool operator==(const OrderGrid&, const OrderGrid&) = default;

private:
    std::vector<double> m_orders;
};

}  // namespace pfa::privacy
