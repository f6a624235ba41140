#include "core/data/row_key.h"

#include <cstring>
#include <string>

namespace pfa {

namespace {

/// splitmix64's finaliser: a bijective mix of 64 bits.
std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct KeyBuilder {
    std::uint64_t h = 0x6a09e667f3bcc908ULL;
    void add(std::uint64_t word) { h = mix64(h ^ word); }
    void add(double value) {
        std::uint64_t bits = 0;
        if (value != 0.0) std::memcpy(&bits, &value, sizeof bits);  // −0 and +0 alike
        add(bits);
    }
    void add(const std::string& text) {
        add(static_cast<std::uint64_t>(text.size()));
        std::uint64_t word = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            word = (word << 8) | static_cast<unsigned char>(text[i]);
            if (i % 8 == 7) {
                add(word);
                word = 0;
            }
        }
        add(word);
    }
};

}  // namespace

std::uint64_t rowContentKey(const TabularData& data, std::size_t row) {
    KeyBuilder key;
    for (const FeatureColumn& column : data.features) {
        if (column.kind == FeatureKind::Numeric) {
            key.add(column.numeric[row]);
        } else {
            // The level's name, not its code: codes number the levels the file happens to hold.
            const int code = column.codes[row];
            key.add(code >= 0 && static_cast<std::size_t>(code) < column.levels.size()
                        ? column.levels[static_cast<std::size_t>(code)]
                        : std::string("\x01missing"));
        }
    }
    if (!data.classNames.empty() && data.label[row] >= 0 &&
        static_cast<std::size_t>(data.label[row]) < data.classNames.size()) {
        key.add(data.classNames[static_cast<std::size_t>(data.label[row])]);
    }
    if (!data.groupNames.empty() && data.group[row] >= 0 &&
        static_cast<std::size_t>(data.group[row]) < data.groupNames.size()) {
        key.add(data.groupNames[static_cast<std::size_t>(data.group[row])]);
    }
    if (!data.target.empty()) key.add(data.target[row]);
    if (!data.userId.empty()) {
        const int id = data.userId[row];
        key.add(id >= 0 && static_cast<std::size_t>(id) < data.userNames.size()
                    ? data.userNames[static_cast<std::size_t>(id)]
                    : std::to_string(id));
    }
    return key.h;
}

std::uint64_t rowKey(const Dataset& part, Eigen::Index row) {
    if (static_cast<Eigen::Index>(part.rowKeys.size()) == part.rows())
        return part.rowKeys[static_cast<std::size_t>(row)];
    KeyBuilder key;
    for (Eigen::Index j = 0; j < part.features(); ++j) key.add(part.X(row, j));
    if (part.y.size() == part.rows()) key.add(static_cast<std::uint64_t>(part.y(row)));
    if (part.s.size() == part.rows()) key.add(static_cast<std::uint64_t>(part.s(row)));
    if (part.isRegression()) key.add(part.target(row));
    return key.h;
}

double rowUniform(std::uint64_t key, std::uint64_t salt) {
    const std::uint64_t bits = mix64(mix64(key) ^ mix64(salt ^ 0x5055424c4943ULL));
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

}  // namespace pfa
