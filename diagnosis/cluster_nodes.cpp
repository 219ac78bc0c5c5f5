#include "diagnosis/cluster_nodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "analyzers/analyze_paths.h"
#include "core/units.h"

namespace feedcheck::diagnosis {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxNodes = 1024;

bool IsJobFolder(const std::string& name) {
  static const char* kStandard[] = {"system_logs", "gpu",     "gpus",         "metrics",   "logs",
                                    "user_logs",   "outputs", "azureml-logs", "lifecycler"};
  for (const char* s : kStandard)
    if (name == s) return true;
  return false;
}

double NumberOr(const FactSet& facts, const std::string& key, double fallback) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() ? f->number() : fallback;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

std::vector<NodeRow> ReadNodeFolders(const std::string& job_dir,
                                     const analyzers::AnalyzerOptions& options) {
  std::vector<std::string> folders;
  std::error_code ec;
  for (fs::directory_iterator it(job_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code dec;
    if (!it->is_directory(dec)) continue;
    std::string name = it->path().filename().string();
    if (IsJobFolder(name) || name.empty() || name[0] == '.') continue;
    folders.push_back(it->path().string());
    if (folders.size() >= kMaxNodes) break;
  }
  std::sort(folders.begin(), folders.end());
  std::vector<NodeRow> rows;
  if (folders.size() < 2) return rows;
  for (const auto& folder : folders) {
    analyzers::AnalyzeRequest request;
    request.paths = {folder};
    request.options = options;
    analyzers::AnalysisResult r = analyzers::AnalyzePaths(request);
    if (!r.anything_read) continue;
    const FactSet& f = r.evidence.facts;
    NodeRow row;
    row.node = fs::path(folder).filename().string();
    row.download_s = NumberOr(f, "runtime.download_s", -1);
    row.gpu_util_mean = NumberOr(f, "gpu.util_mean", -1);
    row.gpu_lost_gpu_s = NumberOr(f, "gpu.lost_gpu_s", -1);
    double throttled = -1;
    for (const auto& [key, fact] : f) {
      if (key.rfind("runtime.throttled.", 0) != 0 || !fact.is_number()) continue;
      throttled = std::max(0.0, throttled) + fact.number();
    }
    if (throttled < 0 && f.Find("runtime.non_success_responses")) throttled = 0;
    row.throttled = throttled;
    rows.push_back(std::move(row));
  }
  if (rows.size() < 2) rows.clear();
  return rows;
}

void AddGpuNodeRows(const FactSet& facts, std::vector<NodeRow>* rows) {
  const std::string prefix = "gpu.node_util_mean.";
  for (const auto& [key, fact] : facts) {
    if (key.rfind(prefix, 0) != 0 || !fact.is_number()) continue;
    std::string node = key.substr(prefix.size());
    auto it =
        std::find_if(rows->begin(), rows->end(), [&](const NodeRow& r) { return r.node == node; });
    if (it == rows->end()) {
      rows->push_back(NodeRow{});
      it = rows->end() - 1;
      it->node = node;
    }
    if (it->gpu_util_mean < 0) it->gpu_util_mean = fact.number();
    if (it->gpu_lost_gpu_s < 0)
      it->gpu_lost_gpu_s = NumberOr(facts, "gpu.node_lost_gpu_s." + node, -1);
  }
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
