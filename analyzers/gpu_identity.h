// One identity per GPU across sources: a GPU is its node and its index (or UUID), whether its
// samples came from nvidia-smi CSV, DCGM text or Azure ML's workspace metric GpuUtilization
// (NodeId, DeviceId). Pairs the metric's nodes with the nodes of the job's own files so that
// two sources of the same GPU merge instead of adding up.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck::analyzers {

/// A GPU key as the GPU analyzer writes it: "node/gpu3", "gpu3", "node/gpuGPU-1a2b..." (UUID),
/// "node/gpu0i1" (a MIG instance). `node` is "" for samples no node was named for.
struct GpuIdentity {
  std::string node;
  std::string device;  ///< what follows "gpu": an index, a UUID, a bus id
  /// True when `device` is a plain index (the metric's DeviceId is one).
  bool indexed() const;
};
GpuIdentity ParseGpuKey(std::string_view key);
/// The key of `id`, as the GPU analyzer writes it.
std::string GpuKey(const GpuIdentity& id);

/// Which of the metric's nodes are the files' nodes.
struct MetricNodePairing {
  /// Metric node (as a key segment) -> the files' node it is ("" for the files' one unnamed
  /// node). Only pairs that are certain: the same name, or the one node on each side.
  std::map<std::string, std::string> same_node;
  /// Metric nodes set aside: the files show as many nodes under other names (node-0 and
  /// tvmps_..._d), so they are the same GPUs, but which is which cannot be told.
  std::set<std::string> set_aside;
  /// Metric nodes the files do not show at all: their GPUs are counted from the metric.
  std::set<std::string> metric_only;
};

/// `file_nodes`: the nodes of the GPUs read from the job's files ("" for unnamed);
/// `metric_nodes`: the metric's NodeId values as key segments.
MetricNodePairing PairMetricNodes(const std::set<std::string>& file_nodes,
                                  const std::set<std::string>& metric_nodes);

}  // namespace feedcheck::analyzers
