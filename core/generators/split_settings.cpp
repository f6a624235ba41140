#include "core/generators/split_settings.h"

#include <algorithm>

#include "core/data/split_method.h"
#include "core/util/error.h"

namespace pfa {

namespace {

GeneratorKnob splitSetting(ParamSpec spec, std::function<std::string(const SplitOptions&)> get,
                           std::function<void(SplitOptions&, const std::string&)> set) {
    GeneratorKnob setting;
    spec.advanced = true;
    spec.defaultValue = get(SplitOptions{});
    setting.spec = std::move(spec);
    setting.get = [get](const DatasetRequest& r) { return get(r.split); };
    setting.set = [set](DatasetRequest& r, const std::string& text) { set(r.split, text); };
    setting.keyText = setting.get;
    return setting;
}

std::vector<GeneratorKnob> makeSplitSettings() {
    std::vector<GeneratorKnob> settings;
    const ParamSpec method =
        declare("split-method", "Split", ParamKind::Choice,
                "how the rows are divided into training and test rows: PFA Explorer's own seeded "
                "shuffle, or exactly the rows pandas' DataFrame.sample(frac = 1 − test share, "
                "random_state = split seed) picks for training, on the file's rows in order — the "
                "split of experiments published that way (DP-FERMI: split seed 100)")
            .choices({{"seeded", "random (seeded)", "PFA Explorer's own seeded permutation"},
                      {"pandas", "as pandas DataFrame.sample — reproduces published splits",
                       "the rows pandas' DataFrame.sample picks for training (split seed below "
                       "2^32)"}})
            .formerNames({"split_method"})
            .spec();
    settings.push_back(splitSetting(
        method, [](const SplitOptions& s) { return splitMethodName(s.method); },
        [](SplitOptions& s, const std::string& text) { s.method = parseSplitMethod(text); }));

    const ParamSpec seed = declare("split-seed", "Split seed", ParamKind::Integer,
                                   "seed of the train/test split (pandas: its random_state); "
                                   "another seed gives other training rows")
                               .atLeast(0)
                               .atMost(0x1p53)
                               .formerNames({"split_seed"})
                               .spec();
    settings.push_back(splitSetting(
        seed, [](const SplitOptions& s) { return std::to_string(s.seed); },
        [](SplitOptions& s, const std::string& text) { s.seed = std::stoull(text); }));

    const ParamSpec share =
        declare("test-fraction", "Test share", ParamKind::Real,
                "share of the rows held out for testing; the model never sees them in training")
            .above(0)
            .atMost(1, true)
            .formerNames({"test_fraction"})
            .spec();
    settings.push_back(splitSetting(
        share, [](const SplitOptions& s) { return realText(s.testFraction); },
        [](SplitOptions& s, const std::string& text) { s.testFraction = std::stod(text); }));
    return settings;
}

}  // namespace

const std::vector<GeneratorKnob>& splitSettings() {
    static const std::vector<GeneratorKnob> settings = makeSplitSettings();
    return settings;
}

const GeneratorKnob* findSplitSetting(const std::string& key) {
    std::string dashed = key;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    for (const std::string& name : {key, dashed, "split-" + dashed}) {
        if (const GeneratorKnob* setting = findDeclared(splitSettings(), name)) return setting;
    }
    return nullptr;
}

void setSplitSetting(DatasetRequest& request, const std::string& name, const std::string& text) {
    const GeneratorKnob* setting = findSplitSetting(name);
    if (!setting) throw InputError("unknown split setting '" + name + "'");
    setting->set(request, parseParameter(setting->spec, text));
}

}  // namespace pfa
