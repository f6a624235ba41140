#pragma once

#include <string>

#include "core/privacy/dataset_ledger.h"
#include "core/privacy/ledger_store.h"

namespace pfa::cli {

/// Prints a ledger's totals (and with `listRuns` one line per charged run) to stdout.
void printLedger(const privacy::DatasetLedger& ledger, bool listRuns);
/// Prints the persistent ledger of a data set's rows: its names, totals and file (and with
/// `listRuns` one line per charged run).
void printStoredLedger(const privacy::StoredLedger& stored, bool listRuns);

/// Each subcommand parses argv[2..], returns the process exit status (0 ok, 1 runtime error)
/// and throws UsageError for a bad command line (exit status 2).
int trainCommand(int argc, char** argv);
int epsilonCommand(int argc, char** argv);
int benchCommand(int argc, char** argv);
int datasetsCommand(int argc, char** argv);
int mergeCommand(int argc, char** argv);
int statusCommand(int argc, char** argv);
int clusterCommand(int argc, char** argv);

/// Options of `pfa-cli train` that a shard's task sets itself, each with a value (--out,
/// --shard, --threads, --write-manifest, --shards): a sweep's manifest and job scripts leave
/// them out of the sweep's options.
bool isSetByShardTask(const std::string& option);
/// Flags a shard's task leaves out: it logs every run (--quiet) and resumes (--no-resume).
bool isLeftOutOfShardTask(const std::string& option);
int ledgerCommand(int argc, char** argv);
int predictCommand(int argc, char** argv);
int exportModelCommand(int argc, char** argv);
int parametersCommand(int argc, char** argv);
int auditCommand(int argc, char** argv);
int reportCommand(int argc, char** argv);

}  // namespace pfa::cli
