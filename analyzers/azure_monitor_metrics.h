// Azure Monitor metrics JSON (REST "Metrics - List" and `az monitor metrics list`, formats.md
// §2.1): value[].name.value, unit, timeseries[].metadatavalues (dimension names compared
// case-insensitively), data[] with only the requested aggregations. A bucket without the
// aggregation is "no data", not 0. The response's own `interval` converts per-bucket totals
// into rates (it can differ from the requested one).
#pragma once

#include <string>

#include "analyzers/line_analyzer.h"
#include "analyzers/storage_metrics.h"

namespace feedcheck::analyzers {

/// Parses one JSON document into `metrics`. Problems (syntax error with line, a metric without
/// name, a bad timestamp) become diagnostics naming `file`; the rest is kept. Returns false
/// when the document is not JSON or not a metrics response at all.
bool ParseAzureMonitorJson(std::string_view text, const std::string& file, StorageMetrics* metrics,
                           DiagnosticList* diagnostics, uint64_t* points = nullptr);

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

 private:
  std::string text_;  // one file's document, bounded by kMaxDocumentBytes
  bool too_big_ = false;
  StorageMetrics metrics_;
  uint64_t points_ = 0;
};

}  // namespace feedcheck::analyzers
