#include "core/sweep/setting_axes.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace pfa {

namespace {

/// `text` as a number when all of it is one ("inf" included), else none.
std::optional<double> parseNumber(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || std::isnan(value))
        return std::nullopt;
    return value;
}

std::string settingOf(const SweepCell& cell, const std::string& name) {
    for (const auto& [key, value] : runKeySettings(cell.cellKey)) {
        if (key == name) return value;
    }
    return {};
}

/// The cell's data-set identity with the knob `name` blanked, so that cells differing only in
/// that knob fall into one group.
std::string withoutKnob(const std::string& datasetKey, const std::string& name) {
    const std::size_t open = datasetKey.find('(');
    const std::size_t close = datasetKey.find(')', open);
    if (open == std::string::npos || close == std::string::npos) return datasetKey;
    std::string knobs;
    for (const auto& [key, value] : datasetKnobs(datasetKey)) {
        knobs += (knobs.empty() ? "" : ",") + key + "=" + (key == name ? std::string("*") : value);
    }
    return datasetKey.substr(0, open + 1) + knobs + datasetKey.substr(close);
}

}  // namespace

std::string SettingAxis::label() const {
    if (!dataKnob && name == "epsilon") return "ε";
    return dataKnob ? "data: " + name : name;
}

std::vector<std::pair<std::string, std::string>> datasetKnobs(const std::string& datasetKey) {
    std::vector<std::pair<std::string, std::string>> knobs;
    const std::size_t open = datasetKey.find('(');
    const std::size_t bar = datasetKey.find('|');
    const std::size_t colon = datasetKey.find(':');  // "file:NAME": a file's name, no knobs
    if (open == std::string::npos || (bar != std::string::npos && open > bar) ||
        (colon != std::string::npos && colon < open)) {
        return knobs;
    }
    const std::size_t close = datasetKey.find(')', open);
    if (close == std::string::npos) return knobs;
    const std::string inside = datasetKey.substr(open + 1, close - open - 1);
    std::size_t start = 0;
    while (start < inside.size()) {
        std::size_t end = inside.find(',', start);
        if (end == std::string::npos) end = inside.size();
        const std::string part = inside.substr(start, end - start);
        const std::size_t equals = part.find('=');
        if (equals != std::string::npos)
            knobs.emplace_back(part.substr(0, equals), part.substr(equals + 1));
        start = end + 1;
    }
    return knobs;
}

std::string datasetFamilyKey(const std::string& datasetKey) {
    if (datasetKnobs(datasetKey).empty()) return datasetKey;
    const std::size_t open = datasetKey.find('(');
    const std::size_t close = datasetKey.find(')', open);
    return datasetKey.substr(0, open + 1) + "*" + datasetKey.substr(close);
}

std::optional<double> axisValue(const SweepCell& cell, const SettingAxis& axis) {
    // ε as plotted everywhere: the certified one where the nominal is not (published calibration).
    if (!axis.dataKnob && axis.name == "epsilon") return cell.shownEpsilon();
    if (!axis.dataKnob) return parseNumber(settingOf(cell, axis.name));
    for (const auto& [key, value] : datasetKnobs(cell.datasetKey)) {
        if (key == axis.name) return parseNumber(value);
    }
    return std::nullopt;
}

std::vector<SettingAxis> settingAxesOf(const std::vector<SweepCell>& cells) {
    std::vector<SettingAxis> candidates;
    auto add = [&](const SettingAxis& axis) {
        if (std::find(candidates.begin(), candidates.end(), axis) == candidates.end())
            candidates.push_back(axis);
    };
    for (const SweepCell& cell : cells) {
        for (const auto& [key, value] : runKeySettings(cell.cellKey)) {
            if (key.empty() || key == "epsilon" || key == "seed" || key == "dataset") continue;
            if (parseNumber(value)) add({key, false});
        }
    }
    std::vector<SettingAxis> knobs;
    for (const SweepCell& cell : cells) {
        for (const auto& [key, value] : datasetKnobs(cell.datasetKey)) {
            const SettingAxis axis{key, true};
            if (parseNumber(value) && std::find(knobs.begin(), knobs.end(), axis) == knobs.end())
                knobs.push_back(axis);
        }
    }
    for (const SettingAxis& axis : knobs) add(axis);
    add({"epsilon", false});  // last: the error-vs-ε view has it too, but not for other metrics
    std::vector<SettingAxis> varying;
    for (const SettingAxis& axis : candidates) {
        std::set<double> values;
        for (const SweepCell& cell : cells) {
            if (const auto value = axisValue(cell, axis); value && std::isfinite(*value))
                values.insert(*value);
        }
        if (values.size() >= 2) varying.push_back(axis);
    }
    return varying;
}

std::vector<SweepGroup> groupAlongAxis(const std::vector<SweepCell>& cells,
                                       const SettingAxis& axis) {
    if (!axis.dataKnob) return groupCells(cells, {axis.name}, {"algorithm"});
    std::vector<SweepCell> blanked = cells;
    for (SweepCell& cell : blanked) {
        const std::string original = cell.datasetKey;
        cell.datasetKey = withoutKnob(original, axis.name);
        // The run key names the data set too: blank the knob there as well.
        const std::string from = "dataset=" + original;
        if (const std::size_t at = cell.cellKey.find(from); at != std::string::npos) {
            cell.cellKey.replace(at, from.size(), "dataset=" + cell.datasetKey);
        }
    }
    return groupCells(blanked, {}, {"algorithm"});
}

std::optional<double> fitScale(const std::vector<double>& measured,
                               const std::vector<double>& rate) {
    double gy = 0.0, gg = 0.0;
    for (std::size_t i = 0; i < measured.size() && i < rate.size(); ++i) {
        if (!std::isfinite(measured[i]) || !std::isfinite(rate[i]) || !(rate[i] > 0.0)) continue;
        gy += rate[i] * measured[i];
        gg += rate[i] * rate[i];
    }
    if (!(gg > 0.0)) return std::nullopt;
    const double c = gy / gg;
    if (!(c > 0.0) || !std::isfinite(c)) return std::nullopt;
    return c;
}

}  // namespace pfa
