// A multi-node job read in one pass: which node each file of a job folder belongs to (the
// folder where the nodes' logs first differ in path: job/node-1/system_logs/... and
// job/system_logs/data_capability/<node>/... both work), what each node's own files showed
// (the analyzers keep it per node on the same read), and the idle GPU time of each node split
// by what the data runtime was doing, with refusals charged to the node that was refused.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::analyzers {

/// What one node's own files showed: facts with the keys a read of its folder alone gives
/// (runtime.download_s, runtime.non_success_responses, runtime.throttled.*,
/// runtime.span_busy_s.*, gpu.util_mean, gpu.lost_gpu_s, and gpu.lost_*_gpu_s by phase), its
/// series gpu.lost_gpu_s_by_time and its storage refusals, tagged with the node.
struct NodeEvidence {
  std::string node;
  Evidence evidence;
};

/// The node (its folder's name) of each of `files` found under the folder `root`; empty when
/// fewer than two node folders are found (logs side by side in one folder cannot be told
/// apart by folder). The folders are those of the data runtime's logs, else, where fewer than
/// two nodes left one (a node without its logs), those of the GPU sample files among `files`
/// (`gpu_files`). Paths only: nothing is opened.
std::map<std::string, std::string> NodesOfFiles(const std::string& root,
                                                const std::vector<std::string>& files,
                                                const std::set<std::string>& gpu_files = {});

/// Splits each node's idle GPU time by the job's data phases (the data-runtime lane of `job`'s
/// timeline), with the refusals that node met: its own rslex log's when it has one, else the
/// account-wide ones (metrics, StorageBlobLogs). Sets the node's gpu.lost_*_gpu_s facts. When
/// the nodes hold all of the job's GPU time lost, the job's gpu.lost_*_gpu_s become the sums
/// of the nodes' (a refusal on one node is not charged to another node's idle time).
void ChargeRefusalsPerNode(Evidence* job, std::vector<NodeEvidence>* nodes);

}  // namespace feedcheck::analyzers
