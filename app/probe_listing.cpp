#include "app/probe_listing.h"

#include <fmt/format.h>

#include "app/seeded_probe_run.h"
#include "probes/list_probe.h"

namespace feedcheck::app {

Outcome RunProbeList(const ListRequest& r, const ProbeCallbacks& callbacks) {
  Outcome out;
  if (r.max_pages < 1) out.diagnostics.Add(FlagDiagnostic("--max-pages must be >= 1"));
  if (r.page_size < 1 || r.page_size > 5000)
    out.diagnostics.Add(FlagDiagnostic("--page-size must be from 1 to 5000"));
  if (out.diagnostics.has_errors()) {
    out.status = ExitStatus::kUsage;
    return out;
  }
  ListProbeOptions o;
  o.max_pages = r.max_pages;
  o.max_results = r.page_size;
  o.delimiter = r.delimiter;
  SeededRunRequest seeded;
  seeded.probe = "list";
  seeded.session = r.session;
  seeded.create_test_data = r.create_test_data;
  seeded.test_data_sizes = {4096, 65536};
  seeded.cleanup = r.cleanup;
  seeded.plan = fmt::format("at most {} pages of {}", o.max_pages, o.max_results);
  SeededRun run = RunSeeded(
      seeded, callbacks,
      [&](const std::string& dir, const ProbeBudget& budget, const ProgressFn& progress) {
        return RunLocalListProbe(dir, o, budget, progress);
      },
      [&](const HttpProbeEnv& env) { return RunListProbe(env, o); }, &out.diagnostics);
  if (run.status != ExitStatus::kOk) {
    out.status = run.status;
    return out;
  }

  Report report = StartProbeReport(run.result, run.target);
  const FactSet& f = run.result.evidence.facts;
  const bool local = run.target.kind == "local_path";
  if (!local) AddFactResult(f, "probe.list.pages", "pages", "Pages", &report);
  AddFactResult(f, "probe.list.entries", "entries", "Entries", &report);
  AddNumberResult("seconds", run.result.elapsed_s, "s", "Listing time", &report);
  AddFactResult(f, "probe.list.entries_per_s", "entries_per_s", "Entries per second", &report);
  if (!local)
    AddFactResult(f, "probe.list.requests", "list_requests", "List operations (billed)", &report);
  auto entries = f.Number("probe.list.entries");
  if (entries && *entries > 0)
    AddNumberResult("ms_per_1000_entries", 1e6 * run.result.elapsed_s / *entries, "ms",
                    "Time per 1,000 entries", &report);
  AddFactResult(f, "probe.list.complete", "complete", "Listing complete", &report);
  AddFactResult(f, "dataset.files", "dataset_files", "Files", &report);
  AddFactResult(f, "dataset.bytes", "dataset_bytes", "Dataset bytes", &report);
  AddFactResult(f, "dataset.small_file_fraction", "small_file_fraction", "Files under 4 MiB",
                &report);
  AddRunResult(run.result, run.target, &report);
  AddTestDataResult(run.test_data, &report, &out.diagnostics);
  return FinishProbe(std::move(report), run.result, run.target, std::move(out.diagnostics));
}

}  // namespace feedcheck::app
