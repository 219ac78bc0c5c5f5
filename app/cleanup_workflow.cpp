#include "app/cleanup_workflow.h"

#include <fmt/format.h>

#include "app/probe_report.h"
#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/run_context.h"
#include "core/units.h"
#include "probes/cleanup_registry.h"
#include "probes/leftover_test_data.h"

namespace feedcheck::app {
namespace {

ExitStatus CleanupStatus(const LeftoverCleanupResult& r, bool dry_run) {
  if (r.result.status == ProbeStatus::kUnreachable) return ExitStatus::kInputError;
  if (r.result.status == ProbeStatus::kFailed) return ExitStatus::kProbeFailed;
  // Something found was not removed, or the listing was not read to its end: not done.
  // Recent prefixes skipped on purpose (a run may be live) are said, not counted as left.
  const bool left = !dry_run && r.blobs_deleted < r.blobs_found - r.blobs_skipped_recent;
  return left || !r.listing_complete ? ExitStatus::kProbeFailed : ExitStatus::kOk;
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

ReportTable PrefixTable(const LeftoverCleanupResult& r, bool dry_run) {
  ReportTable table;
  table.title = "Test-data prefixes";
  table.columns = {{"prefix", "Prefix"},
                   {"blobs", "Blobs", true},
                   {"bytes", "Size", true},
                   {"action", dry_run ? "Dry run" : "Action"}};
  // Deletes are counted for the whole run, not per prefix: "removed" only when all went, and
  // nothing is removed from a listing not read to its end.
  const uint64_t to_remove = r.blobs_found - r.blobs_skipped_recent;
  const char* action = !r.listing_complete            ? (dry_run ? "unknown" : "not removed")
                       : dry_run                      ? "would remove"
                       : r.blobs_deleted == to_remove ? "removed"
                                                      : "attempted";
  for (const LeftoverPrefix& p : r.prefixes)
    table.rows.push_back({{p.prefix, std::nullopt},
                          {fmt::format("{}", p.blobs), static_cast<double>(p.blobs)},
                          {FormatBytes(static_cast<double>(p.bytes)), static_cast<double>(p.bytes)},
                          {p.recent ? "skipped (recent)" : action, std::nullopt}});
  return table;
}

}  // namespace

Outcome RunCleanup(const CleanupRequest& request, const ProbeCallbacks& callbacks) {
  if (request.max_pages < 1) return StoppedOnFlag(DiagnosticList(), "--max-pages must be >= 1");
  Outcome out;
  HttpProbeEnv env;
  ExitStatus opened = OpenHttpSession(request.session, &env, &out.diagnostics);
  if (opened != ExitStatus::kOk) {
    out.status = opened;
    return out;
  }
  callbacks.Notice(DescribeSession("cleanup", env,
                                   request.dry_run
                                       ? "dry run: lists feedcheck-test-* prefixes, deletes nothing"
                                       : "deletes blobs under feedcheck-test-* prefixes only"));
  LeftoverCleanupOptions options;
  options.dry_run = request.dry_run;
  options.max_pages = request.max_pages;
  options.force = request.force;
  const LeftoverCleanupResult r = CleanUpLeftoverTestData(env, options);

  const ProbeTargetInfo target = TargetInfoOf(env);
  Report report;
  report.context = CurrentRunContext("cleanup");
  report.context.target = target.display;
  report.title = "Cleanup";
  const uint64_t deleted = request.dry_run ? 0 : r.blobs_deleted;
  report.verdict_detail =
      fmt::format("{}, {} found, {} {}", Plural(r.prefixes.size(), "test prefix", "test prefixes"),
                  Plural(r.blobs_found, "blob", "blobs"), deleted,
                  request.dry_run ? "deleted (dry run)" : "deleted");
  AddTextResult("target", target.display, "Target", &report);
  report.result.push_back({"dry_run", request.dry_run, "", "Dry run"});
  report.result.push_back({"listing_complete", r.listing_complete, "", "Listing read to its end"});
  AddNumberResult("prefixes", static_cast<double>(r.prefixes.size()), "", "Test prefixes", &report);
  AddNumberResult("blobs_found", static_cast<double>(r.blobs_found), "", "Blobs found", &report);
  AddNumberResult("blobs_deleted", static_cast<double>(r.blobs_deleted), "", "Blobs deleted",
                  &report);
  AddNumberResult("delete_failures", static_cast<double>(r.delete_failures), "",
                  "Deletes that failed", &report);
  AddNumberResult("blobs_skipped_recent", static_cast<double>(r.blobs_skipped_recent), "",
                  "Blobs skipped: prefixes from the last 24 hours", &report);
  AddRunResult(r.result, target, &report);
  if (!r.prefixes.empty()) report.tables.push_back(PrefixTable(r, request.dry_run));
  if (r.result.status != ProbeStatus::kOk)
    report.context.warnings.push_back(fmt::format(
        "cleanup {}: {}", ProbeStatusName(r.result.status), RedactText(r.result.message)));
  if (!r.result.message.empty())
    AddMessage(&out.diagnostics, codes::kProbeStatus, RedactText(r.result.message),
               r.result.status == ProbeStatus::kOk || r.result.status == ProbeStatus::kPartial
                   ? DiagnosticSeverity::kWarning
                   : DiagnosticSeverity::kError);
  if (std::string advice = AccessDeniedAdvice(r.result, target); !advice.empty())
    AddMessage(&out.diagnostics, codes::kAccessDenied, advice, DiagnosticSeverity::kNote);
  const uint64_t to_remove = r.blobs_found - r.blobs_skipped_recent;
  if (!request.dry_run && r.blobs_deleted < to_remove)
    AddMessage(
        &out.diagnostics, codes::kTestDataLeft,
        fmt::format(
            "{} of {} test blobs were not removed; {}", to_remove - r.blobs_deleted, to_remove,
            r.listing_complete ? "run cleanup again" : "the listing was not read to its end"));
  out.report = std::move(report);
  out.has_report = true;
  // A signal stops the listing early: the run is not done, and the caller exits 128 + signal.
  out.status = StopRequested() ? ExitStatus::kProbeFailed : CleanupStatus(r, request.dry_run);
  return out;
}

}  // namespace feedcheck::app
