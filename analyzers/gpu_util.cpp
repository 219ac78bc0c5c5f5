#include "analyzers/gpu_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "analyzers/gpu_identity.h"
#include "analyzers/text_util.h"
#include "core/diagnostic_codes.h"
#include "core/plural.h"

namespace feedcheck::analyzers {

namespace {
constexpr size_t kMaxGpus = 4096;
constexpr size_t kMaxGpuSeries = 16;
}  // namespace

void PercentHistogram::Add(double percent) {
  // std::clamp passes NaN through, and lround(NaN) is no bin: a NaN is not a sample.
  if (std::isnan(percent)) return;
  double p = std::clamp(percent, 0.0, 100.0);
  ++bins_[static_cast<size_t>(std::lround(p * 2))];
  ++count_;
  sum_ += p;
}

uint64_t PercentHistogram::CountBelow(double percent) const {
  uint64_t n = 0;
  for (size_t i = 0; i < bins_.size(); ++i)
    if (static_cast<double>(i) / 2 < percent) n += bins_[i];
  return n;
}

double PercentHistogram::Quantile(double q) const {
  if (count_ == 0) return 0;
  auto rank =
      static_cast<uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_)));
  if (rank == 0) rank = 1;
  uint64_t seen = 0;
  for (size_t i = 0; i < bins_.size(); ++i) {
    seen += bins_[i];
    if (seen >= rank) return static_cast<double>(i) / 2;
  }
  return 100;
}

GpuUtilAnalyzer::GpuUtilAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("gpu", options), ledger_(options.gpu_busy_threshold_percent) {}

void GpuUtilAnalyzer::NoteMetricFile(const std::string& source) {
  if (std::find(metric_files_.begin(), metric_files_.end(), source) == metric_files_.end()) {
    metric_files_.push_back(source);
    if (std::find(formats_seen_.begin(), formats_seen_.end(), "GpuUtilization metric") ==
        formats_seen_.end())
      formats_seen_.push_back("GpuUtilization metric");
    stats().format = "gpu (" + fmt::format("{}", fmt::join(formats_seen_, " + ")) + ")";
    if (std::find(stats().files.begin(), stats().files.end(), source) == stats().files.end())
      stats().files.push_back(source);
  }
}

void GpuUtilAnalyzer::AddMetricSample(std::string_view node, std::string_view device,
                                      double epoch_s, double util_percent, double interval_s,
                                      const std::string& source) {
  NoteMetricFile(source);
  key_scratch_ = node.empty() ? std::string() : KeySegment(node) + "/";
  key_scratch_ += "gpu" + KeySegment(device.empty() ? std::string_view("0") : device);
  GpuSample sample;
  sample.gpu = key_scratch_;
  sample.epoch_s = epoch_s;
  sample.util_percent = util_percent;
  Line line;
  AddSample(sample, line, interval_s);
}

