#include "app/probe_smallfiles.h"

#include <fmt/format.h>

#include "app/seeded_probe_run.h"
#include "core/units.h"
#include "probes/smallfile_probe.h"

namespace feedcheck::app {

Outcome RunProbeSmallFiles(const SmallFilesRequest& r, const ProbeCallbacks& callbacks) {
  Outcome out;
  SmallFileOptions o;
  if (!r.sizes.empty()) {
    o.sizes.clear();
    for (const auto& s : r.sizes) {
      std::string err;
      auto b = ParseBytes(s, &err);
      if (!b || *b < 1 || *b > double(1ull << 30)) {
        out.diagnostics.Add(FlagDiagnostic("--sizes '" + s + "': a size from 1 B to 1 GiB" +
                                           (err.empty() ? "" : ": " + err)));
        continue;
      }
      o.sizes.push_back(static_cast<uint64_t>(*b));
    }
  }
  if (r.concurrency < 1 || r.concurrency > 256)
    out.diagnostics.Add(FlagDiagnostic("--concurrency must be from 1 to 256"));
  if (r.requests_per_size < 1)
    out.diagnostics.Add(FlagDiagnostic("--requests-per-size must be >= 1"));
  if (out.diagnostics.has_errors()) {
    out.status = ExitStatus::kUsage;
    return out;
  }
  o.concurrency = r.concurrency;
  o.requests_per_size = r.requests_per_size;
  SeededRunRequest seeded;
  seeded.probe = "smallfiles";
  seeded.session = r.session;
  seeded.create_test_data = r.create_test_data;
  seeded.test_data_sizes = o.sizes;
  seeded.cleanup = r.cleanup;
  seeded.plan = fmt::format("{} sizes, concurrency {}", o.sizes.size(), o.concurrency);
  SeededRun run = RunSeeded(
      seeded, callbacks,
      [&](const std::string& dir, const ProbeBudget& budget, const ProgressFn& progress) {
        return RunLocalSmallFileProbe(dir, o, budget, progress);
      },
      [&](const HttpProbeEnv& env) { return RunSmallFileProbe(env, o); }, &out.diagnostics);
  if (run.status != ExitStatus::kOk) {
    out.status = run.status;
    return out;
  }

  Report report = StartProbeReport(run.result, run.target);
  const FactSet& f = run.result.evidence.facts;
  const std::string p = "probe.smallfile.";
  AddFactResult(f, p + "overhead_ms", "overhead_ms", "Overhead per request", &report);
  AddFactResult(f, p + "bandwidth_gbps", "bandwidth_gbps", "Bandwidth", &report);
  AddFactResult(f, p + "breakeven_bytes", "breakeven_bytes", "Break-even size", &report);
  AddFactResult(f, p + "breakeven_bytes_one_stream", "breakeven_bytes_one_stream",
                "Break-even size, one request at a time", &report);
  AddFactResult(f, p + "concurrency", "concurrency", "Concurrency", &report);
  AddFactResult(f, p + "fit_r2", "fit_r2", "Fit R²", &report);
  AddRunResult(run.result, run.target, &report);
  AddTestDataResult(run.test_data, &report, &out.diagnostics);
  return FinishProbe(std::move(report), run.result, run.target, std::move(out.diagnostics));
}

}  // namespace feedcheck::app
