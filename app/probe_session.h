// What every command that talks to storage sets up first, from plain text as the user gave it:
// the target, the credential (from the environment or files only), TLS, and the budget the run
// states and keeps. Shared by `feedcheck probe`, `feedcheck preflight`, `feedcheck-mpi` and
// `feedcheck-seed`; errors are diagnostics naming the flag, with the exit status they give.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/exit_status.h"
#include "probes/http_probe_env.h"
#include "probes/probe.h"
#include "transport/azure_auth.h"

namespace feedcheck::app {

struct ProbeSessionRequest {
  std::string target;  ///< URL (https://, wasbs://, abfss://, http://) or a local path
  AuthOptions auth;
  std::string ca_file;
  bool insecure = false;
  std::string duration = "30s";  ///< wall-clock budget as typed ("90s", "2m")
  uint64_t max_requests = 100000;
  std::string max_bytes = "8GiB";
  /// Connections for the probe; empty: libcurl with the TLS settings above. Unit tests put a
  /// scripted client here.
  ClientFactory make_client;
  /// The environment credentials are read from; empty: the process environment.
  GetEnvFn get_env;
};

/// Where a workflow tells its caller what it is about to do (the budget statement, before any
/// request) and how far it is; either may be empty.
struct ProbeCallbacks {
  std::function<void(const std::string&)> notice;
  ProgressFn progress;
  void Notice(const std::string& text) const {
    if (notice) notice(text);
  }
};

/// The budget flags (--duration, --max-requests, --max-bytes); false with a diagnostic naming
/// the flag.
bool ParseProbeBudget(const ProbeSessionRequest& request, ProbeBudget* out,
                      DiagnosticList* diagnostics);

/// The probe environment for an HTTP target: parses the target, refuses a SAS signature in argv
/// and a credential over plain http, resolves the credential, makes the client factory. Returns
/// kOk, kUsage (a flag or the target as given) or kInputError (the credential), with diagnostics
/// saying which. --insecure adds a warning.
ExitStatus OpenHttpSession(const ProbeSessionRequest& request, HttpProbeEnv* env,
                           DiagnosticList* diagnostics);

/// True when `target` names a local or mounted directory (no HTTP set-up needed); `path` is it.
bool IsLocalPathTarget(const std::string& target, std::string* path);

/// "NAME: TARGET (KIND, auth A); budget ...[; extra]": what a probe states before it starts.
std::string DescribeSession(const std::string& probe, const HttpProbeEnv& env,
                            const std::string& extra);

/// The exit status for a probe outcome, the one mapping every probe command uses: ok and partial
/// kOk, failed kProbeFailed (the target answered HTTP but refused or throttled every attempt, so
/// nothing was measured), unreachable kInputError (no connection, or the target does not exist).
ExitStatus ProbeExitStatus(ProbeStatus status);

/// A flag that would put a secret in argv (--key, --sas, --token, ...) and where the secret goes
/// instead; every binary that takes a target refuses these by name, so the parser's "unexpected
/// argument" error never echoes the value.
struct RefusedSecretFlag {
  const char* flag;
  const char* instead;
};
const std::vector<RefusedSecretFlag>& RefusedSecretFlags();
/// "secrets are not accepted on the command line (...); use INSTEAD".
std::string RefusedSecretMessage(const RefusedSecretFlag& flag);

/// A usage diagnostic naming the flag (code W101).
Diagnostic FlagDiagnostic(const std::string& message);

}  // namespace feedcheck::app
