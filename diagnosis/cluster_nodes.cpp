#include "diagnosis/cluster_nodes.h"

#include <fmt/format.h>

#include <algorithm>

#include "analyzers/text_util.h"
#include "core/units.h"

namespace feedcheck::diagnosis {

namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::vector<NodeRow> NodeRowsOf(const std::vector<analyzers::NodeEvidence>& nodes) {
  std::vector<NodeRow> rows;
  if (nodes.size() < 2) return rows;
  for (const auto& n : nodes) {
    const FactSet& f = n.evidence.facts;
    NodeRow row;
    row.node = n.node;
    row.download_s = f.NumberOr("runtime.download_s", -1);
    row.gpu_util_mean = f.NumberOr("gpu.util_mean", -1);
    row.gpu_lost_gpu_s = f.NumberOr("gpu.lost_gpu_s", -1);
    double throttled = -1;
    for (const auto& [key, fact] : f) {
      if (key.rfind("runtime.throttled.", 0) != 0 || !fact.is_number()) continue;
      throttled = std::max(0.0, throttled) + fact.number();
    }
    if (throttled < 0 && f.Find("runtime.non_success_responses")) throttled = 0;
    row.throttled = throttled;
    // What the node's own rslex log shows it read: spans that spent time (copies, prefetches,
    // mount reads) and responses. A log with neither: the node asked storage for nothing.
    if (const Fact* responses = f.Find("runtime.non_success_responses");
        responses && responses->is_number()) {
      double reads = responses->number();
      for (const auto& [key, fact] : f)
        if (key.rfind("runtime.span_busy_s.", 0) == 0 && fact.is_number() && fact.number() > 0)
          reads += 1;
      row.reads = reads;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

void AddGpuNodeRows(const FactSet& facts, std::vector<NodeRow>* rows) {
  const std::string prefix = "gpu.node_util_mean.";
  std::vector<std::string> gpu_nodes;
  for (const auto& [key, fact] : facts)
    if (key.rfind(prefix, 0) == 0 && fact.is_number())
      gpu_nodes.push_back(key.substr(prefix.size()));
  // One identity per node: a fact key holds the node's name as a key segment (10.0.0.5 ->
  // 10_0_0_5), the row its name as written; both are the same node.
  auto row_of = [&](const std::string& node) {
    return std::find_if(rows->begin(), rows->end(), [&](const NodeRow& r) {
      return r.node == node || analyzers::KeySegment(r.node) == node;
    });
  };
  // The logs name nodes by Azure ML's node id, GPU files often by rank (nvidia-smi-node-0.csv):
  // when no name matches and there are as many GPU files as node folders without GPU data, the
  // two are the same nodes. They are paired in sorted order, and the row says so ("id ~ file")
  // rather than listing every node twice.
  std::vector<NodeRow*> without_gpu;
  for (auto& r : *rows)
    if (r.gpu_util_mean < 0) without_gpu.push_back(&r);
  bool any_match = std::any_of(gpu_nodes.begin(), gpu_nodes.end(),
                               [&](const std::string& n) { return row_of(n) != rows->end(); });
  if (gpu_nodes.size() >= 2 && !any_match && without_gpu.size() == gpu_nodes.size()) {
    std::sort(without_gpu.begin(), without_gpu.end(),
              [](const NodeRow* a, const NodeRow* b) { return a->node < b->node; });
    std::sort(gpu_nodes.begin(), gpu_nodes.end());
    for (size_t i = 0; i < gpu_nodes.size(); ++i) {
      NodeRow* r = without_gpu[i];
      r->gpu_util_mean = facts.NumberOr(prefix + gpu_nodes[i], -1);
      r->gpu_lost_gpu_s = facts.NumberOr("gpu.node_lost_gpu_s." + gpu_nodes[i], -1);
      r->node += " ~ " + gpu_nodes[i];
    }
    return;
  }
  for (const std::string& node : gpu_nodes) {
    auto it = row_of(node);
    if (it == rows->end()) {
      rows->push_back(NodeRow{});
      it = rows->end() - 1;
      it->node = node;
    }
    if (it->gpu_util_mean < 0) it->gpu_util_mean = facts.NumberOr(prefix + node, -1);
    if (it->gpu_lost_gpu_s < 0)
      it->gpu_lost_gpu_s = facts.NumberOr("gpu.node_lost_gpu_s." + node, -1);
  }
}

void PutLedgerOnNodes(const LedgerSummary& ledger, std::vector<NodeRow>* rows) {
  // A row names its node as its folder does, as a fact key's segment (10_0_0_5), or both when
  // a log's node was paired with a GPU file ("id ~ file"); the ledger as its GPU samples did.
  auto same = [](const std::string& row, const std::string& node) {
    auto one = [&](const std::string& r) {
      return r == node || analyzers::KeySegment(r) == analyzers::KeySegment(node);
    };
    const size_t tilde = row.find(" ~ ");
    return one(row) || (tilde != std::string::npos && one(row.substr(tilde + 3)));
  };
  for (auto& r : *rows)
    for (const auto& [node, shares] : ledger.nodes) {
      if (!same(r.node, node)) continue;
      r.states = shares;
      r.gpu_lost_gpu_s = 0;
      for (const auto& s : shares) r.gpu_lost_gpu_s += s.gpu_s;
      break;
    }
}

void OrderByGpuTimeLost(std::vector<NodeRow>* rows) {
  std::stable_sort(rows->begin(), rows->end(), [](const NodeRow& a, const NodeRow& b) {
    return a.gpu_lost_gpu_s > b.gpu_lost_gpu_s;
  });
}

std::string MarkStraggler(std::vector<NodeRow>* rows) {
  if (rows->size() < 2) return "";
  // The slowest download, when it stands well apart from the others'.
  std::vector<NodeRow*> timed;
  for (auto& r : *rows)
    if (r.download_s >= 0) timed.push_back(&r);
  if (timed.size() >= 2) {
    auto slowest = *std::max_element(
        timed.begin(), timed.end(), [](auto* a, auto* b) { return a->download_s < b->download_s; });
    std::vector<double> others;
    for (auto* r : timed)
      if (r != slowest) others.push_back(r->download_s);
    double median = Median(others);
    if (slowest->download_s > 1.3 * median && slowest->download_s - median > 60) {
      slowest->straggler = true;
      return fmt::format(
          "{}: download {}, the others {} (median); the other nodes' GPUs wait "
          "for it",
          slowest->node, FormatSeconds(slowest->download_s), FormatSeconds(median));
    }
  }
  std::vector<NodeRow*> sampled;
  for (auto& r : *rows)
    if (r.gpu_util_mean >= 0) sampled.push_back(&r);
  if (sampled.size() >= 2) {
    auto idlest = *std::min_element(sampled.begin(), sampled.end(), [](auto* a, auto* b) {
      return a->gpu_util_mean < b->gpu_util_mean;
    });
    std::vector<double> others;
    for (auto* r : sampled)
      if (r != idlest) others.push_back(r->gpu_util_mean);
    double median = Median(others);
    if (idlest->gpu_util_mean < median - 20) {
      idlest->straggler = true;
      return fmt::format("{}: GPUs {:.0f}% busy on average, the others {:.0f}% (median)",
                         idlest->node, idlest->gpu_util_mean, median);
    }
  }
  return "";
}

}  // namespace feedcheck::diagnosis
