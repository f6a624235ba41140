#include "core/generators/silo_settings.h"

#include <algorithm>
#include <stdexcept>

#include "core/util/error.h"

namespace pfa {

bool SiloSetting::goesWith(SiloMethod method) const {
    return methods.empty() || std::find(methods.begin(), methods.end(), method) != methods.end();
}

std::string SiloSetting::methodNames() const {
    std::string names;
    for (SiloMethod method : methods)
        names += (names.empty() ? "" : " or ") + siloMethodName(method);
    return names;
}

namespace {

SiloSetting siloSetting(ParamSpec spec, std::function<std::string(const SiloOptions&)> get,
                        std::function<void(SiloOptions&, const std::string&)> set,
                        std::string metavar, std::vector<SiloMethod> methods = {}) {
    SiloSetting setting;
    spec.advanced = true;
    spec.defaultValue = get(SiloOptions{});
    setting.knob.spec = std::move(spec);
    setting.knob.get = [get](const DatasetRequest& r) {
        return get(r.silos.value_or(SiloOptions{}));
    };
    setting.knob.set = [set](DatasetRequest& r, const std::string& text) {
        if (!r.silos) r.silos.emplace();
        set(*r.silos, text);
    };
    setting.knob.keyText = setting.knob.get;
    setting.metavar = std::move(metavar);
    setting.methods = std::move(methods);
    return setting;
}

std::vector<SiloSetting> makeSiloSettings() {
    using M = SiloMethod;
    std::vector<SiloSetting> settings;
    // Former names: the keys of presets' "silos" objects, then those of earlier sessions.
    const ParamSpec count = declare("silos", "Silos N", ParamKind::Integer,
                                    "number of silos the rows are dealt out to after the "
                                    "train/test split (training and test rows alike; any data set)")
                                .atLeast(1)
                                .atMost(1e9)
                                .formerNames({"count"})
                                .spec();
    settings.push_back(siloSetting(
        count, [](const SiloOptions& s) { return std::to_string(s.silos); },
        [](SiloOptions& s, const std::string& text) { s.silos = std::stoi(text); }, "N",
        {M::EqualRandom, M::Dirichlet}));
    settings.back().required = true;

    ParamSpec method =
        declare("silo-split", "Silo split", ParamKind::Choice,
                "how the rows are dealt out to silos (institutions, such as hospitals, that each "
                "hold their own rows) for algorithms that protect or train per silo")
            .choices({{"equal", "equal, at random", "N silos of equal size, rows drawn at random"},
                      {"dirichlet", "Dirichlet label mix",
                       "each class shared among the N silos in Dirichlet(α) proportions: "
                       "label-skewed silos"},
                      {"attribute", "one per value of a column",
                       "one silo per value of the silo column (e.g. per country), no number of "
                       "silos"}})
            .formerNames({"method", "silo_split"})
            .spec();
    // Earlier spellings of the methods ("by-attribute") are read through their parser.
    method.set = [](TrainConfig& c, const std::string& text) {
        c.extra["silo-split"] = siloMethodName(parseSiloMethod(text));
    };
    method.get = [](const TrainConfig& c) { return c.extra.at("silo-split"); };
    settings.push_back(siloSetting(
        method, [](const SiloOptions& s) { return siloMethodName(s.method); },
        [](SiloOptions& s, const std::string& text) { s.method = parseSiloMethod(text); }, "M"));

    const ParamSpec alpha = declare("silo-alpha", "Dirichlet α", ParamKind::Real,
                                    "concentration α of the Dirichlet draw: 0.1 gives silos "
                                    "dominated by one class, 1 varied mixes, 100 nearly the same "
                                    "mix everywhere, inf exactly the same")
                                .above(0)
                                .formerNames({"alpha", "silo_alpha"})
                                .spec();
    settings.push_back(siloSetting(
        alpha, [](const SiloOptions& s) { return realText(s.dirichletAlpha); },
        [](SiloOptions& s, const std::string& text) { s.dirichletAlpha = std::stod(text); }, "A",
        {M::Dirichlet}));

    const ParamSpec column = declare("silo-column", "Silos follow", ParamKind::Text,
                                     "what the silos follow: label (one silo per class), group "
                                     "(the sensitive group) or a categorical column's name")
                                 .formerNames({"column", "silo_column"})
                                 .spec();
    settings.push_back(siloSetting(
        column, [](const SiloOptions& s) { return siloColumnName(s); },
        [](SiloOptions& s, const std::string& text) { setSiloColumn(s, text); }, "COL",
        {M::ByAttribute}));
    settings.back().required = true;

    const ParamSpec minimum = declare("silo-min-rows", "Min. rows/silo", ParamKind::Integer,
                                      "every silo gets at least this many training rows "
                                      "(dirichlet: drawn again until it holds; attribute: smaller "
                                      "values share one silo, 'other')")
                                  .atLeast(1)
                                  .atMost(1e9)
                                  .formerNames({"min_rows", "silo_min_rows"})
                                  .spec();
    settings.push_back(siloSetting(
        minimum, [](const SiloOptions& s) { return std::to_string(s.minTrainRowsPerSilo); },
        [](SiloOptions& s, const std::string& text) { s.minTrainRowsPerSilo = std::stol(text); },
        "K"));

    const ParamSpec seed =
        declare("silo-seed", "Silo seed", ParamKind::Integer,
                "seed of the silo split: another seed deals the rows out differently")
            .atLeast(0)
            .atMost(0x1p53)
            .formerNames({"seed", "silo_seed"})
            .spec();
    settings.push_back(siloSetting(
        seed, [](const SiloOptions& s) { return std::to_string(s.seed); },
        [](SiloOptions& s, const std::string& text) { s.seed = std::stoull(text); }, "S",
        {M::EqualRandom, M::Dirichlet}));
    return settings;
}

const SiloSetting& declaredSilo(const std::string& name) {
    const SiloSetting* setting = findSiloSetting(name);
    if (!setting) throw std::logic_error("no silo setting '" + name + "'");
    return *setting;
}

}  // namespace

const std::vector<SiloSetting>& siloSettings() {
    static const std::vector<SiloSetting> settings = makeSiloSettings();
    return settings;
}

const SiloSetting* findSiloSetting(const std::string& key) {
    for (const SiloSetting& setting : siloSettings()) {
        if (setting.knob.spec.answersTo(key)) return &setting;
    }
    return nullptr;
}

void applySiloSettings(DatasetRequest& request, const std::map<std::string, std::string>& given,
                       const std::string& prefix) {
    for (const auto& [name, text] : given) {
        const SiloSetting* setting = findSiloSetting(name);
        if (!setting || setting->name() != name)
            throw InputError("unknown silo setting '" + name + "'");
    }
    const SiloSetting& count = declaredSilo("silos");
    const SiloSetting& method = declaredSilo("silo-split");
    const auto spelled = [&prefix](const SiloSetting& setting) { return prefix + setting.name(); };
    const auto isGiven = [&given](const SiloSetting& setting) {
        return given.count(setting.name()) > 0;
    };
    // A number of silos or a method asks for a silo split; the others only shape one.
    if (!request.silos && !isGiven(count) && !isGiven(method)) {
        for (const SiloSetting& setting : siloSettings()) {
            if (isGiven(setting)) {
                throw InputError(spelled(setting) + " only goes with " + spelled(count) + " " +
                                 count.metavar + " or " + spelled(method));
            }
        }
        return;
    }
    const auto checked = [&](const SiloSetting& setting) {
        const std::string& text = given.at(setting.name());
        try {
            return parseParameter(setting.knob.spec, text);
        } catch (const InputError&) {
            throw InputError(spelled(setting) + " " + text + " is invalid: it must be " +
                             parameterRule(setting.knob.spec));
        }
    };
    // Worked on apart, so that the request is unchanged when a rule refuses.
    DatasetRequest scratch;
    scratch.silos = request.silos.value_or(SiloOptions{});
    if (isGiven(method)) method.knob.set(scratch, checked(method));
    const SiloMethod chosen = scratch.silos->method;
    for (const SiloSetting& setting : siloSettings()) {
        if (isGiven(setting) && !setting.goesWith(chosen)) {
            throw InputError(spelled(setting) + " only goes with " + spelled(method) + " " +
                             setting.methodNames());
        }
        const bool held = request.silos && !setting.knob.get(scratch).empty();
        if (setting.required && setting.goesWith(chosen) && !isGiven(setting) && !held) {
            throw InputError(spelled(method) + " " + siloMethodName(chosen) + " needs " +
                             spelled(setting) + " " + setting.metavar + " (" +
                             setting.knob.spec.help + ")");
        }
    }
    for (const SiloSetting& setting : siloSettings()) {
        if (isGiven(setting) && &setting != &method) setting.knob.set(scratch, checked(setting));
    }
    validateSiloOptions(*scratch.silos);
    request.silos = scratch.silos;
}

}  // namespace pfa
