// StorageBlobLogs (Azure Monitor reference, table "StorageBlobLogs",
// https://learn.microsoft.com/azure/azure-monitor/reference/tables/storagebloblogs), as a Log
// Analytics CSV export (PascalCase columns:
// TimeGenerated, OperationName, StatusCode, StatusText, DurationMs, ServerLatencyMs, ...) or the
// archived JSON-lines form (camelCase: time, operationName, statusCode, statusText, durationMs,
// properties.serverLatencyMs). Per operation: DurationMs vs ServerLatencyMs percentiles (the gap
// is time on the network and in the client) and status codes; throttled requests over time.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/bounded_series.h"
#include "analyzers/line_analyzer.h"
#include "core/latency_histogram.h"

namespace feedcheck::analyzers {

class StorageBlobLogsAnalyzer : public LineAnalyzer {
 public:
  explicit StorageBlobLogsAnalyzer(const AnalyzerOptions& options = {});
  void BeginFile(const std::string& path) override;
  void OnLine(const Line& line) override;
  void Finish(Evidence* out) override;

  struct OperationStats {
    LatencyHistogram duration;
    LatencyHistogram server_latency;
    LatencyHistogram network;  // DurationMs - ServerLatencyMs, per request
    std::map<std::string, uint64_t, std::less<>> status_codes;
  };
  const std::map<std::string, OperationStats, std::less<>>& operations() const { return ops_; }
  uint64_t requests() const { return requests_; }
  uint64_t throttled() const { return throttled_; }

 private:
  struct Record {
    std::string_view operation;
    std::string_view status_code;
    std::string_view status_text;
    std::optional<double> duration_ms;
    std::optional<double> server_latency_ms;
    std::optional<double> epoch_s;
  };
  void OnCsvLine(const Line& line);
  void OnJsonLine(const Line& line);
  void AddRecord(const struct Record& r);

  enum class Mode { kUnknown, kCsv, kJson } mode_ = Mode::kUnknown;
  bool have_header_ = false;
  int col_time_ = -1, col_op_ = -1, col_status_ = -1, col_status_text_ = -1, col_duration_ = -1,
      col_server_ = -1;
  std::string scratch_;
  std::vector<std::string_view> fields_;
  std::string json_strings_[3];  // JSON values outlive the parse while being recorded

  std::map<std::string, OperationStats, std::less<>> ops_;
  OperationStats all_;
  uint64_t requests_ = 0;
  uint64_t throttled_ = 0;
  IntervalMerger throttle_intervals_{60, 256};
  std::string first_file_;
};

/// "5/1/2024, 10:03:00.123 AM" (a Log Analytics export in US locale) -> epoch seconds (UTC).
std::optional<double> ParseUsDateTime(std::string_view s);

}  // namespace feedcheck::analyzers
