// GPU utilisation from nvidia-smi CSV and DCGM exporter text: per-GPU and overall mean and
// percentiles, the fraction of samples under the busy threshold ("starved"), starved intervals
// (lane "gpu") and the time of the first busy sample. Memory is bounded: fixed histograms per
// GPU and series that coarsen as they grow.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>

#include "analyzers/azure_monitor_metrics.h"
#include "analyzers/bounded_series.h"
#include "analyzers/dcgm_text.h"
#include "analyzers/gpu_idle_ledger.h"
#include "analyzers/line_analyzer.h"
#include "analyzers/nvidia_smi_csv.h"

namespace feedcheck::analyzers {

/// Exact for whole and half percents: 201 bins of 0.5 %.
class PercentHistogram {
 public:
  void Add(double percent);
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0; }
  double Quantile(double q) const;
  /// Samples strictly under `percent`.
  uint64_t CountBelow(double percent) const;

 private:
  std::array<uint64_t, 201> bins_{};
  uint64_t count_ = 0;
  double sum_ = 0;
};

enum class GpuFileFormat { kNvidiaSmiCsv, kDcgmText };

class GpuUtilAnalyzer : public LineAnalyzer {
 public:
  explicit GpuUtilAnalyzer(const AnalyzerOptions& options = {});
  /// Sets how the next file is read, and a node name that prefixes its GPU ids when files
  /// from several nodes are read together ("" for none).
  /// `clock_offset_s` is added to the file's timestamps (nvidia-smi in a local time zone).
  void SetNextFile(GpuFileFormat format, std::string node_prefix, double clock_offset_s = 0);
  void BeginFile(const std::string& path) override;
  void OnLine(const Line& line) override;
  void EndFile() override { node_hist_ = nullptr; }
  void Finish(Evidence* out) override;
  /// The node's gpu.util_mean, gpu.lost_gpu_s, gpu.sampled_gpu_s and its lost GPU time by
  /// time (series gpu.lost_gpu_s_by_time tagged with the node), from its own files.
  void FinishNode(const std::string& node, Evidence* out) override;
  /// A point of Azure ML's workspace metric GpuUtilization (per node and device), which covers
  /// the response's whole interval. `source` names the file for the statistics.
  void AddMetricSample(std::string_view node, std::string_view device, double epoch_s,
                       double util_percent, double interval_s, const std::string& source);
  /// All the points of the workspace metric, after the job's own GPU files: one identity per
  /// GPU (node + index). A GPU the files show keeps the files' samples (finer than the
  /// metric's minutes) where they cover, the metric filling only the time they do not; a node
  /// the files show under another name is set aside; a note (GpuSourcesMerged) says what
  /// overlapped.
  void AddMetricSamples(const std::vector<GpuMetricPoint>& points);

  struct PerGpu {
    PercentHistogram hist;
    std::unique_ptr<BoundedSeries> series;  // only for the first kMaxGpuSeries GPUs
    std::string file;                       // where its first sample was read
    double first_s = 0, last_s = 0;         // its timed samples' span
    uint64_t timed = 0;                     // how many were timed
  };
  const std::map<std::string, PerGpu, std::less<>>& gpus() const { return gpus_; }
  const PercentHistogram& overall() const { return overall_; }
  std::optional<double> first_sample_epoch_s() const { return first_sample_; }
  std::optional<double> first_busy_epoch_s() const { return first_busy_; }
  uint64_t missing_values() const { return missing_; }

 private:
  void AddSample(const GpuSample& s, const Line& line,
                 std::optional<double> duration_s = std::nullopt);
  void NoteMetricFile(const std::string& source);

  GpuFileFormat format_ = GpuFileFormat::kNvidiaSmiCsv;
  std::string node_prefix_;
  double clock_offset_s_ = 0;
  NvidiaSmiCsvParser smi_;
  DcgmTextParser dcgm_;
  std::string key_scratch_, error_;
  std::map<std::string, PerGpu, std::less<>> gpus_;
  PercentHistogram overall_;
  BoundedSeries overall_series_{1.0, 4096};
  std::optional<double> first_sample_, first_busy_;
  std::string first_busy_file_;
  int64_t first_busy_line_ = 0;
  uint64_t missing_ = 0;
  uint64_t untimed_ = 0;
  uint64_t gpu_overflow_ = 0;
  std::vector<std::string> formats_seen_;
  GpuIdleLedger ledger_;
  std::map<std::string, PercentHistogram, std::less<>> node_hists_;  // by SetNode's node
  PercentHistogram* node_hist_ = nullptr;                            // the current file's
  std::vector<std::string> metric_files_;
};

}  // namespace feedcheck::analyzers
