#include "app/seeded_probe_run.h"

#include <fmt/format.h>

#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/units.h"
#include "probes/budget_tracker.h"
#include "probes/test_data.h"

namespace feedcheck::app {
namespace {

constexpr const char* kSeedNote =
    "creates test data under a new prefix within this budget (its cleanup may run past it only "
    "to remove what was written)";

TestDataSpec SpecFor(const std::vector<uint64_t>& sizes) {
  TestDataSpec spec;
  spec.sizes = sizes;
  return spec;
}

Diagnostic Error(const char* code, const std::string& message) {
  return Diagnostic{code, DiagnosticSeverity::kError, RedactText(message), {}, "", ""};
}

TestDataOutcome Remove(TestData* td) {
  TestDataOutcome out;
  out.used = true;
  out.location = RedactUrl(td->location());
  out.objects = td->created();
  out.bytes = td->created_bytes();
  out.left = td->Remove();
  return out;
}

}  // namespace

SeededRun RunSeeded(const SeededRunRequest& r, const ProbeCallbacks& callbacks,
                    const LocalRun& local, const StorageRun& storage, DiagnosticList* diagnostics) {
  SeededRun run;
  TestData td;
  std::string path, error;
  if (IsLocalPathTarget(r.session.target, &path)) {
    run.target = {path, "local_path", ""};
    ProbeBudget budget;
    if (!ParseProbeBudget(r.session, &budget, diagnostics)) {
      run.status = ExitStatus::kUsage;
      return run;
    }
    callbacks.Notice(fmt::format("probe {}: {} (local path); budget {}{}{}", r.probe, path,
                                 DescribeBudget(budget), r.plan.empty() ? "" : "; ", r.plan));
    if (r.create_test_data &&
        !td.CreateInDirectory(path, SpecFor(r.test_data_sizes), r.cleanup, &path, &error)) {
      td.Remove();
      diagnostics->Add(Error(codes::kBadTarget, error));
      run.status = ExitStatus::kInputError;
      return run;
    }
    run.result = local(path, budget, callbacks.progress);
  } else {
    HttpProbeEnv env;
    run.status = OpenHttpSession(r.session, &env, diagnostics);
    if (run.status != ExitStatus::kOk) return run;
    run.target = TargetInfoOf(env);
    env.progress = callbacks.progress;
    std::string plan = r.plan;
    if (r.create_test_data) plan += (plan.empty() ? "" : "; ") + std::string(kSeedNote);
    callbacks.Notice(DescribeSession(r.probe, env, plan));
    HttpProbeEnv run_env = env;
    if (r.create_test_data) {
      std::vector<std::pair<std::string, uint64_t>> layout;
      // Refused before anything is written when the budget cannot hold it.
      if (!PlanTestDataWithin(SpecFor(r.test_data_sizes), env.budget, &layout, &error)) {
        diagnostics->Add(Error(codes::kProbeBadFlag, error));
        run.status = ExitStatus::kUsage;
        return run;
      }
      if (!td.CreateInStorage(env, SpecFor(r.test_data_sizes), r.cleanup, &run_env, &error)) {
        td.Remove();
        diagnostics->Add(Error(codes::kBadTarget, error));
        run.status = ExitStatus::kInputError;
        return run;
      }
    }
    run.result = storage(run_env);
  }
  if (r.create_test_data) run.test_data = Remove(&td);
  return run;
}

void AddTestDataResult(const TestDataOutcome& td, Report* report, DiagnosticList* diagnostics) {
  if (!td.used) return;
  AddTextResult("test_data_location", td.location, "Test data", report);
  AddNumberResult("test_data_objects", static_cast<double>(td.objects), "", "Test objects", report);
  AddNumberResult("test_data_bytes", static_cast<double>(td.bytes), "bytes", "Test bytes", report);
  report->result.push_back(ResultValue{"test_data_removed", td.left == 0, "", "Test data removed"});
  if (td.left > 0) {
    std::string message = fmt::format("test data: {} of {} objects under {} were NOT removed",
                                      td.left, td.objects, td.location);
    diagnostics->Add(Error(codes::kTestDataLeft, message));
    report->context.warnings.push_back(message);
  }
}

}  // namespace feedcheck::app
