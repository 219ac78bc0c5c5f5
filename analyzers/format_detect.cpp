#include "analyzers/format_detect.h"

#include "analyzers/data_capability_log.h"
#include "analyzers/input_file.h"
#include "analyzers/text_encoding.h"
#include "analyzers/text_util.h"
#include "analyzers/torch_trace.h"
#include "analyzers/tracing_line.h"

namespace feedcheck::analyzers {

namespace {
struct Name {
  InputFormat format;
  std::string_view name;
};
constexpr Name kNames[] = {
    {InputFormat::kDataCapability, "data-capability"},
    {InputFormat::kRslex, "rslex"},
    {InputFormat::kAzureMonitorJson, "azure-monitor-json"},
    {InputFormat::kMetricsCsv, "metrics-csv"},
    {InputFormat::kStorageBlobLogs, "storage-blob-logs"},
    {InputFormat::kNvidiaSmiCsv, "nvidia-smi"},
    {InputFormat::kDcgmText, "dcgm"},
    {InputFormat::kTorchTrace, "torch-trace"},
};

// The first few non-empty lines (the last one may be cut by the 64 KiB head).
std::vector<std::string_view> FirstLines(std::string_view head, size_t n) {
  std::vector<std::string_view> lines;
  while (!head.empty() && lines.size() < n) {
    size_t nl = head.find('\n');
    std::string_view line = Trim(head.substr(0, nl));
    if (!line.empty()) lines.push_back(line);
    if (nl == std::string_view::npos) break;
    head.remove_prefix(nl + 1);
  }
  return lines;
}
// nvidia-smi dmon's header: "# gpu   pwr gtemp mtemp    sm ..." or "#Date       Time        gpu
// ... sm ...": a '#' line naming the columns `gpu` and `sm` as words.
bool LooksLikeDmonHeader(std::string_view line) {
  if (line.empty() || line.front() != '#') return false;
  auto word = [&](std::string_view w) {
    for (size_t p = line.find(w); p != std::string_view::npos; p = line.find(w, p + 1)) {
      const bool before = p == 1 || line[p - 1] == ' ' || line[p - 1] == '\t';
      const size_t end = p + w.size();
      const bool after = end == line.size() || line[end] == ' ' || line[end] == '\t';
      if (before && after) return true;
    }
    return false;
  };
  return word("gpu") && word("sm");
}
}  // namespace

std::string_view FormatName(InputFormat format) {
  for (const auto& n : kNames)
    if (n.format == format) return n.name;
  return "unknown";
}

std::optional<InputFormat> FormatFromName(std::string_view name) {
  for (const auto& n : kNames)
    if (n.name == name) return n.format;
  return std::nullopt;
}

std::vector<std::string_view> FormatNames() {
  std::vector<std::string_view> out;
  for (const auto& n : kNames) out.push_back(n.name);
  return out;
}

InputFormat DetectFormat(std::string_view head, std::string_view file_name) {
  head = WithoutUtf8Bom(head);  // a caller's head not through AsUtf8
  // Before the JSON forms below: a trace may name a "value" too, and its gzip head is binary.
  if (LooksLikeTorchTrace(head, file_name)) return InputFormat::kTorchTrace;
  auto lines = FirstLines(head, 20);
  if (lines.empty()) {
    // Empty file: the name is all we have.
    if (StartsWith(file_name, "rslex.log")) return InputFormat::kRslex;
    if (StartsWith(file_name, "data-capability")) return InputFormat::kDataCapability;
    return InputFormat::kUnknown;
  }
  std::string_view first = lines.front();
  // JSON: metrics response (one document) or StorageBlobLogs JSON lines.
  if (first.front() == '{' || first.front() == '[') {
    if (head.find("\"timeseries\"") != std::string_view::npos)
      return InputFormat::kAzureMonitorJson;
    if (head.find("\"operationName\"") != std::string_view::npos &&
        head.find("\"durationMs\"") != std::string_view::npos)
      return InputFormat::kStorageBlobLogs;
    if (head.find("\"value\"") != std::string_view::npos) return InputFormat::kAzureMonitorJson;
  }
  if (head.find("DCGM_FI_") != std::string_view::npos) return InputFormat::kDcgmText;
  if (first.find("utilization.gpu") != std::string_view::npos) return InputFormat::kNvidiaSmiCsv;
  if (LooksLikeDmonHeader(first)) return InputFormat::kNvidiaSmiCsv;  // nvidia-smi dmon
  if (IContains(first, "OperationName") && IContains(first, "DurationMs"))
    return InputFormat::kStorageBlobLogs;
  // Log lines: count which grammar most of the first lines fit.
  int tracing = 0, python = 0, smi_rows = 0;
  TracingLine t;
  PythonLogLine p;
  for (auto line : lines) {
    if (ParseTracingLine(line, &t) && t.has_time) ++tracing;
    if (ParsePythonLogLine(line, &p) && p.has_time) ++python;
    // headerless nvidia-smi: "2024/03/15 13:57:59.791, 0, 87 %"
    if (line.size() > 24 && line[4] == '/' && line[7] == '/' &&
        line.find(", ") != std::string_view::npos)
      ++smi_rows;
  }
  if (tracing > 0 && tracing >= python) return InputFormat::kRslex;
  if (python > 0) return InputFormat::kDataCapability;
  if (smi_rows * 2 >= static_cast<int>(lines.size())) return InputFormat::kNvidiaSmiCsv;
  // A CSV header with a time column and metric names.
  if (first.find(',') != std::string_view::npos && IContains(first, "time") &&
      (IContains(first, "egress") || IContains(first, "transactions") ||
       IContains(first, "ingress") || IContains(first, "latency")))
    return InputFormat::kMetricsCsv;
  if (StartsWith(file_name, "rslex.log")) return InputFormat::kRslex;
  if (StartsWith(file_name, "data-capability")) return InputFormat::kDataCapability;
  return InputFormat::kUnknown;
}

std::string ReadHead(const std::string& path, size_t max_bytes) {
  return AsUtf8(InputFile::Open(path).ReadAt(0, max_bytes));
}

}  // namespace feedcheck::analyzers