void GpuUtilAnalyzer::AddMetricSamples(const std::vector<GpuMetricPoint>& points) {
  if (points.empty()) return;
  // What the job's own files showed, before any metric point joins: each GPU's span.
  struct Covered {
    double first_s, end_s, interval_s;
  };
  std::map<std::string, Covered, std::less<>> files;
  std::set<std::string> file_nodes, unindexed_nodes;
  for (const auto& [key, g] : gpus_) {
    const GpuIdentity id = ParseGpuKey(key);
    file_nodes.insert(id.node);
    if (!id.indexed()) unindexed_nodes.insert(id.node);
    if (g.timed == 0) continue;
    const double interval =
        g.timed > 1 ? (g.last_s - g.first_s) / static_cast<double>(g.timed - 1) : 0;
    files[key] = {g.first_s, g.last_s + interval, interval};
  }
  auto node_of = [](const GpuMetricPoint& pt) {
    return pt.node.empty() ? std::string() : KeySegment(pt.node);
  };
  std::set<std::string> metric_nodes;
  for (const auto& pt : points) metric_nodes.insert(node_of(pt));
  const MetricNodePairing pairing = PairMetricNodes(file_nodes, metric_nodes);

  uint64_t inside = 0, filled = 0, aside = 0;
  std::set<std::string> merged_gpus, aside_nodes;
  double file_interval_s = 0, metric_interval_s = 0;
  for (const auto& pt : points) {
    const std::string node = node_of(pt);
    if (pairing.set_aside.count(node)) {
      NoteMetricFile(pt.file);
      ++aside;
      aside_nodes.insert(node.empty() ? "(unnamed)" : node);
      continue;
    }
    auto same = pairing.same_node.find(node);
    if (same == pairing.same_node.end()) {
      AddMetricSample(pt.node, pt.device, pt.epoch_s, pt.util_percent, pt.interval_s, pt.file);
      continue;
    }
    GpuIdentity id;
    id.node = same->second;
    id.device = KeySegment(pt.device.empty() ? std::string_view("0") : pt.device);
    const std::string key = GpuKey(ParseGpuKey(GpuKey(id)));
    NoteMetricFile(pt.file);
    auto covered = files.find(key);
    if (covered == files.end() && unindexed_nodes.count(id.node)) {
      // The files name this node's GPUs by UUID or bus id, the metric by index: the same
      // GPUs, not which is which.
      ++aside;
      aside_nodes.insert(node.empty() ? "(unnamed)" : node);
      continue;
    }
    if (covered != files.end()) {
      merged_gpus.insert(key);
      file_interval_s = std::max(file_interval_s, covered->second.interval_s);
      metric_interval_s = std::max(metric_interval_s, pt.interval_s);
      if (pt.epoch_s < covered->second.end_s &&
          pt.epoch_s + pt.interval_s > covered->second.first_s) {
        ++inside;
        continue;
      }
      ++filled;
    }
    GpuSample sample;
    sample.gpu = key;
    sample.epoch_s = pt.epoch_s;
    sample.util_percent = pt.util_percent;
    AddSample(sample, Line{}, pt.interval_s);
  }
  const std::string first = points.front().file;
  if (!merged_gpus.empty()) {
    std::set<std::string> nodes;
    for (const auto& key : merged_gpus) nodes.insert(ParseGpuKey(key).node);
    diagnostics().Add(
        {codes::kGpuSourcesMerged,
         DiagnosticSeverity::kNote,
         fmt::format("the job's GPU files and Azure ML's GpuUtilization metric show the same {} "
                     "on {}: each counted once, from the files (a sample every {} s; the "
                     "metric's every {} s); {} of the metric inside the files' span set "
                     "aside, {} added where the files have none",
                     Counted(double(merged_gpus.size()), "GPU"),
                     Counted(double(nodes.size()), "node"), FormatNumber(file_interval_s),
                     FormatNumber(metric_interval_s), Counted(double(inside), "point"),
                     Counted(double(filled), "point")),
         {first, 0, 0},
         "gpu",
         ""});
  }
  if (aside > 0) {
    std::vector<std::string> file_named(file_nodes.begin(), file_nodes.end());
    for (auto& n : file_named)
      if (n.empty()) n = "(unnamed)";
    diagnostics().Add(
        {codes::kGpuSourcesMerged,
         DiagnosticSeverity::kWarning,
         fmt::format("Azure ML's GpuUtilization metric names {} ({}) that the job's GPU files "
                     "show under other names ({}): the same GPUs, but not which is which; "
                     "the metric's {} set aside so that no GPU is counted twice (name each "
                     "node's folder by its NodeId to merge them)",
                     Counted(double(aside_nodes.size()), "node"), fmt::join(aside_nodes, ", "),
                     fmt::join(file_named, ", "), Counted(double(aside), "point")),
         {first, 0, 0},
         "gpu",
         ""});
  }
}

void GpuUtilAnalyzer::SetNextFile(GpuFileFormat format, std::string node_prefix,
                                  double clock_offset_s) {
  format_ = format;
  clock_offset_s_ = clock_offset_s;
  node_prefix_ = std::move(node_prefix);
}

void GpuUtilAnalyzer::BeginFile(const std::string& path) {
  LineAnalyzer::BeginFile(path);
  node_hist_ = nullptr;
  if (!node().empty() && (node_hists_.size() < kMaxGpus || node_hists_.count(node())))
    node_hist_ = &node_hists_[node()];
  smi_.Reset();
  dcgm_.Reset();
  std::string name = format_ == GpuFileFormat::kNvidiaSmiCsv ? "nvidia-smi" : "dcgm";
  if (std::find(formats_seen_.begin(), formats_seen_.end(), name) == formats_seen_.end())
    formats_seen_.push_back(name);
  stats().format = "gpu (" + fmt::format("{}", fmt::join(formats_seen_, " + ")) + ")";
}

