#pragma once

// Data for the tests of the algorithms that train across silos.
#include <cmath>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/preprocessing.h"
#include "core/data/silo_splitters.h"
#include "core/data/synthetic.h"
#include "core/privacy/order_grid.h"
#include "test_data.h"

namespace pfa::test {

/// zeroFeatureData with `silos` silos of `rowsPerSilo` training (and test) rows each: every
/// feature weight gets exactly zero gradient, so after one round at step size 1 it is minus
/// the noise that reached the server's average.
inline DataSplit zeroFeatureSilos(int silos, int rowsPerSilo, int features) {
    DataSplit data = zeroFeatureData(silos * rowsPerSilo, features);
    std::vector<int> ids(static_cast<std::size_t>(silos * rowsPerSilo));
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int>(i) / rowsPerSilo;
    data.train.silos = UnitIndex(std::span<const int>(ids));
    data.test.silos = UnitIndex(std::span<const int>(ids));
    return data;
}

/// The synthetic data (`rows` rows, 8 features) split 75/25 and dealt out to `silos` silos of
/// equal size at random.
inline DataSplit syntheticSilos(int rows, int silos) {
    DataSplit data = syntheticSplit(rows);
    SiloOptions options;
    options.silos = silos;
    assignSilos(data, makeSilos(data, options));
    return data;
}

/// ε of the RDP curve α·ρ (a Gaussian mechanism with zCDP ρ) at δ on the standard order grid,
/// with the tightened conversion, written out independently of the accountant.
inline double gaussianEpsilonOnStandardGrid(double rho, double delta) {
    std::vector<double> orders;
    for (int i = 11; i <= 109; ++i) orders.push_back(i / 10.0);
    for (int a = 11; a <= 63; ++a) orders.push_back(a);
    for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
    double best = INFINITY;
    for (double a : orders) {
        const double e =
            a * rho + std::log(1.0 - 1.0 / a) - (std::log(delta) + std::log(a)) / (a - 1.0);
        best = std::min(best, e);
    }
    return std::max(0.0, best);
}

/// Wilson–Hilferty quantile of χ²_n at standard-normal quantile z (accurate to well below 1 %
/// for n in the thousands).
inline double chiSquareQuantile(double n, double z) {
    const double c = 2.0 / (9.0 * n);
    return n * std::pow(1.0 - c + z * std::sqrt(c), 3.0);
}

}  // namespace pfa::test
