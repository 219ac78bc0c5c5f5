#include "analyzers/input_sniff.h"

#include <algorithm>

#include "analyzers/data_capability_log.h"
#include "analyzers/line_reader.h"
#include "analyzers/nvidia_smi_csv.h"
#include "analyzers/text_encoding.h"
#include "analyzers/text_util.h"
#include "analyzers/tracing_line.h"

namespace feedcheck::analyzers {

std::optional<double> FirstTimestampIn(std::string_view head) {
  std::string_view rest = head.substr(0, kTimestampHeadBytes);
  TracingLine t;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) break;  // a cut line is not trusted
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (ParseTracingLine(line, &t) && t.has_time) return t.epoch_s;
    rest.remove_prefix(nl + 1);
  }
  return std::nullopt;
}

// The first timestamp of a Python-logging file (data-capability.log).
std::optional<double> FirstPythonLogTimestampIn(std::string_view head) {
  std::string_view rest = WithoutUtf8Bom(head.substr(0, kTimestampHeadBytes));
  PythonLogLine p;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) break;  // a cut line is not trusted
    std::string_view line = rest.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (ParsePythonLogLine(line, &p) && p.has_time) return p.epoch_s;
    rest.remove_prefix(nl + 1);
  }
  return std::nullopt;
}

// The storage account an Azure Monitor response is about, from its resource ids
// (".../storageAccounts/<name>/blobServices/default/..."), lower case; "" for other resources
// (a workspace's GPU metric) or none found.
std::string MetricsAccountIn(std::string_view head) {
  std::string lower = ToLower(head);
  // A batch answer (metrics:getBatch, {"values": [...]}) holds several resources: each is
  // kept or set aside by itself when the file is read.
  if (lower.find("\"values\"") != std::string::npos) return "";
  // ".../storageAccounts/<name>/...": the namespace ("Microsoft.Storage/storageAccounts/
  // blobServices") names no account, so a segment counts only when a '/' follows it.
  const std::string marker = "/storageaccounts/";
  for (size_t p = lower.find(marker); p != std::string::npos; p = lower.find(marker, p + 1)) {
    size_t from = p + marker.size();
    size_t to = lower.find_first_of("/\"", from);
    if (to == std::string::npos || lower[to] != '/' || to == from || to - from > 24) continue;
    return lower.substr(from, to - from);
  }
  return "";
}

// First and last timestamp of an nvidia-smi file's readable samples, from its first and last
// 64 KiB (the header is in the first; samples are written in time order): a large file is not
// read twice.
std::optional<std::pair<double, double>> SmiTimeSpan(const InputFile& file,
                                                     const std::string& head) {
  constexpr size_t kChunk = 64 * 1024;
  if (!file.ok()) return std::nullopt;
  std::string tail;
  if (file.size() > kChunk) {
    const TextEncoding encoding = EncodingOf(file.ReadAt(0, 2));
    uint64_t from = file.size() - kChunk;
    if (encoding != TextEncoding::kUtf8) {
      from -= from % 2;  // on a UTF-16 unit's first byte
      Utf16Decoder decoder(encoding == TextEncoding::kUtf16Be);
      decoder.Decode(file.ReadAt(from, kChunk), &tail);
      decoder.Finish(&tail);
    } else {
      tail = file.ReadAt(from, kChunk);
    }
    size_t nl = tail.find('\n');  // the first line is cut
    tail.erase(0, nl == std::string::npos ? tail.size() : nl + 1);
  }
  NvidiaSmiCsvParser parser;
  std::optional<std::pair<double, double>> span;
  GpuSample sample;
  std::string error;
  Line line;
  for (const std::string* chunk : {&head, static_cast<const std::string*>(&tail)}) {
    LineReader reader = LineReader::FromBuffer(*chunk);
    while (reader.Next(&line)) {
      if (line.too_long || line.unterminated ||
          parser.Parse(line.text, &sample, &error) != NvidiaSmiCsvParser::Result::kSample ||
          !sample.epoch_s)
        continue;
      double t = *sample.epoch_s;
      span = span ? std::make_pair(std::min(span->first, t), std::max(span->second, t))
                  : std::make_pair(t, t);
    }
  }
  return span;
}

}  // namespace feedcheck::analyzers
