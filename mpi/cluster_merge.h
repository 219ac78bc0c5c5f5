// Combining what the ranks of a multi-node probe measured, on rank 0. No MPI here: ranks send
// RankReports (as JSON) and this turns them into one cluster result, so the arithmetic is
// testable without a cluster. Throughput is summed over one common window (never a sum of
// rates from different windows); latency histograms merge bucket by bucket (never an average
// of percentiles).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/evidence.h"
#include "core/latency_histogram.h"
#include "core/supply_model.h"  // PredictRamp

namespace feedcheck {

/// What one rank measured in one step.
struct RankReport {
  int rank = 0;
  std::string host;
  bool active = true;  ///< false: the rank sat this ramp step out
  std::string status;  ///< ProbeStatusName of its probe
  std::string message;
  // Throughput.
  double gbps = 0;  ///< over the rank's own window
  double window_start_epoch_s = 0;
  double window_end_epoch_s = 0;
  std::vector<SeriesPoint> timeline;  ///< x = epoch s, y = cumulative bytes
  // Latency (empty histograms for a throughput probe).
  LatencyHistogram ttfb;
  LatencyHistogram total;
  LatencyHistogram connect;
  // Errors (from the probe's probe.errors.* facts).
  double errors = 0;
  double throttled = 0;  ///< throttled egress + throttled requests
  double retries = 0;
  // Small files (empty for the other probes).
  std::vector<SeriesPoint> smallfile_ms;  ///< x = object bytes, y = ms per request (median)
  double requests = 0;                    ///< requests the rank's probe sent
  double elapsed_s = 0;                   ///< from the common start to the rank's last reply

  nlohmann::json ToJson() const;
  static std::optional<RankReport> FromJson(const nlohmann::json& json, std::string* error);
};

/// The ranks that took part (active), in rank order.
std::vector<const RankReport*> ActiveRanks(const std::vector<RankReport>& reports);

/// One row of the per-node table.
struct ClusterNodeRow {
  int rank = 0;
  std::string host;
  std::string status;
  double gbps = 0;          ///< the rank's own window
  double common_bytes = 0;  ///< bytes inside the common window
  double ttfb_p50_ms = 0;   ///< 0 when the rank measured no latency
  double ttfb_p99_ms = 0;
  double errors = 0;
  double throttled = 0;
};

struct ClusterThroughput {
  std::vector<ClusterNodeRow> nodes;  ///< active ranks, by rank
  double window_start_epoch_s = 0;
  double window_end_epoch_s = 0;
  double window_s = 0;  ///< 0 when the ranks' windows do not overlap
  double common_bytes = 0;
  double aggregate_gbps = 0;  ///< common_bytes * 8 / window_s / 1e9
  int slowest = -1;           ///< index into nodes
  int fastest = -1;
  std::string error;  ///< why there is no aggregate ("" when there is)
};

struct ClusterLatency {
  std::vector<ClusterNodeRow> nodes;
  LatencyHistogram ttfb;  ///< every rank's samples together
  LatencyHistogram total;
  LatencyHistogram connect;
  int slowest = -1;  ///< highest p50 time to first byte
  int fastest = -1;
};

/// Cumulative bytes at `epoch_s`, interpolated linearly between samples (clamped at the ends).
double BytesAt(const std::vector<SeriesPoint>& timeline, double epoch_s);

/// At most `max_points` of a timeline, first and last kept, so a long run sends rank 0 a
/// bounded report (interpolation error stays under the bytes of one kept interval).
std::vector<SeriesPoint> ThinTimeline(const std::vector<SeriesPoint>& timeline, size_t max_points);

/// The common window is [latest window start, earliest window end] over the active ranks.
ClusterThroughput MergeThroughput(const std::vector<RankReport>& reports);
ClusterLatency MergeLatency(const std::vector<RankReport>& reports);

/// Node count where the aggregate stops growing: the step before the first one whose gain is
/// below `min_gain_fraction` of one node's rate (aggregate[0]); the last count if none.
/// aggregate_gbps[i] is the aggregate with i + 1 nodes. 0 for an empty series.
int RampKnee(const std::vector<double>& aggregate_gbps, double min_gain_fraction = 0.1);

/// Facts under probe.cluster.* (and per-node probe.cluster.node_*.<rank>), each with the rank
/// and host that measured it where it is one node's figure.
void AddThroughputFacts(const ClusterThroughput& c, const std::string& source, FactSet* facts);
void AddLatencyFacts(const ClusterLatency& c, const std::string& source, FactSet* facts);

}  // namespace feedcheck
