#include "app/fleet_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace feedcheck::app {
namespace fs = std::filesystem;

namespace {

bool IsDir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// The folders a job's download keeps its logs in (docs/postmortem.md lists where Azure ML puts
// them).
bool HoldsLogs(const fs::path& dir) {
  for (const char* name : {"system_logs", "azureml-logs", "user_logs", "data_capability"})
    if (IsDir(dir / name)) return true;
  return false;
}

// Subfolders by name; bounded so a huge tree is never listed whole into memory twice.
std::vector<std::string> SubfolderNames(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec)) out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool HasNodeFolders(const fs::path& dir) {
  for (const auto& name : SubfolderNames(dir))
    if (HoldsLogs(dir / name)) return true;
  return false;
}

// A job whose node folders sit one level deeper (JOB/job/node-0/system_logs/...), as some
// downloads nest them.
bool HasNestedNodeFolders(const fs::path& dir) {
  for (const auto& name : SubfolderNames(dir))
    if (HasNodeFolders(dir / name)) return true;
  return false;
}

bool IsJobLevelFolder(const std::string& name) {
  return name == "metrics" || name == "gpu" || name == "gpus" || name == "outputs";
}

bool AllDigits(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

bool LooksLikeNodeName(const std::string& raw) {
  std::string name;
  for (unsigned char c : raw) name.push_back(static_cast<char>(std::tolower(c)));
  if (AllDigits(name)) return true;
  // A node's address (10.0.0.5) or its host name (node-3.cluster.local: the first label named
  // like a node) is the node, as its folder.
  if (const size_t dot = name.find('.'); dot != std::string::npos && dot > 0) {
    int parts = 0;
    bool ipv4 = true;
    for (size_t start = 0; start <= name.size();) {
      size_t end = name.find('.', start);
      if (end == std::string::npos) end = name.size();
      const std::string_view part = std::string_view(name).substr(start, end - start);
      ipv4 = ipv4 && AllDigits(part) && part.size() <= 3;
      ++parts;
      start = end + 1;
    }
    if (ipv4 && parts == 4) return true;
    return LooksLikeNodeName(name.substr(0, dot));
  }
  // Azure ML's node ids (tvmps_<hex>_d, tvmss_...) and the usual prefixes with a number.
  for (const char* prefix : {"tvmps_", "tvmss_", "wkr"})
    if (name.rfind(prefix, 0) == 0) return true;
  for (const char* prefix : {"node", "rank", "worker", "host", "vm"}) {
    if (name.rfind(prefix, 0) != 0) continue;
    std::string_view rest = std::string_view(name).substr(std::string_view(prefix).size());
    if (!rest.empty() && (rest.front() == '-' || rest.front() == '_')) rest.remove_prefix(1);
    if (AllDigits(rest)) return true;
  }
  return false;
}

namespace {

FleetLayout Detect(const std::string& dir, FleetLayoutChoice choice, int depth);

// A subfolder with node folders is a multi-node job, unless it is itself a folder of jobs (a
// week's jobs under one experiment's folder): then its jobs join the fleet as "sub/job".
void AddNested(const fs::path& root, const std::string& name, int depth,
               std::vector<std::string>* jobs, std::vector<std::string>* skipped) {
  if (depth < 2) {
    FleetLayout inner = Detect((root / name).string(), FleetLayoutChoice::kAuto, depth + 1);
    if (inner.fleet) {
      for (const auto& j : inner.jobs) jobs->push_back(name + "/" + j);
      for (const auto& s : inner.skipped) skipped->push_back(name + "/" + s);
      return;
    }
  }
  jobs->push_back(name);
}

FleetLayout Detect(const std::string& dir, FleetLayoutChoice choice, int depth) {
  FleetLayout out;
  const fs::path root(dir);
  if (!IsDir(root)) {
    out.why = "not a folder: read as one job";
    return out;
  }
  // Each subfolder: a job of one node (logs inside), of several (node folders inside), or none.
  std::vector<std::string> with_logs, multi_node, with_metrics;
  std::vector<std::string> names = SubfolderNames(root);
  bool job_level_files = false;
  for (const auto& name : names) {
    const fs::path sub = root / name;
    if (IsJobLevelFolder(name)) {
      job_level_files = true;
      continue;
    }
    if (HoldsLogs(sub)) {
      with_logs.push_back(name);
      if (IsDir(sub / "metrics")) with_metrics.push_back(name);
    } else if (HasNodeFolders(sub) || (depth < 2 && HasNestedNodeFolders(sub))) {
      multi_node.push_back(name);
    } else {
      out.skipped.push_back(
          fmt::format("{}: no system_logs/, azureml-logs/, user_logs/ or "
                      "data_capability/ folder, nor node folders holding one",
                      name));
    }
  }
  std::vector<std::string> jobs = with_logs;
  for (const auto& name : multi_node) AddNested(root, name, depth, &jobs, &out.skipped);
  std::sort(jobs.begin(), jobs.end());

  auto fleet = [&](std::string why) {
    out.fleet = true;
    out.jobs = jobs;
    out.why = std::move(why);
    return out;
  };
  auto one_job = [&](std::string why) {
    out.fleet = false;
    out.skipped.clear();
    out.why = std::move(why);
    return out;
  };

  if (choice == FleetLayoutChoice::kJob) return one_job("--layout job: read as one job");
  if (choice == FleetLayoutChoice::kFleet)
    return fleet("--layout fleet: each subfolder holding logs (or node folders) is a job");
  if (HoldsLogs(root))
    return one_job("the folder holds a job's logs itself (system_logs/ or the like): one job");
  // az ml job download --all: the job's files in artifacts/ (a sweep's parent in
  // hd-artifacts/), its named outputs in named-outputs/NAME/.
  if (HoldsLogs(root / "artifacts"))
    return one_job("artifacts/ holds a job's logs (az ml job download --all): one job");
  if (!multi_node.empty())
    return fleet(
        fmt::format("{} holds node folders of its own, so it is a job and the folder a fleet: each "
                    "subfolder holding logs or node folders is a job",
                    multi_node.front()));
  if (job_level_files)
    return one_job(
        "a metrics/, gpu/ or outputs/ folder beside the subfolders describes one job: the "
        "subfolders are its nodes");
  if (with_logs.size() < 2) return one_job("fewer than two subfolders hold logs: one job");
  if (!with_metrics.empty())
    return fleet(fmt::format(
        "{} has storage metrics of its own (a job's, not a node's): each subfolder holding logs "
        "is a job",
        with_metrics.front()));
  if (std::all_of(with_logs.begin(), with_logs.end(), LooksLikeNodeName))
    return one_job("every subfolder is named like a node (node-0, rank-1, tvmps_...): one job");
  return fleet(
      "several subfolders hold logs and are not named like nodes: each is a job (--layout job "
      "reads them as the nodes of one)");
}

}  // namespace

std::string EnclosingJobFolder(const std::string& dir) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec || !IsDir(p)) return "";
  // The outermost log folder of the path: its parent is the job (or one of its nodes).
  fs::path job;
  for (fs::path at = p; at.has_relative_path(); at = at.parent_path()) {
    const std::string name = at.filename().string();
    if (name == "system_logs" || name == "azureml-logs" || name == "user_logs" ||
        name == "data_capability")
      job = at.parent_path();
  }
  if (job.empty()) return "";
  // A node's folder of a multi-node job: the job is the folder holding its nodes.
  const fs::path parent = job.parent_path();
  if (LooksLikeNodeName(job.filename().string()) && parent.has_relative_path()) {
    bool siblings = false;
    for (const auto& name : SubfolderNames(parent))
      if (IsJobLevelFolder(name) || (name != job.filename() && HoldsLogs(parent / name)))
        siblings = true;
    if (siblings) job = parent;
  }
  return job.string();
}

FleetLayout DetectFleetLayout(const std::string& dir, FleetLayoutChoice choice) {
  return Detect(dir, choice, 0);
}

}  // namespace feedcheck::app
