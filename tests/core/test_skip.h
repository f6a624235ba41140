#pragma once

// Skipping a test with a reason, for the core, download and UI tests (Catch2 v2 has no SKIP),
// and where the offline copies of the catalog's data sets are, which is what most skips lack.
//
// PFA_SKIP_TEST(reason) warns with the reason and returns from the test. When the test case
// ends without a failed assertion, the listener registered by each test program's main prints
// "PFA-TEST-SKIPPED: <reason>" on its own line, which CTest's SKIP_REGULAR_EXPRESSION turns
// into "Skipped". A skip never hides a failure: CTest's skip expression wins over a non-zero
// exit status, so the line is printed only for a test case that failed nothing.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

namespace pfa::test {

/// What CTest looks for (tests/CMakeLists.txt, tests/fetch/CMakeLists.txt, tests/cli).
inline constexpr const char* kSkipMarker = "PFA-TEST-SKIPPED: ";

/// The reason of the skip asked for by the running test case ("" when none).
inline std::string& requestedSkip() {
    static std::string reason;
    return reason;
}

/// Records the skip of the running test case; use PFA_SKIP_TEST, which also returns.
inline void skipTest(const std::string& reason) {
    WARN("skipped: " << reason);
    requestedSkip() = reason.empty() ? std::string("no reason given") : reason;
}

/// The folder of the offline copies of the catalog's data sets: $PFA_SHARED_DATASETS when set
/// (so that `PFA_SHARED_DATASETS=/nonexistent ctest` shows every test that needs them skip),
/// else the folder the build names (CMake option PFA_SHARED_DATASETS).
inline std::filesystem::path sharedDatasetsRoot() {
    if (const char* fromEnvironment = std::getenv("PFA_SHARED_DATASETS");
        fromEnvironment && *fromEnvironment)
        return fromEnvironment;
#ifdef PFA_SHARED_DATASETS
    return PFA_SHARED_DATASETS;
#else
    return "../shared/datasets";
#endif
}

}  // namespace pfa::test

/// Skips the rest of the test case with `reason` (anything a stream takes) and returns.
#define PFA_SKIP_TEST(reason)                        \
    do {                                             \
        std::ostringstream pfaSkipReason_;           \
        pfaSkipReason_ << reason;                    \
        ::pfa::test::skipTest(pfaSkipReason_.str()); \
        return;                                      \
    } while (false)

// The listener: compiled only where Catch's implementation is (the test programs' mains).
#if defined(CATCH_CONFIG_EXTERNAL_INTERFACES)
namespace pfa::test {

struct SkipReporter : Catch::TestEventListenerBase {
    using TestEventListenerBase::TestEventListenerBase;

    void testCaseStarting(const Catch::TestCaseInfo& info) override {
        requestedSkip().clear();
        TestEventListenerBase::testCaseStarting(info);
    }

    void testCaseEnded(const Catch::TestCaseStats& stats) override {
        const std::string reason = requestedSkip();
        requestedSkip().clear();
        if (!reason.empty()) {
            if (stats.totals.assertions.failed == 0 && stats.totals.testCases.failed == 0)
                std::cout << '\n' << kSkipMarker << reason << std::endl;
            else
                std::cout << "\nskip asked for (" << reason
                          << "), but the test failed before it: reported as failed" << std::endl;
        }
        TestEventListenerBase::testCaseEnded(stats);
    }
};

}  // namespace pfa::test
// (Catch pastes the type into a name: it must be unqualified.)
#define PFA_REGISTER_SKIP_REPORTER()                   \
    using PfaSkipReporter = ::pfa::test::SkipReporter; \
    CATCH_REGISTER_LISTENER(PfaSkipReporter)
#endif
