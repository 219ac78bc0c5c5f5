#include "analyzers/analyze_paths.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "analyzers/azure_monitor_metrics.h"
#include "analyzers/clock_offset.h"
#include "analyzers/correlation.h"
#include "analyzers/data_capability_log.h"
#include "analyzers/gpu_util.h"
#include "analyzers/input_file.h"
#include "analyzers/input_sniff.h"
#include "analyzers/job_nodes.h"
#include "analyzers/line_reader.h"
#include "analyzers/metrics_csv.h"
#include "analyzers/nvidia_smi_csv.h"
#include "analyzers/rslex_log.h"
#include "analyzers/storage_blob_logs.h"
#include "analyzers/text_encoding.h"
#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"
#include "analyzers/torch_trace_files.h"
#include "analyzers/tracing_line.h"
#include "core/diagnostic_codes.h"

namespace feedcheck::analyzers {

namespace fs = std::filesystem;

namespace {

struct Candidate {
  std::string path;
  bool explicit_file;  // named on the command line (unknown format is then worth a warning)
  std::string root;    // the argument it was found under
};

// Whether `path` (canonical) is `root` (canonical) or under it, compared by whole components.
bool Within(const fs::path& root, const fs::path& path) {
  auto r = root.begin(), p = path.begin();
  for (; r != root.end(); ++r, ++p)
    if (p == path.end() || *p != *r) return false;
  return true;
}

// A link inside a job folder is read only when it resolves inside the folder: a planted link to
// /proc/self/environ, ~/.azure or a key file would otherwise be read and quoted in the report.
// Returns the reason it is not read, empty when it may be.
std::string LinkOutOfFolder(const fs::path& root, const fs::directory_entry& entry) {
  std::error_code ec;
  if (!entry.is_symlink(ec)) return "";
  fs::path shown = fs::read_symlink(entry.path(), ec);
  fs::path target = fs::canonical(entry.path(), ec);
  if (ec) return "a link that does not resolve";
  if (Within(root, target)) return "";
  return fmt::format("a link out of the folder (to {})", shown.string());
}

// Whether `entry`, met at `depth` of a folder walk, is the job's definition (its root only).
bool IsJobDefinition(const fs::directory_entry& entry, int depth) {
  return depth == 0 && IsJobDefinitionFile(entry.path().filename().string());
}

// Files every Azure ML job download holds that are no input of feedcheck's, met in a folder
// walk: the job's own standard output (user_logs/std_log.txt, std_log_process_0.txt), the
// other capabilities' logs (system_logs/lifecycler/, cs_capability/, hosttools_capability/,
// metrics_capability/, snapshot_capability/). Passed over quietly, not "format not recognised".
bool IsAzureMlOwnFile(const fs::path& path) {
  const std::string name = path.filename().string();
  const std::string folder = path.parent_path().filename().string();
  auto ends_with = [&](std::string_view end) {
    return name.size() >= end.size() &&
           name.compare(name.size() - end.size(), end.size(), end) == 0;
  };
  if (name.rfind("std_log", 0) == 0 && ends_with(".txt")) return true;
  if (folder == "lifecycler" || folder == "cs_capability" || folder == "hosttools_capability" ||
      folder == "metrics_capability" || folder == "snapshot_capability")
    return ends_with(".log") || ends_with(".txt");
  return false;
}

void Collect(const AnalyzeRequest& req, std::vector<Candidate>* files,
             std::vector<SkippedFile>* skipped, std::vector<std::string>* definitions) {
  for (const auto& p : req.paths) {
    std::error_code ec;
    auto status = fs::status(p, ec);
    if (ec || !fs::exists(status)) {
      skipped->push_back({p, "no such file or directory"});
      continue;
    }
    if (fs::is_regular_file(status)) {
      // A file named on the command line may be a planted link too: it is read only when it
      // resolves inside the folder it sits in.
      fs::path parent = fs::path(p).parent_path();
      fs::path root = fs::canonical(parent.empty() ? fs::path(".") : parent, ec);
      std::string why = ec ? "cannot resolve its folder: " + ec.message()
                           : LinkOutOfFolder(root, fs::directory_entry(p, ec));
      if (!why.empty()) {
        skipped->push_back({p, why});
        continue;
      }
      files->push_back({p, true, parent.string()});
      continue;
    }
    if (!fs::is_directory(status)) {
      skipped->push_back({p, "not a regular file or directory"});
      continue;
    }
    std::vector<std::string> found;
    const fs::path root = fs::canonical(p, ec);
    if (ec) {
      skipped->push_back({p, "cannot resolve: " + ec.message()});
      continue;
    }
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it.depth() > 16) {
        it.disable_recursion_pending();
        continue;
      }
      std::error_code fec;
      if (std::string why = LinkOutOfFolder(root, *it); !why.empty()) {
        skipped->push_back({it->path().string(), why});
        continue;
      }
      // az ml job download --all: DIR/named-outputs/NAME/ holds what the job wrote (data,
      // checkpoints), DIR/hd-artifacts/ a sweep's parent (the trial read is DIR/artifacts/):
      // neither is the job's logs.
      if (it.depth() == 0 && it->is_directory(fec) &&
          (it->path().filename() == "named-outputs" || it->path().filename() == "hd-artifacts") &&
          fs::is_directory(fs::path(p) / "artifacts", fec)) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(fec)) continue;
      if (IsJobDefinition(*it, it.depth())) {
        definitions->push_back(it->path().string());
        continue;
      }
      if (IsAzureMlOwnFile(it->path())) continue;
      if (files->size() + found.size() >= req.max_files) {
        skipped->push_back(
            {p, fmt::format("more than {} files; the rest not read", req.max_files)});
        break;
      }
      found.push_back(it->path().string());
    }
    if (ec) skipped->push_back({p, "cannot list: " + ec.message()});
    std::sort(found.begin(), found.end());
    for (auto& f : found) files->push_back({std::move(f), false, p});
  }
}

