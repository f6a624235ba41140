#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "test_skip.h"

PFA_REGISTER_SKIP_REPORTER()
