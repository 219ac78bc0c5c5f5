// A probe's Report: what every `feedcheck probe` command puts in it besides its own figures —
// the run context, the evidence, the run's status and spend as "result" values, and the next
// step when the storage refused the request.
#pragma once

#include <optional>
#include <string>

#include "app/outcome.h"
#include "core/fact_set.h"
#include "probes/http_probe_env.h"
#include "probes/probe.h"
#include "reports/report.h"

namespace feedcheck::app {

/// How the probe reached its target, for the report (secrets already redacted).
struct ProbeTargetInfo {
  std::string display;           ///< URL (redacted) or path
  std::string kind;              ///< TargetKindName, or "local_path", "nic"
  std::string auth;              ///< AuthKindName; "" when no credential applies (local paths, NIC)
  std::optional<Target> target;  ///< the storage or http target; none for paths and the NIC
};
ProbeTargetInfo TargetInfoOf(const HttpProbeEnv& env);

/// A Report titled "Probe: NAME" holding `r`'s evidence and the target's own facts
/// (target.loopback, target.emulator: the reports' caveat reads them). The caller adds its
/// headline values, then AddRunResult.
Report StartProbeReport(const ProbeResult& r, const ProbeTargetInfo& target);

/// Appends a number from a fact (skipped when the fact is absent), with the fact's unit.
void AddFactResult(const FactSet& facts, const std::string& fact_key, const std::string& key,
                   const std::string& label, Report* report);
void AddNumberResult(const std::string& key, double value, const std::string& unit,
                     const std::string& label, Report* report);
void AddTextResult(const std::string& key, const std::string& value, const std::string& label,
                   Report* report);

/// Appends the run's status, message, target kind, auth, requests, bytes and seconds.
void AddRunResult(const ProbeResult& r, const ProbeTargetInfo& target, Report* report);

/// The Outcome of a finished probe: the report, the status its ProbeStatus gives, a diagnostic
/// when it was not ok, and the next step when an anonymous request was refused.
Outcome FinishProbe(Report report, const ProbeResult& r, const ProbeTargetInfo& target,
                    DiagnosticList diagnostics);

/// What to do when storage refused an anonymous request (HTTP 401/403, or 404 ResourceNotFound
/// as Azure and Azurite answer for a private container): the environment variable, the
/// managed-identity flag and the role to grant. Empty when `r` shows no such refusal.
std::string AccessDeniedAdvice(const ProbeResult& r, const ProbeTargetInfo& target);

}  // namespace feedcheck::app
