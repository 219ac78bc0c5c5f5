// Azure Monitor metrics JSON (REST "Metrics - List",
// https://learn.microsoft.com/rest/api/monitor/metrics/list, and `az monitor metrics list`):
// value[].name.value, unit, timeseries[].metadatavalues (dimension names compared
// case-insensitively), data[] with only the requested aggregations. A bucket without the
// aggregation is "no data", not 0. The response's own `interval` converts per-bucket totals
// into rates (it can differ from the requested one).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analyzers/line_analyzer.h"
#include "analyzers/node_cpu_metric.h"
#include "analyzers/storage_metrics.h"

namespace feedcheck::analyzers {

/// One point of Azure ML's workspace GPU metric (GpuUtilization, GpuUtilizationPercentage or
/// GpuUtilizationMilliGPUs; Azure Monitor supported metrics for
/// Microsoft.MachineLearningServices/workspaces), as a utilisation over the response's interval.
struct GpuMetricPoint {
  std::string node;    ///< NodeId / InstanceId dimension ("" when not split by node)
  std::string device;  ///< DeviceId dimension ("" when not split by device)
  double epoch_s = 0;
  double util_percent = 0;
  double interval_s = 60;
  std::string file;
};

/// Parses one JSON document into `metrics`. Problems (syntax error with line, a metric without
/// name, a bad timestamp, a CPU value that is not a utilisation) become diagnostics naming
/// `file` and the field's JSON path; the rest is kept. Returns false when the document is not
/// JSON or not a metrics response at all. Azure ML's GPU and CPU metrics go to `gpu_points`
/// and `cpu_points` (skipped when null).
bool ParseAzureMonitorJson(std::string_view text, const std::string& file, StorageMetrics* metrics,
                           DiagnosticList* diagnostics, uint64_t* points = nullptr,
                           std::vector<GpuMetricPoint>* gpu_points = nullptr,
                           const std::set<std::string>* accounts_read = nullptr,
                           std::vector<CpuMetricPoint>* cpu_points = nullptr);

class AzureMonitorMetricsAnalyzer : public LineAnalyzer {
 public:
  explicit AzureMonitorMetricsAnalyzer(const AnalyzerOptions& options = {});
  void BeginFile(const std::string& path) override;
  void OnLine(const Line& line) override;
  void EndFile() override;
  void Finish(Evidence* out) override;
  /// The whole document may be one line (minified JSON): its size limit, not a line's.
  size_t MaxLineBytes() const override;
  uint64_t points() const { return points_; }
  /// The storage accounts the job read (its rslex logs): a batch answer's resources of other
  /// accounts are set aside. Empty: nothing is set aside.
  void SetAccountsRead(std::set<std::string> accounts) { accounts_read_ = std::move(accounts); }
  /// GPU utilisation points of the files read (Azure ML workspace metrics).
  const std::vector<GpuMetricPoint>& gpu_points() const { return gpu_points_; }
  /// CPU utilisation points of the files read (Azure ML's CpuUtilization, per node).
  const std::vector<CpuMetricPoint>& cpu_points() const { return cpu_points_; }

 private:
  std::string text_;  // one file's document, bounded by kMaxDocumentBytes
  bool too_big_ = false;
  StorageMetrics metrics_;
  uint64_t points_ = 0;
  std::vector<GpuMetricPoint> gpu_points_;
  std::vector<CpuMetricPoint> cpu_points_;
  std::set<std::string> accounts_read_;
};

}  // namespace feedcheck::analyzers
