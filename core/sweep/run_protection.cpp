#include "core/sweep/run_protection.h"

#include <utility>

namespace pfa {

namespace {

/// "add/remove-one" or "replace-one" from a statement's adjacency ("replace-one (one
/// sensitive attribute changed)" included); "" when it names neither.
std::string normalisedAdjacency(const std::string& text) {
    if (text.rfind("add", 0) == 0) return "add/remove-one";
    if (text.rfind("replace", 0) == 0) return "replace-one";
    return {};
}

/// What the statement says is protected decides the scope: some algorithms run with the
/// sensitive-only scope but clip and noise whole records, and then protect whole records.
bool protectsSensitiveOnly(const std::string& protectedText, bool scopeSensitiveOnly) {
    if (protectedText.empty()) return scopeSensitiveOnly;
    return protectedText.rfind("only the sensitive attribute", 0) == 0;
}

}  // namespace

std::string RunProtection::label() const {
    if (!isPrivate) return "not private";
    const std::string who = unit.empty() ? std::string("unit not recorded") : unit;
    std::string text = sensitiveOnly ? "a " + who + "'s sensitive attribute" : who;
    text += ", ";
    text += adjacency.empty() ? std::string("adjacency not recorded") : adjacency;
    return text;
}

bool RunProtection::operator==(const RunProtection& other) const {
    if (!isPrivate || !other.isPrivate) return isPrivate == other.isPrivate;
    return unit == other.unit && adjacency == other.adjacency &&
           sensitiveOnly == other.sensitiveOnly;
}

RunProtection runProtection(const RunResult& run) {
    RunProtection p;
    p.isPrivate = run.privacy.isPrivate;
    if (!p.isPrivate) return p;
    p.unit = run.privacy.unit;
    p.adjacency = normalisedAdjacency(run.privacy.adjacency);
    p.sensitiveOnly = protectsSensitiveOnly(run.privacy.protectedData,
                                            run.config.scope == ProtectionScope::SensitiveOnly);
    return p;
}

RunProtection runProtectionOfRecord(const JsonValue& record) {
    RunProtection p;
    if (!record.isObject() || !record.has("privacy")) return p;
    const JsonValue& privacy = record.at("privacy");
    p.isPrivate = privacy.has("is_private") && privacy.at("is_private").asBool();
    if (!p.isPrivate) return p;
    p.unit = privacy.stringOr("unit", "");
    p.adjacency = normalisedAdjacency(privacy.stringOr("adjacency", ""));
    std::string scope;
    if (record.has("settings")) scope = record.at("settings").stringOr("scope", "");
    if (scope.empty() && record.has("config")) scope = record.at("config").stringOr("scope", "");
    p.sensitiveOnly = protectsSensitiveOnly(privacy.stringOr("protected", ""),
                                            scope == "sensitive-only" || scope == "sensitive_only");
    return p;
}

std::string mixedProtectionWarning(const std::vector<RunProtection>& runs) {
    std::vector<std::pair<RunProtection, int>> kinds;
    for (const RunProtection& run : runs) {
        if (!run.isPrivate) continue;
        bool found = false;
        for (auto& [kind, count] : kinds) {
            if (kind == run) {
                ++count;
                found = true;
                break;
            }
        }
        if (!found) kinds.emplace_back(run, 1);
    }
    if (kinds.size() < 2) return {};
    std::string list;
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        list += (k == 0 ? "" : "; ") + std::to_string(kinds[k].second) +
                (kinds[k].second == 1 ? " run: " : " runs: ") + kinds[k].first.label();
    }
    return "Runs with different protection share this chart (" + list +
           "). Their ε bound different things: compare them with care.";
}

std::string sharedProtectionLabel(const std::vector<RunProtection>& runs) {
    const RunProtection* shared = nullptr;
    for (const RunProtection& run : runs) {
        if (!run.isPrivate) continue;
        if (shared && *shared != run) return {};
        shared = &run;
    }
    return shared ? shared->label() : std::string();
}

}  // namespace pfa