// Python's RotatingFileHandler: "x.log" is the live file, "x.log.1" the one before it, "x.log.2"
// older still. Larger is older; the live file is 0.
long RotationIndex(const std::string& name) {
  size_t dot = name.rfind('.');
  if (dot == std::string::npos) return 0;
  auto n = ParseInt(std::string_view(name).substr(dot + 1));
  return n && *n > 0 ? static_cast<long>(*n) : 0;
}

// Folders a job download has whatever the node: never a node's name.
bool IsStandardFolder(const std::string& name) {
  static const char* kStandard[] = {"system_logs", "data_capability", "gpu", "gpus", "metrics",
                                    "logs", "user_logs", "azureml-logs", "outputs", "lifecycler",
                                    // az ml job download --all: DIR/artifacts/ (a sweep's parent:
                                    // DIR/hd-artifacts/) and DIR/named-outputs/NAME/.
                                    "artifacts", "hd-artifacts", "named-outputs"};
  for (const char* s : kStandard)
    if (name == s) return true;
  return false;
}

}  // namespace

// job/node-1/...: the folder under the job, when it is not one of Azure ML's own; "" else.
std::string NodeFolderOf(const std::string& root, const std::string& path) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::path(path), fs::path(root), ec);
  if (ec || rel.empty() || rel.begin() == rel.end()) return "";
  auto first = *rel.begin();
  if (std::distance(rel.begin(), rel.end()) >= 2 && first != ".." &&
      !IsStandardFolder(first.string()))
    return first.string();
  return "";
}

