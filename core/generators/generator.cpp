#include "core/generators/generator.h"

#include <algorithm>

#include "core/util/error.h"

namespace pfa {

#define PFA_GENERATOR(FACTORY, FILE) DataGenerator FACTORY();
#include "core/generators/generator_list.h"
#undef PFA_GENERATOR

const std::vector<DataGenerator>& dataGenerators() {
    static const std::vector<DataGenerator> generators{
#define PFA_GENERATOR(FACTORY, FILE) FACTORY(),
#include "core/generators/generator_list.h"
#undef PFA_GENERATOR
    };
    return generators;
}

const DataGenerator* findGenerator(const std::string& name) {
    for (const DataGenerator& generator : dataGenerators()) {
        if (generator.name == name) return &generator;
    }
    return nullptr;
}

const GeneratorKnob* findDeclared(const std::vector<GeneratorKnob>& declared,
                                  const std::string& name) {
    for (const GeneratorKnob& setting : declared) {
        if (setting.spec.answersTo(name)) return &setting;
    }
    return nullptr;
}

const GeneratorKnob* DataGenerator::findKnob(const std::string& name) const {
    return findDeclared(knobs, name);
}

const DataGenerator* generatorOfKnob(const std::string& name) {
    for (const DataGenerator& generator : dataGenerators()) {
        for (const GeneratorKnob& knob : generator.knobs) {
            if (knob.spec.name == name) return &generator;
        }
    }
    return nullptr;
}

std::string generatedSilos(const DatasetRequest& request) {
    const DataGenerator* generator = findGenerator(request.name);
    return generator && generator->silosMade ? generator->silosMade(request) : std::string();
}

namespace {

const GeneratorKnob& requestKnob(const DatasetRequest& request, const std::string& name) {
    const DataGenerator* generator = findGenerator(request.name);
    if (!generator) {
        const DataGenerator* owner = generatorOfKnob(name);
        throw InputError(name + " only goes with the " +
                         (owner ? owner->name : std::string("generated")) + " data set, not " +
                         request.name);
    }
    const GeneratorKnob* knob = generator->findKnob(name);
    if (!knob) {
        const DataGenerator* owner = generatorOfKnob(name);
        if (owner) {
            throw InputError(name + " only goes with the " + owner->name + " data set, not " +
                             request.name);
        }
        throw InputError("the " + generator->name + " data set has no knob '" + name + "'");
    }
    return *knob;
}

}  // namespace

void setKnob(DatasetRequest& request, const std::string& name, const std::string& text) {
    const GeneratorKnob& knob = requestKnob(request, name);
    knob.set(request, parseParameter(knob.spec, text));
}

void setKnob(DatasetRequest& request, const std::string& name, double value) {
    const GeneratorKnob& knob = requestKnob(request, name);
    knob.set(request, parseParameter(knob.spec, value));
}

std::string knobValue(const DatasetRequest& request, const std::string& name) {
    return requestKnob(request, name).get(request);
}

const GeneratorKnob* unmetNeed(const DatasetRequest& request, const GeneratorKnob& knob) {
    if (knob.needs.empty()) return nullptr;
    const DataGenerator* generator = findGenerator(request.name);
    const GeneratorKnob* needed = generator ? generator->findKnob(knob.needs) : nullptr;
    return needed && std::stod(needed->get(request)) == 0.0 ? needed : nullptr;
}

void checkKnobNeeds(const DatasetRequest& request, const std::vector<std::string>& given) {
    const DataGenerator* generator = findGenerator(request.name);
    if (!generator) return;
    for (const std::string& name : given) {
        const GeneratorKnob* knob = generator->findKnob(name);
        if (!knob) continue;
        if (const GeneratorKnob* other = unmetNeed(request, *knob)) {
            throw InputError(knob->spec.name + " needs " + other->spec.name + " (" +
                             other->spec.label + ")");
        }
    }
}

std::string generatorKeyKnobs(const DatasetRequest& request) {
    const DataGenerator* generator = findGenerator(request.name);
    if (!generator) return {};
    std::string key = "(";
    bool first = true;
    for (const GeneratorKnob& knob : generator->knobs) {
        if (knob.inKey && !knob.inKey(request)) continue;
        if (!first) key += ",";
        first = false;
        key += knob.spec.runKeyName() + "=" + knob.keyText(request);
    }
    return key + ")";
}

}  // namespace pfa
