// pfa-cli parameters: every declared setting, as a table or as JSON (for people writing
// presets and scripts; generated from the same declarations as the options of 'train').
#include <cstdio>

#include "app/cli/arguments.h"
#include "app/cli/commands.h"
#include "core/algorithms/registry.h"
#include "core/util/json_writer.h"

namespace pfa::cli {

namespace {

const char* const kParametersHelp =
    "usage: pfa-cli parameters [--json]\n"
    "\n"
    "Lists every setting of every algorithm: its name (the option of 'pfa-cli train', the key\n"
    "in presets, sessions and the \"settings\" of result records, the name of a sweep axis),\n"
    "kind, default, allowed values and the algorithms that read it.\n"
    "  --json    one JSON array instead of a table\n"
    "  --tsv     tab-separated: name, kind, role, default, example, algorithms (for scripts)\n";

std::string kindName(ParamKind kind) {
    switch (kind) {
        case ParamKind::Real:
            return "real";
        case ParamKind::Integer:
            return "integer";
        case ParamKind::Choice:
            return "choice";
        case ParamKind::Flag:
            return "flag";
        case ParamKind::Text:
            return "text";
    }
    return "real";
}

}  // namespace

int parametersCommand(int argc, char** argv) {
    const Arguments args(argc, argv, 2, {}, {"help", "json", "tsv"});
    if (args.has("help")) {
        std::fputs(kParametersHelp, stdout);
        return 0;
    }
    if (args.has("json")) {
        JsonWriter json;
        json.beginArray();
        for (const ParamSpec& spec : allParameters()) {
            json.beginObject();
            json.key("name").value(spec.name);
            json.key("label").value(spec.label);
            json.key("kind").value(kindName(spec.kind));
            json.key("role").value(spec.role == ParamRole::Coordinate ? "coordinate" : "setting");
            json.key("default").value(spec.isAuto(spec.defaultValue) ? std::string("auto")
                                                                     : spec.defaultValue);
            if (spec.hasAuto()) json.key("auto").value(spec.autoMeaning);
            json.key("rule").value(parameterRule(spec));
            json.key("example").value(exampleValue(spec));
            json.key("sweepable").value(spec.sweepable);
            json.key("algorithms").value(algorithmsReading(spec.name));
            json.key("help").value(spec.help);
            json.endObject();
        }
        json.endArray();
        std::printf("%s\n", json.text().c_str());
        return 0;
    }
    if (args.has("tsv")) {
        for (const ParamSpec& spec : allParameters()) {
            std::printf("%s\t%s\t%s\t%s\t%s\t%s\n", spec.name.c_str(), kindName(spec.kind).c_str(),
                        spec.role == ParamRole::Coordinate ? "coordinate" : "setting",
                        spec.defaultValue.c_str(), exampleValue(spec).c_str(),
                        algorithmsReading(spec.name).c_str());
        }
        return 0;
    }
    std::printf("%-18s %-8s %-12s %s\n", "name", "kind", "default", "algorithms / allowed values");
    for (const ParamSpec& spec : allParameters()) {
        const std::string fallback =
            spec.isAuto(spec.defaultValue) ? std::string("auto") : spec.defaultValue;
        std::printf("%-18s %-8s %-12s %s\n%-40s %s\n", spec.name.c_str(),
                    kindName(spec.kind).c_str(), fallback.c_str(),
                    algorithmsReading(spec.name).c_str(), "", parameterRule(spec).c_str());
    }
    return 0;
}

}  // namespace pfa::cli
