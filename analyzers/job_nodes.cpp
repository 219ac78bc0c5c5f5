#include "analyzers/job_nodes.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "analyzers/gpu_phases.h"

namespace feedcheck::analyzers {

namespace fs = std::filesystem;

namespace {
constexpr size_t kMaxNodes = 1024;

std::vector<std::string> Parts(const fs::path& p) {
  std::vector<std::string> out;
  for (const auto& c : p) out.push_back(c.string());
  return out;
}

const char* const kPhaseKeys[] = {"gpu.lost_download_gpu_s",   "gpu.lost_mount_gpu_s",
                                  "gpu.lost_cached_gpu_s",     "gpu.lost_throttled_gpu_s",
                                  "gpu.lost_after_data_gpu_s", "gpu.lost_unknown_gpu_s"};
}  // namespace

std::map<std::string, std::string> NodesOfFiles(const std::string& root,
                                                const std::vector<std::string>& files,
                                                const std::set<std::string>& gpu_files) {
  std::map<std::string, std::string> out;
  // The nodes' data-capability.log files, else their rslex logs (one per folder), else their
  // GPU sample files (one per folder).
  std::vector<fs::path> logs, rslex, gpu;
  for (const auto& f : files) {
    fs::path rel = fs::path(f).lexically_relative(root);
    if (rel.empty() || *rel.begin() == "..") continue;
    std::string name = rel.filename().string();
    if (name.rfind("data-capability", 0) == 0) logs.push_back(rel);
    if (name.rfind("rslex.log", 0) == 0) rslex.push_back(rel.parent_path() / "rslex.log");
    if (gpu_files.count(f)) gpu.push_back(rel.parent_path() / "gpu");
  }
  auto distinct = [](std::vector<fs::path>* v) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
    return v->size();
  };
  distinct(&logs);
  std::vector<fs::path>& marks = logs.size() >= 2        ? logs
                                 : distinct(&rslex) >= 2 ? rslex
                                                         : (distinct(&gpu), gpu);
  if (marks.size() < 2 || marks.size() > kMaxNodes) return out;
  std::vector<std::vector<std::string>> parts;
  for (const auto& m : marks) parts.push_back(Parts(m.parent_path()));
  size_t depth = 0;
  for (;; ++depth) {
    bool all_have =
        std::all_of(parts.begin(), parts.end(), [&](const auto& p) { return p.size() > depth; });
    if (!all_have) return out;  // a log directly in a shared folder: no folder per node
    bool same = std::all_of(parts.begin(), parts.end(),
                            [&](const auto& p) { return p[depth] == parts[0][depth]; });
    if (!same) break;
  }
  std::vector<std::string> common(parts[0].begin(), parts[0].begin() + depth);
  std::vector<std::string> nodes;
  for (const auto& p : parts) nodes.push_back(p[depth]);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  if (nodes.size() < 2) return out;
  // Nodes found by their GPU files hold the logs there are: folders of GPU samples beside a log
  // of the job's (two collectors' folders of one node) are not nodes.
  if (&marks == &gpu) {
    const std::vector<fs::path>& left = logs.empty() ? rslex : logs;
    if (left.empty()) return out;
    for (const auto& l : left) {
      std::vector<std::string> p = Parts(l.parent_path());
      if (p.size() <= depth || !std::equal(common.begin(), common.end(), p.begin()) ||
          !std::binary_search(nodes.begin(), nodes.end(), p[depth]))
        return out;
    }
  }
  // A folder beside the nodes' that holds a GPU sample file where a node with logs holds its
  // own (node-4/gpu/dcgm.txt beside node-0/gpu/dcgm.txt) is a node that left no logs: its GPUs
  // are its own, not the job's. A job-wide file (metrics/gpu.json) sits where no node's does.
  if (&marks != &gpu) {
    std::set<std::vector<std::string>> logged_gpu_places;
    std::vector<std::pair<std::string, std::vector<std::string>>> unlogged;
    for (const auto& f : gpu_files) {
      std::vector<std::string> p = Parts(fs::path(f).lexically_relative(root));
      if (p.size() <= depth + 1 || !std::equal(common.begin(), common.end(), p.begin())) continue;
      std::vector<std::string> within(p.begin() + static_cast<std::ptrdiff_t>(depth) + 1, p.end());
      if (std::binary_search(nodes.begin(), nodes.end(), p[depth]))
        logged_gpu_places.insert(within);
      else
        unlogged.emplace_back(p[depth], within);
    }
    std::vector<std::string> added;
    for (const auto& [node, within] : unlogged)
      if (logged_gpu_places.count(within)) added.push_back(node);
    nodes.insert(nodes.end(), added.begin(), added.end());
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    if (nodes.size() > kMaxNodes) return out;
  }
  for (const auto& f : files) {
    std::vector<std::string> p = Parts(fs::path(f).lexically_relative(root));
    if (p.size() <= depth + 1 || !std::equal(common.begin(), common.end(), p.begin())) continue;
    if (std::binary_search(nodes.begin(), nodes.end(), p[depth])) out[f] = p[depth];
  }
  return out;
}