std::string NodeNameOf(const std::string& root, const std::string& path,
                       const std::set<std::string>& known_nodes) {
  if (std::string folder = NodeFolderOf(root, path); !folder.empty()) return folder;
  // gpu/nvidia-smi-node-1.csv, gpu/dcgm_node-2.txt: the name without the tool's name and
  // without a file extension the GPU tools write (only those: the dots of node names such as
  // 10.0.0.5 or node-3.cluster.local are part of the node's identity).
  std::string stem = fs::path(path).filename().string();
  for (const char* ext : {".gz", ".csv", ".txt", ".log", ".prom", ".tsv", ".out"}) {
    const std::string e = ext;
    if (stem.size() > e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0)
      stem.erase(stem.size() - e.size());
  }
  // A node the logs name, by the whole name (a node called gpu-a is not node "a").
  if (known_nodes.count(stem)) return stem;
  for (const char* tool :
       {"nvidia-smi", "nvidia_smi", "dcgm-exporter", "dcgm", "gpu-util", "gpu"}) {
    std::string t = tool;
    if (stem.size() > t.size() + 1 && stem.compare(0, t.size(), t) == 0 &&
        (stem[t.size()] == '-' || stem[t.size()] == '_' || stem[t.size()] == '.'))
      return stem.substr(t.size() + 1);
  }
  return stem;
}

namespace {

// The UTC span of the data runtime's logs read so far.
std::optional<std::pair<double, double>> LogTimeSpan(
    const std::vector<std::unique_ptr<LineAnalyzer>>& analyzers) {
  std::optional<std::pair<double, double>> span;
  auto widen = [&](double a, double b) {
    span = span ? std::make_pair(std::min(span->first, a), std::max(span->second, b))
                : std::make_pair(a, b);
  };
  for (const auto& a : analyzers) {
    if (const auto* r = dynamic_cast<const RslexLogAnalyzer*>(a.get()); r && r->parsed_lines() > 0)
      widen(r->first_epoch_s(), r->last_epoch_s());
    if (const auto* d = dynamic_cast<const DataCapabilityAnalyzer*>(a.get()))
      if (auto s = d->time_span()) widen(s->first, s->second);
  }
  return span;
}

}  // namespace

namespace {
using FirstOf = std::function<std::optional<double>(const std::string& path)>;

std::vector<std::string> OrderRslexFilesBy(std::vector<std::string> files, const FirstOf& first) {
  struct Keyed {
    std::optional<double> first;
    std::string name;
    std::string path;
  };
  std::vector<Keyed> keyed;
  for (auto& f : files) {
    std::string name = fs::path(f).filename().string();
    // The live file "rslex.log" is newer than every rotated "rslex.log.<hour>".
    if (name == "rslex.log") name = "rslex.log.~";
    keyed.push_back({first(f), name, f});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.first && b.first && *a.first != *b.first) return *a.first < *b.first;
    return a.name < b.name;
  });
  std::vector<std::string> out;
  for (auto& k : keyed) out.push_back(std::move(k.path));
  return out;
}

std::vector<std::string> OrderDataCapabilityFilesBy(std::vector<std::string> files,
                                                    const FirstOf& first) {
  struct Keyed {
    std::string dir;
    std::optional<double> first;
    long rotation;
    std::string path;
  };
  std::vector<Keyed> keyed;
  for (auto& f : files) {
    fs::path p(f);
    keyed.push_back({p.parent_path().string(), first(f), RotationIndex(p.filename().string()), f});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.dir != b.dir) return a.dir < b.dir;
    if (a.first && b.first && *a.first != *b.first) return *a.first < *b.first;
    return a.rotation > b.rotation;
  });
  std::vector<std::string> out;
  for (auto& k : keyed) out.push_back(std::move(k.path));
  return out;
}
}  // namespace

std::vector<std::string> OrderRslexFiles(std::vector<std::string> files) {
  return OrderRslexFilesBy(std::move(files), [](const std::string& path) {
    return FirstTimestampIn(ReadHead(path, kTimestampHeadBytes));
  });
}

