#pragma once

#include <string_view>
#include <vector>

namespace pfa {

/// A JSON file compiled into the program (see core/embed_json.cmake).
struct EmbeddedJson {
    std::string_view fileName;
    std::string_view json;
};

/// The data-set catalog: datasets/*.json, sorted by file name.
const std::vector<EmbeddedJson>& catalogSources();
/// The sweep presets: resources/presets/*.json, sorted by file name.
const std::vector<EmbeddedJson>& presetSources();

}  // namespace pfa
