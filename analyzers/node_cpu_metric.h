// Azure ML's workspace CPU metric (CpuUtilization, CpuUtilizationPercentage; Azure Monitor,
// "Supported metrics for Microsoft.MachineLearningServices/workspaces",
// https://learn.microsoft.com/azure/azure-monitor/reference/supported-metrics/microsoft-machinelearningservices-workspaces-metrics):
// the node's CPU as evidence beside a profiler trace. A loop that waited for data while its
// node's CPU was busy and storage answered fast waited on its own input pipeline (decode,
// transforms, too few DataLoader workers). Points come from a metrics response (REST or
// `az monitor metrics list`, per NodeId / InstanceId, analyzers/azure_monitor_metrics.h); here
// they become facts per node.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evidence.h"

namespace feedcheck::analyzers {

/// One point of the CPU metric: the node's CPU utilisation (0..100 %) over the bucket.
struct CpuMetricPoint {
  std::string node;  ///< NodeId / InstanceId dimension, else the folder's node, else ""
  double epoch_s = 0;
  double util_percent = 0;
  double interval_s = 60;
  std::string file;
};

/// True for the names of Azure ML's CPU utilisation metric (any case): CpuUtilization and
/// CpuUtilizationPercentage, both a percentage of the node's CPU.
bool IsCpuMetricName(std::string_view name);

/// A reported value as a utilisation in percent, or nullopt with `why` when it cannot be one
/// (negative, past 100 % by more than rounding, not finite).
std::optional<double> CpuPercentOf(double value, std::string* why);

/// Facts from the points: cpu.samples, cpu.util_mean (all nodes' points) and, per named node,
/// cpu.node_util_mean.<node>, and each named node's series cpu.util_percent (its minutes in time
/// order, bounded). Nothing when `points` is empty.
void AddNodeCpuFacts(const std::vector<CpuMetricPoint>& points, Evidence* out);

}  // namespace feedcheck::analyzers
