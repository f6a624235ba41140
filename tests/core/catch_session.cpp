// Catch2's implementation and runner, without a main(): catch_main.cpp (core, fetch and
// allocation tests) and ui/ui_test_main.cpp (with a QApplication) call runCatchSession.
#define CATCH_CONFIG_RUNNER
#include "catch_session.h"

#include <catch2/catch.hpp>

#include "test_skip.h"

PFA_REGISTER_SKIP_REPORTER()

int pfa::test::runCatchSession(int argc, char** argv) { return Catch::Session().run(argc, argv); }
