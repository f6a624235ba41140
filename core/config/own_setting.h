#pragma once

// Typed handles to an algorithm's own settings. A training file names a setting once, in a
// handle at its top (`const OwnNumber kRidge{"ridge"};`), and reads it through the handle
// (`kRidge(config)`). Every handle is listed as it is made; the algorithm registry checks them
// all when it is built (checkOwnSettings): a handle that names no declared setting, or one of
// another kind, stops the program at start, not a run halfway.

#include <string>
#include <vector>

#include "core/config/train_config.h"

namespace pfa {

/// What an own setting holds, as its handle reads it.
enum class OwnSettingKind {
    Number,  ///< a Real or Integer declaration
    Choice,  ///< a Choice (or Flag) declaration, read as its word
};

/// A handle's name and kind; every handle made so far is in ownSettingHandles().
class OwnSetting {
public:
    const std::string& name() const { return m_name; }
    OwnSettingKind kind() const { return m_kind; }

protected:
    OwnSetting(std::string name, OwnSettingKind kind);
    ~OwnSetting() = default;

private:
    std::string m_name;
    OwnSettingKind m_kind;
};

/// Every handle made so far (handles have static storage: they live as long as the program).
const std::vector<const OwnSetting*>& ownSettingHandles();

/// A number setting of an algorithm's own (its value after the run was prepared).
class OwnNumber : public OwnSetting {
public:
    explicit OwnNumber(std::string name) : OwnSetting(std::move(name), OwnSettingKind::Number) {}
    double operator()(const TrainConfig& config) const;
};

/// A choice setting of an algorithm's own: the chosen word.
class OwnChoice : public OwnSetting {
public:
    explicit OwnChoice(std::string name) : OwnSetting(std::move(name), OwnSettingKind::Choice) {}
    const std::string& operator()(const TrainConfig& config) const;
};

}  // namespace pfa