namespace {

// A storage account's metrics describe the job's storage only if the job read that account:
// metrics of another account (a wrong --resource, a sibling account) are set aside with a
// warning naming the file, so a limit another workload hit is never blamed on this job. The
// rslex logs (read before the metrics) name the accounts the job read; without them nothing
// is set aside.
std::vector<std::string> SetAsideOtherAccounts(
    const std::vector<std::string>& paths,
    const std::vector<std::unique_ptr<LineAnalyzer>>& analyzers,
    const std::function<std::string(const std::string&)>& account_of, AnalysisResult* result) {
  std::set<std::string> read;
  std::string rslex_file;
  for (const auto& a : analyzers)
    if (const auto* r = dynamic_cast<const RslexLogAnalyzer*>(a.get())) {
      read = r->accounts();
      if (!r->stats().files.empty()) rslex_file = r->stats().files.front();
    }
  if (read.empty()) return paths;
  std::vector<std::string> kept;
  for (const auto& p : paths) {
    std::string account = account_of(p);
    if (account.empty() || read.count(account)) {
      kept.push_back(p);
      continue;
    }
    std::string why = fmt::format(
        "metrics of storage account '{}', but the job read {} (its rslex logs, {}): set aside, "
        "not blamed on this job; save the metrics of the account the job read",
        account, fmt::format("'{}'", fmt::join(read, "', '")), rslex_file);
    result->evidence.diagnostics.Add(
        {codes::kOtherAccountMetrics, DiagnosticSeverity::kWarning, why, {p, 0, 0}, "analyze", ""});
  }
  return kept;
}

}  // namespace

std::vector<std::string> OrderDataCapabilityFiles(std::vector<std::string> files) {
  return OrderDataCapabilityFilesBy(std::move(files), [](const std::string& path) {
    return FirstPythonLogTimestampIn(ReadHead(path, kTimestampHeadBytes));
  });
}

