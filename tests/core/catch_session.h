#pragma once
// Catch2's runner, compiled once (tests/core/catch_session.cpp) for every test executable: its
// implementation is the slowest file of each program to compile.

namespace pfa::test {

/// Runs the Catch2 session over this program's test cases with the command-line arguments
/// (with the skip listener of test_skip.h registered); returns the program's exit status.
int runCatchSession(int argc, char** argv);

}  // namespace pfa::test
