#include "app/mpi_cluster_result.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/exit_status.h"
#include "core/units.h"

namespace feedcheck::app {

ClusterThroughputResult AssembleThroughput(const MpiProbeRequest& f, const RankProbe& s, int n,
                                           const std::vector<ClusterThroughput>& steps,
                                           const std::vector<RankReport>& last) {
  ClusterThroughputResult out;
  std::string source =
      fmt::format("probe throughput under MPI ({} ranks, {} connections each, {} MiB blocks)", n,
                  f.concurrency, s.throughput.block_bytes >> 20);
  const ClusterThroughput& all = steps.back();
  AddThroughputFacts(all, source, &out.evidence.facts);
  if (f.ramp) {
    std::vector<double> measured;
    for (const ClusterThroughput& c : steps) measured.push_back(c.aggregate_gbps);
    RampLimit nic = NicLimit(s), egress = EgressLimit(s);
    out.ramp = BuildRamp(std::move(measured), nic, egress);
    AddRampEvidence(out.ramp, nic, egress, source, &out.evidence);
  }
  out.exit_status = WorstRankExit(last);
  if (all.window_s <= 0)
    out.exit_status = std::max(out.exit_status, ToInt(ExitStatus::kProbeFailed));
  return out;
}

ClusterLatencyResult AssembleLatency(const RankProbe& s, int n,
                                     const std::vector<RankReport>& reports) {
  ClusterLatencyResult out;
  out.merged = MergeLatency(reports);
  const ClusterLatency& c = out.merged;
  std::string source = fmt::format("probe latency under MPI ({} ranks, {} GETs of {} each)", n,
                                   s.latency.requests, FormatBytes(double(s.latency.range_bytes)));
  AddLatencyFacts(c, source, &out.evidence.facts);
  if (c.ttfb.count())
    out.evidence.series.push_back(LatencyCdfSeries(c.ttfb, "probe.latency.ttfb_cdf",
                                                   "time to first byte, all ranks together"));
  if (c.total.count())
    out.evidence.series.push_back(
        LatencyCdfSeries(c.total, "probe.latency.total_cdf", "whole GET, all ranks together"));
  out.exit_status = WorstRankExit(reports);
  if (c.ttfb.count() == 0)
    out.exit_status = std::max(out.exit_status, ToInt(ExitStatus::kProbeFailed));
  return out;
}

ClusterSmallFilesResult AssembleSmallFiles(const RankProbe& s, int n,
                                           const std::vector<RankReport>& reports) {
  ClusterSmallFilesResult out;
  out.merged = MergeSmallFiles(reports);
  std::string source = fmt::format("probe smallfiles under MPI ({} ranks, concurrency {} each)", n,
                                   s.smallfiles.concurrency);
  AddSmallFileFacts(out.merged, source, &out.evidence.facts);
  AddSmallFileSeries(out.merged, &out.evidence);
  out.exit_status = WorstRankExit(reports);
  if (!out.merged.fit) out.exit_status = std::max(out.exit_status, ToInt(ExitStatus::kProbeFailed));
  return out;
}

}  // namespace feedcheck::app
