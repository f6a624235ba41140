#include "core/config/own_setting.h"

#include "core/config/parameters.h"

namespace pfa {

namespace {

std::vector<const OwnSetting*>& handles() {
    static std::vector<const OwnSetting*> list;
    return list;
}

}  // namespace

OwnSetting::OwnSetting(std::string name, OwnSettingKind kind)
    : m_name(std::move(name)), m_kind(kind) {
    handles().push_back(this);
}

const std::vector<const OwnSetting*>& ownSettingHandles() { return handles(); }

double OwnNumber::operator()(const TrainConfig& config) const { return ownNumber(config, name()); }

const std::string& OwnChoice::operator()(const TrainConfig& config) const {
    return ownChoice(config, name());
}

}  // namespace pfa