void GpuUtilAnalyzer::OnLine(const Line& line) {
  GpuSample sample;
  if (format_ == GpuFileFormat::kNvidiaSmiCsv) {
    switch (smi_.Parse(line.text, &sample, &error_)) {
      case NvidiaSmiCsvParser::Result::kSample:
        key_scratch_ = node_prefix_.empty() ? "gpu" : node_prefix_ + "/gpu";
        key_scratch_ += KeySegment(sample.gpu);
        sample.gpu = key_scratch_;
        if (sample.epoch_s) *sample.epoch_s += clock_offset_s_;
        AddSample(sample, line);
        return;
      case NvidiaSmiCsvParser::Result::kMalformed:
        Malformed(line, error_);
        return;
      default:
        return;
    }
  }
  switch (dcgm_.Parse(line.text, &sample, &key_scratch_, &error_)) {
    case DcgmTextParser::Result::kSample:
      // The file's node (its folder, as its logs name it) is the node, whatever Hostname the
      // exporter put in its labels: one identity per node for logs and GPU files.
      if (!node_prefix_.empty()) {
        const size_t slash = key_scratch_.rfind('/');
        key_scratch_ = node_prefix_ + "/" +
                       (slash == std::string::npos ? key_scratch_ : key_scratch_.substr(slash + 1));
        sample.gpu = key_scratch_;
      }
      AddSample(sample, line);
      return;
    case DcgmTextParser::Result::kMalformed:
      Malformed(line, error_);
      return;
    default:
      return;
  }
}

void GpuUtilAnalyzer::AddSample(const GpuSample& s, const Line& line,
                                std::optional<double> duration_s) {
  if (!s.util_percent) {
    ++missing_;
    return;
  }
  auto it = gpus_.find(s.gpu);
  if (it == gpus_.end()) {
    if (gpus_.size() >= kMaxGpus) {
      ++gpu_overflow_;
      return;
    }
    it = gpus_.try_emplace(std::string(s.gpu)).first;
    it->second.file = line.number > 0 || metric_files_.empty() ? file() : metric_files_.back();
    if (gpus_.size() <= kMaxGpuSeries)
      it->second.series = std::make_unique<BoundedSeries>(1.0, 1024);
  }
  double u = *s.util_percent;
  it->second.hist.Add(u);
  overall_.Add(u);
  if (node_hist_) node_hist_->Add(u);
  if (!s.epoch_s) {
    ++untimed_;
    return;
  }
  double t = *s.epoch_s;
  PerGpu& g = it->second;
  if (g.timed++ == 0) g.first_s = g.last_s = t;
  g.first_s = std::min(g.first_s, t);
  g.last_s = std::max(g.last_s, t);
  if (g.series) g.series->Add(t, u);
  size_t slash = s.gpu.rfind('/');
  ledger_.Add(s.gpu, slash == std::string_view::npos ? std::string_view{} : s.gpu.substr(0, slash),
              t, u, duration_s, node_hist_ ? std::string_view(node()) : std::string_view{});
  overall_series_.Add(t, u);
  if (!first_sample_ || t < *first_sample_) first_sample_ = t;
  if (u >= options().gpu_busy_threshold_percent && (!first_busy_ || t < *first_busy_)) {
    first_busy_ = t;
    first_busy_file_ = line.number > 0 ? file() : metric_files_.back();
    first_busy_line_ = line.number;
  }
}

