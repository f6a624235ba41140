#include "core/privacy/noisy_release.h"

namespace pfa::privacy {

namespace {
thread_local ReleaseTap* t_tap = nullptr;
}  // namespace

ReleaseTap* activeReleaseTap() { return t_tap; }

ScopedReleaseTap::ScopedReleaseTap(ReleaseTap& tap) : m_previous(t_tap) { t_tap = &tap; }

ScopedReleaseTap::~ScopedReleaseTap() { t_tap = m_previous; }

}  // namespace pfa::privacy
