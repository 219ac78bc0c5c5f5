// StorageBlobLogs (Azure Monitor reference, table "StorageBlobLogs",
// https://learn.microsoft.com/azure/azure-monitor/reference/tables/storagebloblogs), as a Log
// Analytics CSV export (PascalCase columns:
// TimeGenerated, OperationName, StatusCode, StatusText, DurationMs, ServerLatencyMs, ...) or the
// archived JSON-lines form (camelCase: time, operationName, statusCode, statusText, durationMs,
// properties.serverLatencyMs, uri). Per operation: DurationMs vs ServerLatencyMs percentiles (the
// gap is time on the network and in the client), the successful responses' median
// ResponseBodySize (GetBlob's: the reads' own size, a median over requests, which a few other
// clients' large reads do not move as they move the account's bytes per request) and status
// codes; throttled requests over time;
// and which blobs the refused requests were on (the Uri column), with the most requests one of
// them met in a second: one blob serves up to 500 requests/s, an account 20,000 or 40,000.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
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
    LatencyHistogram network;         // DurationMs - ServerLatencyMs, per request
    LatencyHistogram response_bytes;  // ResponseBodySize of the successful ones, a byte a ns
    std::map<std::string, uint64_t, std::less<>> status_codes;
  };
  const std::map<std::string, OperationStats, std::less<>>& operations() const { return ops_; }
  uint64_t requests() const { return requests_; }
  uint64_t throttled() const { return throttled_; }

  /// One blob's requests, followed while it is among the most requested (see blobs_).
  struct BlobStats {
    uint64_t weight = 0;     ///< the heavy-hitter counter (decremented when the table is full)
    uint64_t requests = 0;   ///< requests since it was last taken into the table
    uint64_t throttled = 0;  ///< of which refused
    int64_t second = INT64_MIN;
    uint32_t in_second = 0;
    uint32_t peak_per_s = 0;  ///< most requests in one second of TimeGenerated
  };

 private:
  struct Record {
    std::string_view operation;
    std::string_view status_code;
    std::string_view status_text;
    std::optional<double> duration_ms;
    std::optional<double> server_latency_ms;
    std::optional<double> epoch_s;
    std::string_view uri;
    std::optional<double> response_bytes;
  };
  void OnCsvLine(const Line& line);
  void OnJsonLine(const Line& line);
  void AddRecord(const struct Record& r);
  void CountBlob(std::string_view blob, bool throttled, std::optional<double> epoch_s);

  enum class Mode { kUnknown, kCsv, kJson } mode_ = Mode::kUnknown;
  bool have_header_ = false;
  int col_time_ = -1, col_op_ = -1, col_status_ = -1, col_status_text_ = -1, col_duration_ = -1,
      col_server_ = -1, col_uri_ = -1, col_response_bytes_ = -1;
  std::string scratch_;
  std::vector<std::string_view> fields_;
  std::string json_strings_[4];  // JSON values outlive the parse while being recorded

  std::map<std::string, OperationStats, std::less<>> ops_;
  OperationStats all_;
  uint64_t requests_ = 0;
  uint64_t throttled_ = 0;
  IntervalMerger throttle_intervals_{60, 256};
  // The most requested blobs, bounded (Misra-Gries): a blob with more than 1/kMaxBlobs of the
  // requests is always in it, whatever the number of distinct blobs (an ImageNet has 1.3 million).
  std::unordered_map<std::string, BlobStats> blobs_;
  uint64_t blob_throttled_ = 0;  // refused requests that named a blob
  std::string first_file_;
};

/// "https://acct.blob.core.windows.net/data/train/a.tar?sv=...&sig=..." -> "data/train/a.tar":
/// the container and blob, never the query (a SAS signature stays out of every output); empty
/// for a request on the account or a container (List, Get Account Info).
std::string_view BlobPathOf(std::string_view uri);

/// "5/1/2024, 10:03:00.123 AM" (a Log Analytics export in US locale) -> epoch seconds (UTC).
std::optional<double> ParseUsDateTime(std::string_view s);

}  // namespace feedcheck::analyzers
