#include "app/probe_report.h"

#include <fmt/format.h>

#include "app/probe_session.h"
#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/run_context.h"
#include "core/units.h"
#include "probes/target_facts.h"

namespace feedcheck::app {
namespace {

// The public page that says which role reads blob data and how to assign it.
constexpr const char* kRoleDoc =
    "\"Assign an Azure role for access to blob data\" (Azure Storage documentation), "
    "https://learn.microsoft.com/azure/storage/blobs/assign-azure-role-data-access";

enum class Refusal { kNone, kDenied, kNotFound };

// A private container answers an anonymous request with 404 ResourceNotFound on Azure (it does
// not tell a stranger that the container exists), with 401/403 on other paths and on Azurite.
// The message carries the status when the probe stopped on it, the facts when it counted it.
Refusal RefusalOf(const ProbeResult& r) {
  const FactSet& f = r.evidence.facts;
  auto count = [&](const std::string& key) { return f.Number(key).value_or(0); };
  double denied = count("probe.errors.http.401") + count("probe.errors.http.403");
  for (const char* code : {"NoAuthenticationInformation", "AuthorizationFailure",
                           "AuthenticationFailed", "PublicAccessNotPermitted"})
    denied += count(std::string("probe.errors.code.") + code);
  for (const char* text : {"HTTP 401", "HTTP 403", "AuthorizationFailure",
                           "NoAuthenticationInformation", "PublicAccessNotPermitted"})
    if (r.message.find(text) != std::string::npos) denied += 1;
  if (denied > 0) return Refusal::kDenied;
  if (count("probe.errors.code.ResourceNotFound") + count("probe.errors.code.ContainerNotFound") >
          0 ||
      r.message.find("ResourceNotFound") != std::string::npos ||
      r.message.find("ContainerNotFound") != std::string::npos)
    return Refusal::kNotFound;
  return Refusal::kNone;
}

}  // namespace

ProbeTargetInfo TargetInfoOf(const HttpProbeEnv& env) {
  return {RedactUrl(env.target.Display()), std::string(TargetKindName(env.target.kind)),
          std::string(AuthKindName(env.signer.auth().kind)), env.target};
}

Report StartProbeReport(const ProbeResult& r, const ProbeTargetInfo& target) {
  Report report;
  report.context = CurrentRunContext("probe " + r.probe);
  report.context.target = target.display;
  report.title = "Probe: " + r.probe;
  report.evidence = r.evidence;
  // Loopback and emulator figures stay marked wherever this result goes (--with, compare).
  if (target.target) AddTargetFacts(*target.target, &report.evidence.facts);
  if (r.status != ProbeStatus::kOk)
    report.context.warnings.push_back(
        fmt::format("probe {} {}: {}", r.probe, ProbeStatusName(r.status), RedactText(r.message)));
  return report;
}

void AddNumberResult(const std::string& key, double value, const std::string& unit,
                     const std::string& label, Report* report) {
  report->result.push_back(ResultValue{key, value, unit, label});
}

void AddTextResult(const std::string& key, const std::string& value, const std::string& label,
                   Report* report) {
  report->result.push_back(ResultValue{key, value, "", label});
}

void AddFactResult(const FactSet& facts, const std::string& fact_key, const std::string& key,
                   const std::string& label, Report* report) {
  const Fact* f = facts.Find(fact_key);
  if (!f) return;
  if (auto n = facts.Number(fact_key)) {
    std::string unit = f->unit == Unit::kCount ? "" : std::string(UnitName(f->unit));
    AddNumberResult(key, *n, unit, label, report);
  } else if (auto b = facts.Bool(fact_key)) {
    report->result.push_back(ResultValue{key, *b, "", label});
  } else if (auto t = facts.Text(fact_key)) {
    AddTextResult(key, *t, label, report);
  }
}

void AddRunResult(const ProbeResult& r, const ProbeTargetInfo& target, Report* report) {
  AddTextResult("status", std::string(ProbeStatusName(r.status)), "Status", report);
  if (!r.message.empty()) AddTextResult("message", RedactText(r.message), "Why", report);
  AddTextResult("target_kind", target.kind, "Target kind", report);
  if (!target.auth.empty()) AddTextResult("auth", target.auth, "Credential", report);
  AddNumberResult("requests", static_cast<double>(r.requests_sent), "", "Requests", report);
  AddNumberResult("bytes", static_cast<double>(r.bytes_received), "bytes", "Bytes received",
                  report);
  AddNumberResult("elapsed_s", r.elapsed_s, "s", "Elapsed", report);
}

std::string AccessDeniedAdvice(const ProbeResult& r, const ProbeTargetInfo& target) {
  if (target.auth != AuthKindName(AuthKind::kAnonymous)) return "";
  if (target.kind == "local_path" || target.kind == "nic" || target.kind == "http") return "";
  Refusal refusal = RefusalOf(r);
  if (refusal == Refusal::kNone) return "";
  return fmt::format(
      "{} (no credential was found, so the request was anonymous): set "
      "AZURE_STORAGE_SAS_TOKEN to a SAS token with read and list permissions (or pass "
      "--sas-file FILE), or on an Azure VM or Azure ML compute use --auth managed-identity with "
      "an identity that holds the \"Storage Blob Data Reader\" role on the account or container; "
      "see {}",
      refusal == Refusal::kDenied
          ? "the storage refused an anonymous request"
          : "the storage answered \"not found\" to an anonymous request, as Azure does for a "
            "private container as well as a missing one",
      kRoleDoc);
}

Outcome FinishProbe(Report report, const ProbeResult& r, const ProbeTargetInfo& target,
                    DiagnosticList diagnostics) {
  Outcome out;
  if (r.status != ProbeStatus::kOk)
    diagnostics.Add({codes::kProbeStatus,
                     r.status == ProbeStatus::kPartial ? DiagnosticSeverity::kWarning
                                                       : DiagnosticSeverity::kError,
                     fmt::format("{}: {}", ProbeStatusName(r.status), RedactText(r.message)),
                     {},
                     "",
                     ""});
  std::string advice = AccessDeniedAdvice(r, target);
  if (!advice.empty()) {
    diagnostics.Add({codes::kAccessDenied, DiagnosticSeverity::kNote, advice, {}, "", ""});
    report.context.warnings.push_back(advice);
  }
  out.report = std::move(report);
  out.status = ProbeExitStatus(r.status);
  out.diagnostics = std::move(diagnostics);
  out.has_report = true;
  return out;
}

}  // namespace feedcheck::app
