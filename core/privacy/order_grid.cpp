#include "core/privacy/order_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/util/error.h"

namespace pfa::privacy {

namespace {

std::string formatNumber(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

/// {1.1, 1.2, …, 10.9}, built as k/10 so that no rounding error accumulates along the grid.
std::vector<double> decimalOrders() {
    std::vector<double> orders;
    for (int k = 11; k <= 109; ++k) orders.push_back(k / 10.0);
    return orders;
}

}  // namespace

OrderGrid OrderGrid::standard() {
    std::vector<double> orders = decimalOrders();
    for (int a = 11; a <= 63; ++a) orders.push_back(a);
    for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
    return OrderGrid(std::move(orders));
}

OrderGrid OrderGrid::opacus() {
    std::vector<double> orders = decimalOrders();
    for (int a = 12; a <= 63; ++a) orders.push_back(a);
    return OrderGrid(std::move(orders));
}

OrderGrid::OrderGrid(std::vector<double> orders) : m_orders(std::move(orders)) {
    if (m_orders.empty()) throw InputError("the order grid is empty");
    for (double a : m_orders) {
        // !(a > 1) also rejects NaN.
        if (!(a > 1.0)) {
            throw InputError("order alpha = " + formatNumber(a) +
                             " is invalid: orders must be greater than 1");
        }
    }
    std::sort(m_orders.begin(), m_orders.end());
    m_orders.erase(std::unique(m_orders.begin(), m_orders.end()), m_orders.end());
}

std::string OrderGrid::describe() const {
    const std::string count =
        std::to_string(m_orders.size()) + (m_orders.size() == 1 ? " order " : " orders ");
    if (m_orders.size() == 1) return count + formatNumber(m_orders.front());
    // "\xE2\x80\x93" is an en dash in UTF-8, spelled out so the source charset does not matter.
    return count + formatNumber(m_orders.front()) + "\xE2\x80\x93" + formatNumber(m_orders.back());
}

}  // namespace pfa::privacy