void ChargeRefusalsPerNode(Evidence* job, std::vector<NodeEvidence>* nodes) {
  std::vector<TimelineInterval> phases, account_refusals;
  for (const auto& iv : job->timeline) {
    if (iv.lane == "data-runtime") phases.push_back(iv);
    if (iv.lane == "storage" && iv.status != "rslex") account_refusals.push_back(iv);
  }
  const Series* egress = job->FindSeries("metrics.egress_gbps");
  double nodes_lost = 0;
  std::map<std::string, double> sums;
  bool any_throttle_times = false;
  for (auto& n : *nodes) {
    Evidence& ev = n.evidence;
    const Series* lost = ev.FindSeries("gpu.lost_gpu_s_by_time", n.node);
    const Fact* lost_total = ev.facts.Find("gpu.lost_gpu_s");
    if (!lost || !lost_total || !lost_total->is_number()) continue;
    nodes_lost += lost_total->number();
    Evidence joined;
    joined.timeline = phases;
    // A node with its own rslex log shows every refusal it met; one without could have met
    // any of the account's.
    const bool own_log = ev.facts.Find("runtime.non_success_responses") != nullptr;
    if (own_log) {
      for (const auto& iv : ev.timeline)
        if (iv.lane == "storage") joined.timeline.push_back(iv);
    } else {
      joined.timeline.insert(joined.timeline.end(), account_refusals.begin(),
                             account_refusals.end());
    }
    joined.series.push_back(*lost);
    joined.series.back().node.clear();
    if (egress) joined.series.push_back(*egress);
    joined.facts.Set(*lost_total);
    AddGpuPhaseFacts(&joined);
    for (const char* key : kPhaseKeys)
      if (const Fact* f = joined.facts.Find(key); f && f->is_number()) {
        ev.facts.Set(*f);
        sums[key] += f->number();
        if (std::string(key) == "gpu.lost_throttled_gpu_s") any_throttle_times = true;
      }
  }
  // The job's split is the nodes' only when the nodes hold all of its GPU time lost.
  const Fact* job_lost = job->facts.Find("gpu.lost_gpu_s");
  if (sums.empty() || !job_lost || !job_lost->is_number() ||
      std::abs(job_lost->number() - nodes_lost) > 1e-6 * std::max(1.0, job_lost->number()) + 1e-3)
    return;
  for (const char* key : kPhaseKeys) {
    const Fact* f = job->facts.Find(key);
    if (!f) {
      if (std::string(key) != "gpu.lost_throttled_gpu_s" || !any_throttle_times) continue;
      Fact made = NumberFact(key, 0, Unit::kSeconds, job_lost->provenance);
      made.provenance.origin = FactOrigin::kDerived;
      job->facts.Set(made);
      f = job->facts.Find(key);
    }
    Fact summed = *f;
    summed.provenance.source =
        "each node's GPU time lost joined with the data-runtime activities "
        "and the refusals that node met";
    job->facts.Set(NumberFact(key, sums[key], Unit::kSeconds, summed.provenance));
  }
  const Fact* count = job->facts.Find("gpu.count");
  if (job->facts.Find("gpu.idle_download_s") && count && count->is_number() && count->number() > 0)
    job->facts.Set(NumberFact("gpu.idle_download_s",
                              sums["gpu.lost_download_gpu_s"] / count->number(), Unit::kSeconds,
                              job->facts.Find("gpu.idle_download_s")->provenance));
}

}  // namespace feedcheck::analyzers
