// Which idle GPU time each cause coincided with, and each finding's own share of it. The GPU time
// lost is split into pools by what the data runtime was doing when it fell (download, mount reads
// while storage refused requests, other mount reads, unknown phase); a cause may only draw from
// the pools its symptom was present in, and every GPU-second goes to one cause at most, so the
// shares never sum past the GPU time lost. Idle time on a node that read nothing is set apart:
// storage cannot have held back a node that asked it for nothing.
#pragma once

#include <string>
#include <vector>

#include "core/diagnosis_summary.h"
#include "core/fact_set.h"
#include "core/finding.h"

namespace feedcheck::diagnosis {

/// Idle GPU time by when it fell, in GPU-seconds; the pools a storage cause may draw from.
struct IdlePools {
  double download_gpu_s = 0;
  double mount_throttled_gpu_s = 0;  ///< mount reads while storage refused requests
  double mount_other_gpu_s = 0;      ///< mount reads while storage served every request
  /// Of mount_other_gpu_s, what fell on nodes whose own rslex log shows no refusal at all: no
  /// throttling cause draws it (it was not refused on that node); other storage causes may.
  double mount_unrefused_nodes_gpu_s = 0;
  double unknown_gpu_s = 0;     ///< the data phase is unknown (no data-capability.log)
  double after_data_gpu_s = 0;  ///< after the data phase: only an access failure draws it
  double cached_gpu_s = 0;      ///< mount served from its cache: only an access failure
  /// Idle time of nodes that read nothing while idle: no storage cause draws it.
  double not_storage_gpu_s = 0;
  /// Storage refused requests at known times (the split above has a refused part).
  bool throttle_times_known = false;

  double Total() const {
    return download_gpu_s + mount_throttled_gpu_s + mount_other_gpu_s + unknown_gpu_s +
           after_data_gpu_s + cached_gpu_s;
  }
};

/// A node whose GPUs sat idle while its data runtime read nothing.
struct IdleNodeReadingNothing {
  std::string node;
  double lost_gpu_s = 0;
  double util_mean_percent = 0;
  NodeRow row;  ///< its row, with its idle time by the job's phases when known
};

/// Nodes of `rows` whose log shows no reads (reads == 0) and whose GPUs were mostly idle
/// (mean utilisation under `busy_percent`, some GPU time lost).
std::vector<IdleNodeReadingNothing> NodesIdleReadingNothing(const std::vector<NodeRow>& rows,
                                                            double busy_percent);

/// The pools of `gpu` (its phase split and gpu.lost_throttled_gpu_s), with the idle nodes' time
/// taken out: from the pools it fell in when the node's split is known, else from the mount's
/// served reads first, then the unknown phase, then the rest.
IdlePools PoolsOf(const GpuTimeLost& gpu, const FactSet& facts,
                  const std::vector<IdleNodeReadingNothing>& idle_nodes = {});

/// The idle GPU time a finding's symptom coincided with: the pools its class may draw from.
/// Throttling that covered under half of the mount's idle time (on the nodes that were
/// refused) coincided with the refusals only; otherwise with all of the data phase but the
/// idle time of nodes never refused.
double CoincidentGpuS(const Finding& f, const IdlePools& pools);

/// The pools left once a cause that no finding carries (a verdict the diagnosis reached itself:
/// a blob or partition target, throttling whose limit is unknown) has drawn what its symptom
/// coincided with, so the findings after it cannot claim the same GPU-seconds again.
IdlePools LeftAfter(Bottleneck symptom, IdlePools pools);

/// Gives each finding its own share: `cause` (may be null) first, then the other primary
/// findings in order, then secondary findings whose note states a cost; each draws from the
/// pools what earlier ones left. Secondary findings without a cost get 0. Sets impact_gpu_s
/// and returns the sum of the shares (never more than pools.Total()).
double AllocateShares(const Finding* cause, std::vector<Finding>* findings, IdlePools pools);

}  // namespace feedcheck::diagnosis
