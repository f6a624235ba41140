#pragma once

namespace pfa::cli {

/// Each subcommand parses argv[2..], returns the process exit status (0 ok, 1 runtime error)
/// and throws UsageError for a bad command line (exit status 2).
int trainCommand(int argc, char** argv);
int epsilonCommand(int argc, char** argv);
int benchCommand(int argc, char** argv);
int datasetsCommand(int argc, char** argv);
int mergeCommand(int argc, char** argv);
int predictCommand(int argc, char** argv);

}  // namespace pfa::cli
