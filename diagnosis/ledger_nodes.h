// The idle ledger's split by node for a job whose GPU samples are not in node folders: the
// ledger places each of the job's buckets in one state (idle_ledger.h), and the nodes idle in
// that bucket share it, each by the GPU-seconds it lost there (the analyzers' per-node series
// gpu.node_lost_gpu_s_by_time, on the job's buckets). The nodes' states then sum to the job's.
// Where each of those nodes left its logs in a folder of its name, the ledger places each node's
// own buckets instead (its stops judged on its samples), and no split is needed.
#pragma once

#include <vector>

#include "core/evidence.h"
#include "diagnosis/idle_ledger.h"

namespace feedcheck::diagnosis {

/// The job's per-node series (gpu.node_lost_gpu_s_by_time) on the buckets of `job_lost`,
/// summing to it bucket by bucket; none when fewer than two, off its buckets, or not summing.
std::vector<const Series*> JobLostByNode(const Evidence& job, const Series& job_lost);

/// Fills `ledger->by_node` from the job's per-node series: bucket i of `job_lost` was placed in
/// `placed[i]` (any state where it lost nothing). Nothing when the job has fewer than two such
/// series, when they are not on the job's buckets, or when they do not sum to `job_lost`.
void SplitJobBucketsByNode(const Evidence& job, const Series& job_lost,
                           const std::vector<IdleState>& placed, IdleLedger* ledger);

}  // namespace feedcheck::diagnosis
