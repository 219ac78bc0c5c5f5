// Flags shared by every `feedcheck probe` subcommand: target, credentials (from environment
// or files only), TLS, and the budget every probe states and keeps.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck::cli {

struct ProbeOptions {
  std::string target;
  AuthOptions auth;
  std::string ca_file;
  bool insecure = false;
  std::string duration = "30s";
  uint64_t max_requests = 100000;
  std::string max_bytes = "8GiB";
};

/// Adds TARGET (positional), --auth, --account, --key-file, --sas-file, --token-file,
/// --managed-identity-client-id, --ca-file, --insecure, and refuses secret-looking flags
/// (--key, --sas, --token, ...) with a message that says where secrets go instead.
void AddProbeTargetOptions(CLI::App* app, ProbeOptions* options);
/// Adds --duration, --max-requests, --max-bytes with the given defaults.
void AddProbeBudgetOptions(CLI::App* app, ProbeOptions* options);

/// Parses the budget flags; false with a message naming the flag.
bool ParseBudget(const ProbeOptions& options, ProbeBudget* out, std::string* error);

/// Builds the probe environment: parses the target, refuses a SAS signature in argv,
/// resolves credentials, makes the libcurl client factory. Returns an exit status
/// (0 on success, 2 usage, 3 target error) and a message on failure.
int BuildHttpProbeEnv(const ProbeOptions& options, HttpProbeEnv* env, std::string* error);

/// Prints "probe NAME: TARGET, auth A; budget ..." to stderr.
void StateBudget(const std::string& probe, const HttpProbeEnv& env, const std::string& extra);

/// A progress callback that writes to stderr when it is a terminal, nothing otherwise.
ProgressFn TerminalProgress();

/// The exit codes (core/exit_status.h) for a probe outcome, the one mapping every probe command uses: ok and
/// partial 0, failed 4 (the target answered HTTP but refused or throttled every attempt, so
/// nothing was measured), unreachable 3 (no connection, or the target does not exist). A run
/// stopped by SIGINT/SIGTERM exits 128 + the signal instead (see ProbeExit).
int ProbeExitCode(ProbeStatus status);

/// The exit code of a finished probe command: 130/143 when SIGINT/SIGTERM stopped it (its
/// partial result has been printed), else ProbeExitCode(status).
int ProbeExit(ProbeStatus status);

}  // namespace feedcheck::cli
