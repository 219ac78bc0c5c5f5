#include "analyzers/gpu_identity.h"

#include <cctype>

namespace feedcheck::analyzers {

bool GpuIdentity::indexed() const {
  if (device.empty()) return false;
  for (char c : device)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

GpuIdentity ParseGpuKey(std::string_view key) {
  GpuIdentity id;
  const size_t slash = key.rfind('/');
  if (slash != std::string_view::npos) {
    id.node = std::string(key.substr(0, slash));
    key.remove_prefix(slash + 1);
  }
  if (key.rfind("gpu", 0) == 0) key.remove_prefix(3);
  id.device = std::string(key);
  // "007" and "7" are one index.
  if (id.indexed()) {
    const size_t nonzero = id.device.find_first_not_of('0');
    id.device = nonzero == std::string::npos ? "0" : id.device.substr(nonzero);
  }
  return id;
}

std::string GpuKey(const GpuIdentity& id) {
  return (id.node.empty() ? std::string() : id.node + "/") + "gpu" + id.device;
}

MetricNodePairing PairMetricNodes(const std::set<std::string>& file_nodes,
                                  const std::set<std::string>& metric_nodes) {
  MetricNodePairing out;
  std::set<std::string> files_left = file_nodes;
  std::set<std::string> metric_left;
  for (const auto& m : metric_nodes) {
    if (!m.empty() && files_left.erase(m)) {
      out.same_node[m] = m;
    } else {
      metric_left.insert(m);
    }
  }
  if (metric_left.empty()) return out;
  if (files_left.empty()) {
    out.metric_only = std::move(metric_left);
  } else if (files_left.size() == 1 && metric_left.size() == 1) {
    // One node the files name otherwise (or do not name), one node of the metric: the same.
    out.same_node[*metric_left.begin()] = *files_left.begin();
  } else {
    // Several on each side under different names: the same GPUs, but not which is which.
    // Counting them twice would double the job; the files (finer) are kept.
    out.set_aside = std::move(metric_left);
  }
  return out;
}

}  // namespace feedcheck::analyzers