void GpuUtilAnalyzer::Finish(Evidence* out) {
  double threshold = options().gpu_busy_threshold_percent;
  if (overall_.count() > 0) {
    Provenance p = AtFile(stats().files.empty() ? "" : stats().files.front(), 0);
    p.source = fmt::format("{} of {} in {}", Counted(double(overall_.count()), "sample"),
                           Counted(double(gpus_.size()), "GPU"),
                           Counted(double(stats().files.size()), "file"));
    auto pct = [&](std::string key, double v) {
      SetFact(out, NumberFact(std::move(key), v, Unit::kPercent, p));
    };
    SetFact(out, NumberFact("gpu.count", static_cast<double>(gpus_.size()), Unit::kCount, p));
    SetFact(out, NumberFact("gpu.samples", static_cast<double>(overall_.count()), Unit::kCount, p));
    pct("gpu.util_mean", overall_.mean());
    pct("gpu.util_p10", overall_.Quantile(0.10));
    pct("gpu.util_p50", overall_.Quantile(0.50));
    pct("gpu.util_p90", overall_.Quantile(0.90));
    Provenance pt = p;
    pt.source += fmt::format(", busy threshold {}%", FormatNumber(threshold));
    SetFact(out, NumberFact("gpu.starved_fraction",
                            static_cast<double>(overall_.CountBelow(threshold)) /
                                static_cast<double>(overall_.count()),
                            Unit::kFraction, pt));
    SetFact(out, NumberFact("gpu.busy_threshold_percent", threshold, Unit::kPercent, pt));
    // Per GPU and per node: the file those samples came from, not the first file read.
    std::map<std::string, std::string, std::less<>> node_files;
    for (const auto& [gpu, g] : gpus_) {
      Provenance pg = AtFile(g.file, 0);
      pg.source = fmt::format("{} samples of {}", g.hist.count(), gpu);
      SetFact(out,
              NumberFact("gpu.util_mean." + KeySegment(gpu), g.hist.mean(), Unit::kPercent, pg));
      size_t slash = gpu.rfind('/');
      if (slash != std::string::npos) node_files.try_emplace(gpu.substr(0, slash), g.file);
    }
    ledger_.Finish(out, p, node_files);
    if (first_sample_ && first_busy_) {
      Provenance pb = AtFile(first_busy_file_, first_busy_line_);
      SetFact(out,
              NumberFact("gpu.first_busy_s", *first_busy_ - *first_sample_, Unit::kSeconds, pb));
    }
  }
  if (!overall_series_.empty()) {
    Series s{"gpu.util",
             "GPU utilisation (mean over GPUs)",
             "time",
             Unit::kSeconds,
             "%",
             Unit::kPercent,
             overall_series_.Points()};
    out->series.push_back(std::move(s));
    for (const auto& [gpu, g] : gpus_) {
      if (!g.series || g.series->empty()) continue;
      out->series.push_back({"gpu.util." + gpu, gpu, "time", Unit::kSeconds, "%", Unit::kPercent,
                             g.series->Points()});
    }
    // Starved intervals: runs of buckets whose mean over GPUs is under the threshold. Buckets
    // hold samples only where some GPU reported, so a run bridges the gaps between samples
    // (up to kMaxBridgeS) and ends where the first busy bucket starts.
    constexpr double kMaxBridgeS = 300;
    IntervalMerger starved(0, 512);
    double width = overall_series_.width();
    std::optional<double> run_start;
    double run_end = 0;
    for (const auto& b : overall_series_.Buckets()) {
      bool low = b.y_mean < threshold;
      if (run_start && b.x_start - run_end > kMaxBridgeS) {
        starved.Add(*run_start, run_end);
        run_start.reset();
      }
      if (low) {
        if (!run_start) run_start = b.x_start;
        run_end = b.x_start + width;
      } else if (run_start) {
        starved.Add(*run_start, b.x_start);
        run_start.reset();
      }
    }
    if (run_start) starved.Add(*run_start, run_end);
    for (const auto& iv : starved.Result())
      out->timeline.push_back({"gpu", "starved", iv.start, iv.end, "",
                               stats().files.empty() ? "" : stats().files.front()});
    Provenance p = AtFile(stats().files.empty() ? "" : stats().files.front(), 0);
    p.source = fmt::format("GPU samples, mean over GPUs under {}%", FormatNumber(threshold));
    SetFact(out, NumberFact("gpu.starved_s", starved.TotalSeconds(), Unit::kSeconds, p));
  }
  std::string first = stats().files.empty() ? "" : stats().files.front();
  if (missing_ > 0)
    diagnostics().Add(
        {codes::kGpuNoValue,
         DiagnosticSeverity::kNote,
         fmt::format("{} samples had no value (N/A, [Not Supported], DCGM blank)", missing_),
         {first, 0, 0},
         "gpu",
         ""});
  if (untimed_ > 0)
    diagnostics().Add({codes::kGpuNoTimestamp,
                       DiagnosticSeverity::kNote,
                       fmt::format("{} samples had no timestamp: in the statistics, not on the "
                                   "timeline",
                                   untimed_),
                       {first, 0, 0},
                       "gpu",
                       ""});
  if (gpu_overflow_ > 0)
    diagnostics().Add({codes::kTooManyGpus,
                       DiagnosticSeverity::kNote,
                       fmt::format("more than {} GPUs; {} samples of further GPUs ignored",
                                   kMaxGpus, gpu_overflow_),
                       {first, 0, 0},
                       "gpu",
                       ""});
  FlushDiagnostics(out);
}

void GpuUtilAnalyzer::FinishNode(const std::string& node, Evidence* out) {
  auto it = node_hists_.find(node);
  if (it == node_hists_.end() || it->second.count() == 0) return;
  Provenance p = AtFile(node, 0);
  p.source = fmt::format("{} GPU samples of {}", it->second.count(), node);
  out->facts.Set(NumberFact("gpu.util_mean", it->second.mean(), Unit::kPercent, p));
  ledger_.FinishOwner(node, out, p);
}

}  // namespace feedcheck::analyzers
