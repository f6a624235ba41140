#include "core/data/teacher.h"

#include <cmath>
#include <sstream>
#include <vector>

#include "core/util/error.h"
#include "core/util/random.h"

namespace pfa {

namespace {

constexpr std::uint64_t kTeacherStream = 0x5445414348455200ULL;  // "TEACHER"

std::string columnName(int j) {
    std::string name = std::to_string(j + 1);
    name.insert(name.begin(), 'x');
    return name;
}

}  // namespace

TabularData generateTeacher(const TeacherOptions& o) {
    if (o.rows < 100) {
        throw InputError("synthetic-teacher: rows = " + std::to_string(o.rows) +
                         " is invalid: at least 100 rows");
    }
    if (o.features < 1 || o.features > 200) {
        throw InputError("synthetic-teacher: features = " + std::to_string(o.features) +
                         " is invalid: between 1 and 200");
    }
    const auto n = static_cast<std::size_t>(o.rows);
    const auto d = static_cast<std::size_t>(o.features);
    const std::size_t H = kTeacherHiddenUnits;
    RandomStream random(o.seed, kTeacherStream);
    // The teacher first, so that its weights do not depend on the number of rows.
    std::vector<double> W1(H * d), w2(H);
    for (double& w : W1) w = random.normal();
    for (double& w : w2) w = random.normal();

    TabularData data;
    data.name = "synthetic-teacher";
    data.features.resize(d);
    for (std::size_t j = 0; j < d; ++j) {
        data.features[j].name = columnName(static_cast<int>(j));
        data.features[j].numeric.resize(n);
    }
    data.target.resize(n);
    data.label.assign(n, 0);
    data.group.assign(n, 0);
    data.groupNames = {"all"};
    data.sensitiveDescription = "none (regression data)";
    std::vector<double> x(d);
    double largest = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < d; ++j) {
            x[j] = random.normal();
            data.features[j].numeric[i] = x[j];
        }
        double out = 0.0;
        for (std::size_t h = 0; h < H; ++h) {
            double a = 0.0;
            for (std::size_t j = 0; j < d; ++j) a += W1[h * d + j] * x[j];
            out += w2[h] * std::tanh(a);
        }
        data.target[i] = out + kTeacherNoise * random.normal();
        largest = std::max(largest, std::abs(data.target[i]));
    }
    // A public scale of the generator's own targets, part of the data set's definition.
    for (double& y : data.target) y /= largest;
    return data;
}

Schema teacherSchema(const TeacherOptions& options) {
    Schema schema;
    schema.name = "synthetic-teacher";
    schema.target = "y";
    for (int j = 0; j < options.features; ++j)
        schema.columns[columnName(j)].role = ColumnRole::Numeric;
    schema.defaultRole = ColumnRole::Ignore;
    return schema;
}

std::string describeTeacher(const TeacherOptions& o) {
    std::ostringstream text;
    text << "synthetic teacher-network regression (n=" << o.rows << ", d=" << o.features
         << ", teacher " << o.features << "->" << kTeacherHiddenUnits
         << " tanh->1 with N(0,1) weights, noise " << kTeacherNoise
         << ", target divided by max|y|, generator seed=" << o.seed << ")";
    return text.str();
}

}  // namespace pfa
