// What a throughput run's steps come to: the peak, the knee and the totals, the facts and the
// chart they give, and the run's status with why. The measuring is probes/throughput_probe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probes/budget_tracker.h"
#include "probes/throughput_probe.h"
#include "transport/http_errors.h"

namespace feedcheck {

/// What the steps add up to, besides the peak and the knee.
struct StepTotals {
  uint64_t window_bytes = 0;  ///< bodies inside the measurement windows
  uint64_t data_bytes = 0;    ///< object data that arrived at all
  uint64_t completed = 0;     ///< blocks that completed
};

/// Sets the peak and the knee of `out`'s steps; returns their totals.
StepTotals SummarizeSteps(const ThroughputProbeOptions& o, ThroughputProbeResult* out);

/// The measured figures as probe.throughput.* facts (the rates only when bytes arrived in a
/// window: error bodies never count, so nothing read is no measurement).
void AddThroughputFacts(const ThroughputProbeResult& out, const ThroughputProbeOptions& o,
                        const StepTotals& totals, size_t objects, const Provenance& p,
                        FactSet* facts);

/// Gbit/s by connections, one point per step (probe.throughput.by_concurrency).
Series ThroughputByConcurrency(const std::vector<ThroughputStep>& steps);

/// Failed when nothing arrived in a window; partial, with why, when the budget, a stop, errors
/// or skipped objects (`skipped`, from discovery) cut the run short, or not one block completed.
void JudgeThroughputRun(const ThroughputProbeResult& out, const StepTotals& totals, bool budget_hit,
                        const std::string& skipped, const BudgetTracker& budget,
                        const ErrorTally& errors, ProbeResult* result);

}  // namespace feedcheck
