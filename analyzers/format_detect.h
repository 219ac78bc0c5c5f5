// Which analyzer reads a file, decided by its content (the first 64 KiB), with the file name
// as a tie-breaker. `--format` forces one.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace feedcheck::analyzers {

enum class InputFormat {
  kUnknown,
  kDataCapability,    ///< data-capability.log
  kRslex,             ///< rslex.log.*
  kAzureMonitorJson,  ///< Azure Monitor metrics JSON
  kMetricsCsv,        ///< time column + metric columns
  kStorageBlobLogs,   ///< StorageBlobLogs CSV or JSON lines
  kNvidiaSmiCsv,      ///< nvidia-smi --query-gpu CSV
  kDcgmText,          ///< DCGM exporter text
  kTorchTrace,        ///< PyTorch profiler trace (.pt.trace.json, .json.gz)
};

/// The names `--format` accepts: data-capability, rslex, azure-monitor-json, metrics-csv,
/// storage-blob-logs, nvidia-smi, dcgm, torch-trace.
std::string_view FormatName(InputFormat format);
std::optional<InputFormat> FormatFromName(std::string_view name);
std::vector<std::string_view> FormatNames();

/// Detects from the first bytes of a file and its base name.
InputFormat DetectFormat(std::string_view head, std::string_view file_name);
/// Reads up to `max_bytes` of the file's start (empty on error).
std::string ReadHead(const std::string& path, size_t max_bytes = 64 * 1024);

}  // namespace feedcheck::analyzers
