// A generic metrics CSV (the portal's export layout is not documented): one time
// column (named like "time"/"timestamp"/"TimeGenerated", else the first column) and one column
// per series. Columns are recognised by name, case-insensitively: "Egress (Sum)", "Ingress",
// "Transactions" (a ResponseType value in the name, e.g. "Transactions, ServerBusyError",
// splits it), "SuccessE2ELatency", "SuccessServerLatency", "Availability". Values are per-row
// totals; the spacing of the time column is the interval (PT1M when there is one row).
#pragma once

#include <string>
#include <vector>

#include "analyzers/line_analyzer.h"
#include "analyzers/storage_metrics.h"

namespace feedcheck::analyzers {

class MetricsCsvAnalyzer : public LineAnalyzer {
 public:
  explicit MetricsCsvAnalyzer(const AnalyzerOptions& options = {});
  void BeginFile(const std::string& path) override;
  void OnLine(const Line& line) override;
  void EndFile() override;
  void Finish(Evidence* out) override;
  uint64_t rows() const { return rows_; }

 private:
  struct Column {
    StorageMetrics::Metric metric;
    std::string response_type;
  };
  bool ReadHeader(const Line& line);

  bool have_header_ = false;
  size_t time_column_ = 0;
  std::vector<std::optional<Column>> columns_;
  double previous_t_ = 0;
  bool have_previous_ = false;
  double min_spacing_s_ = 0;
  uint64_t rows_ = 0;
  StorageMetrics metrics_;
  std::string scratch_;
  std::vector<std::string_view> fields_;
};

}  // namespace feedcheck::analyzers
