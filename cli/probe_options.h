// The command-line binding of app/probe_session: TARGET, credentials (from environment or files
// only), TLS, and the budget every probe states and keeps. Parsing and set-up live in app/.
#pragma once

#include <CLI/CLI.hpp>

#include "app/probe_session.h"

namespace feedcheck::cli {

using ProbeOptions = app::ProbeSessionRequest;

/// Adds TARGET (positional), --auth, --account, --key-file, --sas-file, --token-file,
/// --managed-identity-client-id, --ca-file, --insecure, and refuses secret-looking flags
/// (--key, --sas, --token, ...) with a message that says where secrets go instead.
void AddProbeTargetOptions(CLI::App* app, ProbeOptions* options);
/// Adds --duration, --max-requests, --max-bytes with the given defaults.
void AddProbeBudgetOptions(CLI::App* app, ProbeOptions* options);

/// Adapters for the commands not yet moved to app/ (cleanup): app::OpenHttpSession with its
/// diagnostics joined into `error`, and app::DescribeSession printed to stderr.
int BuildHttpProbeEnv(const ProbeOptions& options, HttpProbeEnv* env, std::string* error);
void StateBudget(const std::string& probe, const HttpProbeEnv& env, const std::string& extra);

}  // namespace feedcheck::cli