namespace {

// At most this many input files are held open between their sniff and their read (the
// process's descriptor limit is often 1024); a job with more files opens the rest again when
// they are read.
constexpr size_t kMaxHeldOpen = 512;
constexpr size_t kSniffBytes = 64 * 1024;

// What the one open of a file learned before it is read: its format, what orders it among
// its kind, and the descriptor itself, kept for the read.
struct Sniffed {
  InputFile file;
  InputFormat format = InputFormat::kUnknown;
  std::optional<double> first_epoch_s;                // rslex, data-capability
  std::string metrics_account;                        // Azure Monitor JSON
  std::optional<std::pair<double, double>> smi_span;  // nvidia-smi
};

// Opens each candidate once: detects its format from its head and keeps what ordering and
// setting aside need. Unrecognised files are skipped (closed) here.
std::map<InputFormat, std::vector<std::string>> SniffAll(const AnalyzeRequest& req,
                                                         const std::vector<Candidate>& candidates,
                                                         std::map<std::string, Sniffed>* sniffed,
                                                         AnalysisResult* result) {
  std::map<InputFormat, std::vector<std::string>> by_format;
  size_t held = 0;
  for (const auto& c : candidates) {
    InputFile file = InputFile::Open(c.path);
    const std::string head = AsUtf8(file.ReadAt(0, kSniffBytes));
    InputFormat format = req.forced_format.value_or(InputFormat::kUnknown);
    if (!req.forced_format) {
      format = DetectFormat(head, fs::path(c.path).filename().string());
      if (format == InputFormat::kUnknown) {
        result->skipped.push_back(
            {c.path, head.empty() ? "empty or unreadable" : "format not recognised"});
        if (c.explicit_file)
          result->evidence.diagnostics.Add(
              {codes::kFormatNotRecognised,
               DiagnosticSeverity::kWarning,
               fmt::format("format not recognised (use --input-format {})",
                           fmt::join(FormatNames(), "|")),
               {c.path, 0, 0},
               "analyze",
               ""});
        continue;
      }
    }
    Sniffed s;
    s.format = format;
    if (format == InputFormat::kRslex) s.first_epoch_s = FirstTimestampIn(head);
    if (format == InputFormat::kDataCapability) s.first_epoch_s = FirstPythonLogTimestampIn(head);
    if (format == InputFormat::kAzureMonitorJson) s.metrics_account = MetricsAccountIn(head);
    if (format == InputFormat::kNvidiaSmiCsv) s.smi_span = SmiTimeSpan(file, head);
    if (held < kMaxHeldOpen && file.ok()) {
      s.file = std::move(file);
      ++held;
    }
    by_format[format].push_back(c.path);
    (*sniffed)[c.path] = std::move(s);
  }
  return by_format;
}

// The node of each file found under a folder given (a job folder with one folder per node),
// by its logs' folders or, where fewer than two nodes left logs, its GPU files'.
std::map<std::string, std::string> NodesOf(
    const std::vector<Candidate>& candidates,
    const std::map<InputFormat, std::vector<std::string>>& by_format) {
  std::map<std::string, std::vector<std::string>> by_root;
  for (const auto& c : candidates)
    if (!c.explicit_file) by_root[c.root].push_back(c.path);
  std::set<std::string> gpu_files;
  for (InputFormat f : {InputFormat::kNvidiaSmiCsv, InputFormat::kDcgmText})
    if (auto it = by_format.find(f); it != by_format.end())
      gpu_files.insert(it->second.begin(), it->second.end());
  std::map<std::string, std::string> out;
  for (const auto& [root, files] : by_root) out.merge(NodesOfFiles(root, files, gpu_files));
  return out;
}

// The nvidia-smi clock offset: stated (--gpu-utc-offset), else guessed when the samples miss
// the data runtime's logs by hours, else none. Says which in a note.
double SmiClockOffsetS(const std::string& path, const Sniffed& s, const AnalyzerOptions& opt,
                       const std::vector<std::unique_ptr<LineAnalyzer>>& analyzers,
                       AnalysisResult* result) {
  // nvidia-smi's timestamps carry no zone; the logs' are UTC (DCGM scrapes are stamped by the
  // collector, also UTC). A zone the user stated is used as stated, never guessed over.
  if (opt.gpu_utc_offset_s) {
    double offset_s = -*opt.gpu_utc_offset_s;
    result->evidence.diagnostics.Add(
        {codes::kGpuLocalTime,
         DiagnosticSeverity::kNote,
         fmt::format("nvidia-smi timestamps read as local time {}, as --gpu-utc-offset "
                     "states (shifted {:+.2f} h)",
                     UtcOffsetName(*opt.gpu_utc_offset_s), offset_s / 3600),
         {path, 0, 0},
         "gpu",
         ""});
    return offset_s;
  }
  auto logs = LogTimeSpan(analyzers);
  if (!logs || !s.smi_span) return 0;
  auto o = LocalClockOffsetS(s.smi_span->first, s.smi_span->second, logs->first, logs->second);
  if (!o) return 0;
  result->evidence.diagnostics.Add(
      {codes::kGpuLocalTime,
       DiagnosticSeverity::kNote,
       fmt::format("nvidia-smi timestamps have no zone and miss the data runtime's "
                   "UTC logs by hours: read as local time {} (shifted {:+.2f} h), a "
                   "guess; --gpu-utc-offset states the zone",
                   UtcOffsetName(-*o), *o / 3600),
       {path, 0, 0},
       "gpu",
       ""});
  return *o;
}

}  // namespace

