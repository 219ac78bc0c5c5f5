#include "probes/throughput_conclusion.h"

#include <fmt/format.h>

namespace feedcheck {
namespace {

std::string Connections(int n) { return fmt::format("{} connection{}", n, n == 1 ? "" : "s"); }

std::string CpuText(const ThroughputConclusion& c, const ConclusionInputs& in) {
  if (in.cpu_cores > 0) return fmt::format("CPU {:.1f} of {} cores", c.cores_busy, in.cpu_cores);
  return fmt::format("CPU {:.1f} cores", c.cores_busy);
}

std::string NicText(double gbps, const ConclusionInputs& in) {
  if (in.nic_gbps <= 0) return "NIC speed unknown (--sku or --nic-gbps)";
  return fmt::format("NIC at {:.0f}% of {:g} Gbit/s", 100 * gbps / in.nic_gbps, in.nic_gbps);
}

}  // namespace

std::string_view ThroughputBoundName(ThroughputBound bound) {
  switch (bound) {
    case ThroughputBound::kNic:
      return "nic";
    case ThroughputBound::kStorage:
      return "storage";
    case ThroughputBound::kClientCpu:
      return "client-cpu";
    case ThroughputBound::kNotSaturated:
      return "not-saturated";
    case ThroughputBound::kUndetermined:
      return "undetermined";
  }
  return "undetermined";
}

ThroughputConclusion ConcludeThroughput(const ThroughputProbeResult& r,
                                        const ConclusionInputs& in) {
  ThroughputConclusion c;
  const FactSet& f = r.result.evidence.facts;
  if (r.steps.empty() || r.best_gbps <= 0) {
    c.decided_by = "none";
    c.line = "undetermined: nothing was read, so nothing shows what limits this node";
    return c;
  }
  const double best = r.best_gbps;
  const int knee = r.knee_concurrency;
  // The line names the knee and its rate: the fewest connections that get the most.
  const double at_knee = r.knee_gbps > 0 ? r.knee_gbps : best;
  // CPU seconds per GB times GB per second: how many cores the best rate keeps busy.
  if (auto per_gb = f.Number("probe.throughput.cpu_s_per_gb")) c.cores_busy = *per_gb * best / 8;
  if (in.nic_gbps > 0 && best >= kNicBoundFraction * in.nic_gbps) {
    c.bound = ThroughputBound::kNic;
    c.decided_by = "nic";
    c.line = fmt::format(
        "NIC-bound at {}: {:.1f} of {:g} Gbit/s (decided by the NIC figure: {:.0f}% of it; {})",
        Connections(knee), at_knee, in.nic_gbps, 100 * best / in.nic_gbps, CpuText(c, in));
    return c;
  }
  if (in.cpu_cores > 0 && c.cores_busy >= kCpuBoundFraction * in.cpu_cores) {
    c.bound = ThroughputBound::kClientCpu;
    c.decided_by = "cpu";
    c.line = fmt::format(
        "client CPU-bound at {}: {:.2f} Gbit/s kept {:.1f} of {} cores busy (decided by the "
        "process CPU time: {:.2f} CPU-s per GB; {})",
        Connections(knee), at_knee, c.cores_busy, in.cpu_cores,
        f.Number("probe.throughput.cpu_s_per_gb").value_or(0), NicText(best, in));
    return c;
  }
  double throttled = f.Number("probe.errors.throttled_egress").value_or(0) +
                     f.Number("probe.errors.throttled_requests").value_or(0);
  if (throttled > 0) {
    c.bound = ThroughputBound::kStorage;
    c.decided_by = "throttling";
    c.line = fmt::format(
        "storage-bound at {}: {:.2f} Gbit/s; the account throttled {:.0f} request{} (decided by "
        "its 503 answers; {}, {})",
        Connections(knee), at_knee, throttled, throttled == 1 ? "" : "s", NicText(best, in),
        CpuText(c, in));
    return c;
  }
  const int most = r.steps.back().concurrency;
  if (in.swept && knee < most) {
    c.bound = ThroughputBound::kStorage;
    c.decided_by = "knee";
    c.line = fmt::format(
        "storage-bound at {}: {:.2f} Gbit/s; up to {} added nothing beyond the noise (decided by "
        "the knee; {}, {})",
        Connections(knee), at_knee, Connections(most), NicText(best, in), CpuText(c, in));
    return c;
  }
  c.decided_by = "none";
  if (in.swept) {
    c.bound = ThroughputBound::kNotSaturated;
    c.line = fmt::format(
        "not saturated: {:.2f} Gbit/s at {} was still growing when the sweep ended ({}); raise "
        "{} to find the limit",
        best, Connections(most),
        most >= in.max_concurrency ? "at --max-concurrency" : "out of budget",
        most >= in.max_concurrency ? "--max-concurrency" : "--duration");
    return c;
  }
  c.line = fmt::format(
      "undetermined: {:.2f} Gbit/s at a fixed {} ({}, {}); --concurrency auto finds where more "
      "connections stop helping",
      best, Connections(knee), NicText(best, in), CpuText(c, in));
  return c;
}

}  // namespace feedcheck
