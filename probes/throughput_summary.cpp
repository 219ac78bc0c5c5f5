#include "probes/throughput_summary.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/stop_request.h"
#include "probes/probe.h"

namespace feedcheck {

// Summarize: the peak, the knee and the totals of the steps.
StepTotals SummarizeSteps(const ThroughputProbeOptions& o, ThroughputProbeResult* out) {
  StepTotals t;
  for (const ThroughputStep& s : out->steps) {
    out->best_gbps = std::max(out->best_gbps, s.gbps);
    t.window_bytes += s.window_bytes;
    t.data_bytes += s.received_bytes;
    t.completed += s.completed_requests;
  }
  size_t knee = KneeIndex(out->steps, o.min_gain);
  if (!out->steps.empty()) {
    out->knee_concurrency = out->steps[knee].concurrency;
    out->knee_gbps = out->steps[knee].gbps;
    out->knee_noise_gbps = out->steps[knee].noise_gbps;
  }
  return t;
}

// Summarize: the measured figures as facts. Error bodies never reach window_bytes (only 2xx
// bodies are counted), so nothing read from an object is no measurement.
void AddThroughputFacts(const ThroughputProbeResult& out, const ThroughputProbeOptions& o,
                        const StepTotals& t, size_t objects, const Provenance& p, FactSet* f) {
  if (t.window_bytes > 0) {
    f->Set(NumberFact("probe.throughput.gbps", out.best_gbps, Unit::kGbps, p));
    f->Set(NumberFact("probe.throughput.best_concurrency", out.knee_concurrency, Unit::kCount, p));
    f->Set(NumberFact("probe.throughput.knee_gbps", out.knee_gbps, Unit::kGbps, p));
    f->Set(NumberFact("probe.throughput.knee_noise_gbps", out.knee_noise_gbps, Unit::kGbps, p));
    size_t set_aside = 0;
    for (const ThroughputStep& s : out.steps) set_aside += s.set_aside_gbps.size();
    if (o.concurrency == 0)
      f->Set(NumberFact("probe.throughput.runs_set_aside", static_cast<double>(set_aside),
                        Unit::kCount, p));
    if (out.cycle_s > 0)
      f->Set(NumberFact("probe.throughput.request_cycle_ms", out.cycle_s * 1e3, Unit::kMilliseconds,
                        p));
    if (o.nic_gbps > 0)
      f->Set(NumberFact("probe.throughput.nic_fraction", out.best_gbps / o.nic_gbps,
                        Unit::kFraction, p));
    // CPU per GB of object data that arrived: error bodies and bytes cut off are not data.
    double gb = static_cast<double>(t.data_bytes) / 1e9;
    if (gb > 0)
      f->Set(
          NumberFact("probe.throughput.cpu_s_per_gb", out.cpu_s / gb, Unit::kCpuSecondsPerGB, p));
  }
  f->Set(
      NumberFact("probe.throughput.bytes", static_cast<double>(t.window_bytes), Unit::kBytes, p));
  f->Set(NumberFact("probe.throughput.block_bytes", static_cast<double>(o.block_bytes),
                    Unit::kBytes, p));
  f->Set(NumberFact("probe.throughput.objects", static_cast<double>(objects), Unit::kCount, p));
}

// Chart: Gbit/s by connections, one point per step.
Series ThroughputByConcurrency(const std::vector<ThroughputStep>& steps) {
  Series series;
  series.key = "probe.throughput.by_concurrency";
  series.title = "throughput by connections";
  series.x_label = "connections";
  series.x_unit = Unit::kCount;
  series.y_label = "throughput";
  series.y_unit = Unit::kGbps;
  for (const ThroughputStep& s : steps)
    series.points.push_back({static_cast<double>(s.concurrency), s.gbps});
  return series;
}

// Conclude: failed when nothing arrived in a window; partial, with why, when the budget, a
// stop, errors or skipped objects cut the run short. Blocks cut short (a reset, the deadline)
// still delivered data: partial when not one block completed.
void JudgeThroughputRun(const ThroughputProbeResult& out, const StepTotals& t, bool budget_hit,
                        const std::string& skipped, const BudgetTracker& budget,
                        const ErrorTally& errors, ProbeResult* result) {
  if (t.window_bytes == 0) {
    result->status = ProbeStatus::kFailed;
    result->message = !errors.first_message.empty() ? "no bytes arrived: " + errors.first_message
                      : !budget.stop_reason().empty()
                          ? "no bytes arrived in the measurement window: " + budget.stop_reason()
                          : "no block completed in the measurement window (every transfer "
                            "stalled or was too slow to finish one)";
  } else if (budget_hit || errors.total > 0 || StopRequested() || t.completed == 0 ||
             !skipped.empty()) {
    result->status = ProbeStatus::kPartial;
    std::string why = budget_hit || StopRequested() ? budget.stop_reason() : "";
    if (!skipped.empty()) why += std::string(why.empty() ? "" : "; ") + skipped;
    if (t.completed == 0)
      why += std::string(why.empty() ? "" : "; ") +
             "no block completed: the figure comes from transfers cut short";
    if (StopRequested()) why = StopReason();
    if (std::any_of(out.steps.begin(), out.steps.end(),
                    [](const ThroughputStep& s) { return s.warmup_included; }))
      why += " during the warm-up (measured including it: slow start lowers the figure)";
    if (errors.total)
      why += (why.empty() ? "" : "; ") + fmt::format("{} failed requests, {} retries (first: {})",
                                                     errors.total, errors.retries,
                                                     errors.first_message);
    result->message = why;
  }
}

}  // namespace feedcheck