AnalysisResult AnalyzePaths(const AnalyzeRequest& req) {
  AnalysisResult result;
  std::vector<Candidate> candidates;
  Collect(req, &candidates, &result.skipped, &result.job_definitions);
  // In the order of preference, whatever order the folder listed them in.
  std::stable_sort(result.job_definitions.begin(), result.job_definitions.end(),
                   [](const std::string& a, const std::string& b) {
                     return JobDefinitionRank(a) < JobDefinitionRank(b);
                   });
  std::map<std::string, std::string> root_of;
  for (const auto& c : candidates) root_of[c.path] = c.root;
  std::map<std::string, Sniffed> sniffed;
  std::map<InputFormat, std::vector<std::string>> by_format =
      SniffAll(req, candidates, &sniffed, &result);
  const std::map<std::string, std::string> node_of = NodesOf(candidates, by_format);
  auto first_of = [&](const std::string& path) { return sniffed[path].first_epoch_s; };

  const AnalyzerOptions& opt = req.options;
  std::vector<std::unique_ptr<LineAnalyzer>> analyzers;
  GpuUtilAnalyzer* gpu = nullptr;
  std::unique_ptr<GpuUtilAnalyzer> gpu_owner;
  size_t gpu_files =
      by_format[InputFormat::kNvidiaSmiCsv].size() + by_format[InputFormat::kDcgmText].size();
  std::set<std::string> nodes_read;
  // One identity per node: a GPU file inside a node's folder belongs to the node its logs name
  // (the same folder, found the same way); only a GPU file outside every node folder is named
  // by its own path.
  std::set<std::string> log_nodes;
  for (const auto& [file, node] : node_of) log_nodes.insert(node);
  auto NodeOfGpuFile = [&](const std::string& path) {
    auto it = node_of.find(path);
    return it != node_of.end() ? it->second : NodeNameOf(root_of[path], path, log_nodes);
  };

  // Reads a file through the descriptor its sniff opened (or opens it, when it was not kept).
  auto feed = [&](LineAnalyzer& a, const std::string& path) {
    Sniffed& s = sniffed[path];
    InputFile file = s.file.ok() ? std::move(s.file) : InputFile::Open(path);
    auto node = node_of.find(path);
    a.SetNode(node == node_of.end() ? "" : node->second);
    std::string error;
    if (!FeedInput(std::move(file), a, &error)) {
      result.skipped.push_back({path, error});
      result.evidence.diagnostics.Add(
          {codes::kUnreadableFile, DiagnosticSeverity::kError, error, {path, 0, 0}, "analyze", ""});
      return;
    }
    result.anything_read = true;
    if (!a.node().empty()) nodes_read.insert(a.node());
  };

  for (auto& [format, paths] : by_format) {
    if (paths.empty()) continue;
    std::unique_ptr<LineAnalyzer> a;
    switch (format) {
      case InputFormat::kDataCapability:
        a = std::make_unique<DataCapabilityAnalyzer>(opt);
        paths = OrderDataCapabilityFilesBy(paths, first_of);
        break;
      case InputFormat::kRslex:
        a = std::make_unique<RslexLogAnalyzer>(opt);
        paths = OrderRslexFilesBy(paths, first_of);
        break;
      case InputFormat::kAzureMonitorJson:
        a = std::make_unique<AzureMonitorMetricsAnalyzer>(opt);
        paths = SetAsideOtherAccounts(
            paths, analyzers,
            [&](const std::string& path) { return sniffed[path].metrics_account; }, &result);
        for (const auto& r : analyzers)
          if (const auto* rslex = dynamic_cast<const RslexLogAnalyzer*>(r.get()))
            static_cast<AzureMonitorMetricsAnalyzer*>(a.get())->SetAccountsRead(rslex->accounts());
        break;
      case InputFormat::kMetricsCsv:
        a = std::make_unique<MetricsCsvAnalyzer>(opt);
        break;
      case InputFormat::kStorageBlobLogs:
        a = std::make_unique<StorageBlobLogsAnalyzer>(opt);
        break;
      case InputFormat::kNvidiaSmiCsv:
      case InputFormat::kDcgmText:
        if (!gpu) {
          gpu_owner = std::make_unique<GpuUtilAnalyzer>(opt);
          gpu = gpu_owner.get();
        }
        for (const auto& p : paths) {
          const bool smi = format == InputFormat::kNvidiaSmiCsv;
          double offset_s = smi ? SmiClockOffsetS(p, sniffed[p], opt, analyzers, &result) : 0;
          gpu->SetNextFile(smi ? GpuFileFormat::kNvidiaSmiCsv : GpuFileFormat::kDcgmText,
                           gpu_files > 1 ? NodeOfGpuFile(p) : "", offset_s);
          feed(*gpu, p);
        }
        continue;
      case InputFormat::kTorchTrace:  // whole documents, read below
      case InputFormat::kUnknown:
        continue;
    }
    for (const auto& p : paths) feed(*a, p);
    analyzers.push_back(std::move(a));
  }
  // Azure ML's workspace GPU metric arrives in a metrics file: its points join the GPU samples.
  for (const auto& a : analyzers) {
    const auto* monitor = dynamic_cast<const AzureMonitorMetricsAnalyzer*>(a.get());
    if (!monitor || monitor->gpu_points().empty()) continue;
    if (!gpu) {
      gpu_owner = std::make_unique<GpuUtilAnalyzer>(opt);
      gpu = gpu_owner.get();
    }
    gpu->AddMetricSamples(monitor->gpu_points());
  }
  if (gpu_owner) analyzers.push_back(std::move(gpu_owner));

  // The rslex guess of the mode yields to data-capability.log, which names the activity: run
  // data-capability last so its facts win the merge.
  std::stable_partition(analyzers.begin(), analyzers.end(),
                        [](const auto& a) { return a->stats().format != "data-capability"; });
  for (auto& a : analyzers) {
    if (a->stats().files.empty()) continue;
    Evidence ev;
    a->Finish(&ev);
    if (const auto* r = dynamic_cast<const RslexLogAnalyzer*>(a.get()))
      AddStorageReadFacts(r->spans(), r->stats().files.front(), &ev);
    result.evidence.Merge(ev);
    result.sources.push_back(a->stats());
  }
  // The training loop's own clock: the profiler traces found and those named.
  std::vector<std::string> traces = by_format[InputFormat::kTorchTrace];
  for (const auto& t : req.traces)
    if (std::find(traces.begin(), traces.end(), t) == traces.end()) traces.push_back(t);
  if (!traces.empty()) {
    auto open = [&](const std::string& path) {
      auto s = sniffed.find(path);
      return s != sniffed.end() && s->second.file.ok() ? std::move(s->second.file)
                                                       : InputFile::Open(path);
    };
    SourceStats stats;
    // A trace in a node's folder whose data runtime left no log (so the logs named no node
    // there) is that folder's node, when the job's logs are in node folders too.
    std::map<std::string, std::string> trace_node_of = node_of;
    for (const auto& t : traces)
      if (!trace_node_of.count(t) && !log_nodes.empty())
        if (std::string folder = NodeFolderOf(root_of[t], t); !folder.empty())
          trace_node_of[t] = folder;
    result.traces = ReadTraceFiles(traces, open, trace_node_of, &result.evidence, &stats);
    result.sources.push_back(std::move(stats));
    result.anything_read = true;
  }
  CorrelationInputs ci;
  ci.gpu_busy_threshold_percent = opt.gpu_busy_threshold_percent;
  if (gpu) {
    ci.first_gpu_sample_epoch_s = gpu->first_sample_epoch_s();
    ci.first_gpu_busy_epoch_s = gpu->first_busy_epoch_s();
    if (const Fact* f = result.evidence.facts.Find("gpu.first_busy_s"))
      ci.first_gpu_busy_source = f->provenance.source;
  }
  result.correlation_keys = Correlate(ci, &result.evidence);

  // What each node's own files showed, from the same read.
  if (nodes_read.size() >= 2) {
    for (const auto& node : nodes_read) {
      NodeEvidence n;
      n.node = node;
      for (auto& a : analyzers)
        if (!a->stats().files.empty()) a->FinishNode(node, &n.evidence);
      result.nodes.push_back(std::move(n));
    }
    ChargeRefusalsPerNode(&result.evidence, &result.nodes);
    // Each node's own profiler traces: its ranks' waits, as a read of its folder alone gives
    // (the diagnostics are the job's, said once).
    for (auto& n : result.nodes) {
      std::vector<RankFigures> mine;
      for (const auto& r : result.traces)
        if (r.node == n.node) mine.push_back(r);
      Evidence own;
      AddTraceEvidence(mine, &own);
      own.diagnostics = DiagnosticList();
      n.evidence.Merge(own);
    }
  }
  return result;
}

}  // namespace feedcheck::analyzers
