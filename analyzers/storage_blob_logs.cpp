#include "analyzers/storage_blob_logs.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"
#include "core/diagnostic_codes.h"
#include "core/json_input.h"

namespace feedcheck::analyzers {

namespace {
constexpr size_t kMaxOperations = 128;
constexpr size_t kMaxStatusCodes = 64;
constexpr size_t kMaxBlobs = 4096;

// The log's milliseconds into the shared histogram; a negative or NaN field (a hand-edited or
// corrupt record) is left out rather than counted as 0 ms.
void RecordMs(LatencyHistogram* h, double ms) {
  if (ms >= 0) h->RecordSeconds(ms / 1e3);
}
double PercentileMs(const LatencyHistogram& h, double q) { return h.PercentileSeconds(q) * 1e3; }

// Sizes in the same histogram, a byte a nanosecond: its log-linear buckets hold any integer
// quantity to the same 1/2048 (up to 2^42, 4 TB); a negative, NaN or huge field is left out.
void RecordBytes(LatencyHistogram* h, double bytes) {
  if (bytes >= 0 && bytes < 4e12) h->RecordNanos(static_cast<uint64_t>(bytes));
}
double PercentileBytes(const LatencyHistogram& h, double q) { return h.PercentileSeconds(q) * 1e9; }

// The operation that reads a blob's bytes (a range of it or all): its response bodies are the
// reads' sizes.
constexpr std::string_view kReadOperation = "GetBlob";

std::string_view ColumnName(std::string_view s) {
  s = Trim(s);
  size_t bracket = s.find(" [");  // "TimeGenerated [UTC]"
  return bracket == std::string_view::npos ? s : s.substr(0, bracket);
}

std::optional<double> NumberOf(std::string_view s) {
  s = Trim(s);
  if (s.empty()) return std::nullopt;
  return ParseDouble(s);
}

std::optional<double> TimeOf(std::string_view s) {
  if (auto t = ParseTimestamp(s)) return t;
  return ParseUsDateTime(s);
}

// Reads 1..max_digits decimal digits at *pos; longer runs are rejected before they can overflow.
bool ReadField(std::string_view s, size_t* pos, size_t max_digits, int* out) {
  size_t start = *pos;
  int v = 0;
  while (*pos < s.size() && s[*pos] >= '0' && s[*pos] <= '9') {
    if (*pos - start >= max_digits) return false;
    v = v * 10 + (s[(*pos)++] - '0');
  }
  *out = v;
  return *pos > start;
}

bool IsThrottled(std::string_view status_code, std::string_view status_text) {
  return status_code == "503" || IContains(status_text, "Throttling");
}
}  // namespace

std::string_view BlobPathOf(std::string_view uri) {
  uri = Trim(uri);
  if (size_t q = uri.find_first_of("?#"); q != std::string_view::npos) uri = uri.substr(0, q);
  if (size_t scheme = uri.find("://"); scheme != std::string_view::npos) {
    uri = uri.substr(scheme + 3);
    size_t slash = uri.find('/');
    if (slash == std::string_view::npos) return {};
    uri = uri.substr(slash + 1);
  }
  while (!uri.empty() && uri.front() == '/') uri.remove_prefix(1);
  size_t slash = uri.find('/');  // container/blob: a blob follows the container's name
  if (slash == std::string_view::npos || slash + 1 >= uri.size()) return {};
  return uri;
}

std::optional<double> ParseUsDateTime(std::string_view s) {
  s = Trim(s);
  // M/D/YYYY, h:mm:ss[.fff] AM|PM
  int part[3] = {0, 0, 0};
  size_t i = 0;
  for (int k = 0; k < 3; ++k) {
    if (!ReadField(s, &i, 4, &part[k])) return std::nullopt;
    if (k < 2) {
      if (i >= s.size() || s[i] != '/') return std::nullopt;
      ++i;
    }
  }
  if (i < s.size() && s[i] == ',') ++i;
  while (i < s.size() && s[i] == ' ') ++i;
  int hms[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    if (!ReadField(s, &i, 2, &hms[k])) return std::nullopt;
    if (k < 2) {
      if (i >= s.size() || s[i] != ':') return std::nullopt;
      ++i;
    }
  }
  double fraction = 0;
  if (i < s.size() && s[i] == '.') {
    size_t used = 0;
    auto f = ParseDoublePrefix(s.substr(i), &used);
    if (f) fraction = *f;
    i += used;
  }
  std::string_view ampm = Trim(s.substr(i));
  int hour = hms[0];
  if (IEquals(ampm, "PM") && hour < 12) hour += 12;
  if (IEquals(ampm, "AM") && hour == 12) hour = 0;
  int month = part[0], day = part[1], year = part[2];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || hms[1] > 59 || hms[2] > 60)
    return std::nullopt;
  long long days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return static_cast<double>(days) * 86400.0 + hour * 3600.0 + hms[1] * 60.0 + hms[2] + fraction;
}

StorageBlobLogsAnalyzer::StorageBlobLogsAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("storage-blob-logs", options) {}

void StorageBlobLogsAnalyzer::BeginFile(const std::string& path) {
  LineAnalyzer::BeginFile(path);
  if (first_file_.empty()) first_file_ = path;
  mode_ = Mode::kUnknown;
  have_header_ = false;
}

void StorageBlobLogsAnalyzer::OnLine(const Line& line) {
  std::string_view text = Trim(line.text);
  if (text.empty()) return;
  if (mode_ == Mode::kUnknown) mode_ = text.front() == '{' ? Mode::kJson : Mode::kCsv;
  if (mode_ == Mode::kJson) {
    OnJsonLine(line);
  } else {
    OnCsvLine(line);
  }
}

void StorageBlobLogsAnalyzer::OnCsvLine(const Line& line) {
  if (!SplitCsvLine(line.text, &scratch_, &fields_)) {
    Malformed(line, "unterminated quote");
    return;
  }
  if (!have_header_) {
    for (size_t i = 0; i < fields_.size(); ++i) {
      std::string_view name = ColumnName(fields_[i]);
      int idx = static_cast<int>(i);
      if (IEquals(name, "TimeGenerated") || IEquals(name, "time"))
        col_time_ = idx;
      else if (IEquals(name, "OperationName"))
        col_op_ = idx;
      else if (IEquals(name, "StatusCode"))
        col_status_ = idx;
      else if (IEquals(name, "StatusText"))
        col_status_text_ = idx;
      else if (IEquals(name, "DurationMs"))
        col_duration_ = idx;
      else if (IEquals(name, "ServerLatencyMs"))
        col_server_ = idx;
      else if (IEquals(name, "Uri"))
        col_uri_ = idx;
      else if (IEquals(name, "ResponseBodySize"))
        col_response_bytes_ = idx;
    }
    if (col_op_ < 0 || col_duration_ < 0) {
      Malformed(line, "header lacks OperationName and DurationMs (not StorageBlobLogs)");
      return;
    }
    have_header_ = true;
    return;
  }
  auto cell = [&](int col) -> std::string_view {
    return col >= 0 && static_cast<size_t>(col) < fields_.size() ? Trim(fields_[col])
                                                                 : std::string_view{};
  };
  struct Record r;
  r.operation = cell(col_op_);
  r.status_code = cell(col_status_);
  r.status_text = cell(col_status_text_);
  r.duration_ms = NumberOf(cell(col_duration_));
  r.server_latency_ms = NumberOf(cell(col_server_));
  r.uri = cell(col_uri_);
  r.response_bytes = NumberOf(cell(col_response_bytes_));
  if (col_time_ >= 0) r.epoch_s = TimeOf(cell(col_time_));
  if (r.operation.empty() || !r.duration_ms) {
    Malformed(line, "row without OperationName or a numeric DurationMs");
    return;
  }
  AddRecord(r);
}

void StorageBlobLogsAnalyzer::OnJsonLine(const Line& line) {
  // Read the checked way (core/json_input): nesting past the limit or a number out of range is
  // a malformed line like any other; a field of another type counts as absent.
  const JsonSource quiet{"", codes::kMalformedLine, nullptr};
  const std::optional<nlohmann::json> parsed = ParseJsonInput(line.text, quiet);
  if (!parsed || !parsed->is_object()) {
    Malformed(line, "not a JSON object");
    return;
  }
  const JsonField j = JsonField::Root(*parsed, quiet);
  auto text = [&](const JsonField& f, std::string* store) -> std::string_view {
    if (f.is_string())
      *store = *f.String();
    else if (f.is_number())
      *store = f.raw()->dump();
    else
      return {};
    return *store;
  };
  auto number = [&](const JsonField& f) -> std::optional<double> {
    if (f.is_number()) return f.Number();
    if (f.is_string()) return ParseDouble(*f.String());
    return std::nullopt;
  };
  struct Record r;
  r.operation = text(j["operationName"], &json_strings_[0]);
  r.status_code = text(j["statusCode"], &json_strings_[1]);
  r.status_text = text(j["statusText"], &json_strings_[2]);
  r.duration_ms = number(j["durationMs"]);
  r.server_latency_ms = number(j["properties"]["serverLatencyMs"]);
  if (!r.server_latency_ms) r.server_latency_ms = number(j["serverLatencyMs"]);
  r.uri = text(j["uri"], &json_strings_[3]);
  r.response_bytes = number(j["properties"]["responseBodySize"]);
  if (!r.response_bytes) r.response_bytes = number(j["responseBodySize"]);
  if (j["time"].is_string()) r.epoch_s = ParseTimestamp(*j["time"].String());
  if (r.operation.empty() || !r.duration_ms) {
    Malformed(line, "record without operationName or a numeric durationMs");
    return;
  }
  AddRecord(r);
}

void StorageBlobLogsAnalyzer::AddRecord(const struct Record& r) {
  ++requests_;
  auto it = ops_.find(r.operation);
  if (it == ops_.end())
    it = ops_.try_emplace(ops_.size() < kMaxOperations ? std::string(r.operation)
                                                       : std::string("(other)"))
             .first;
  for (OperationStats* s : {&it->second, &all_}) {
    RecordMs(&s->duration, *r.duration_ms);
    if (r.server_latency_ms) {
      RecordMs(&s->server_latency, *r.server_latency_ms);
      RecordMs(&s->network, std::max(0.0, *r.duration_ms - *r.server_latency_ms));
    }
    std::string_view code = r.status_code.empty() ? std::string_view("unknown") : r.status_code;
    // A body's size says what was read only for a request that succeeded (an error's body is
    // its message).
    if (r.response_bytes && code.size() == 3 && code.front() == '2')
      RecordBytes(&s->response_bytes, *r.response_bytes);
    auto sc = s->status_codes.find(code);
    if (sc == s->status_codes.end() && s->status_codes.size() < kMaxStatusCodes)
      sc = s->status_codes.emplace(std::string(code), 0).first;
    if (sc != s->status_codes.end()) ++sc->second;
  }
  const bool throttled = IsThrottled(r.status_code, r.status_text);
  if (throttled) {
    ++throttled_;
    if (r.epoch_s) throttle_intervals_.Add(*r.epoch_s, *r.epoch_s + 1);
  }
  if (std::string_view blob = BlobPathOf(r.uri); !blob.empty())
    CountBlob(blob, throttled, r.epoch_s);
}

void StorageBlobLogsAnalyzer::CountBlob(std::string_view blob, bool throttled,
                                        std::optional<double> epoch_s) {
  if (throttled) ++blob_throttled_;
  auto it = blobs_.find(std::string(blob));
  if (it == blobs_.end()) {
    if (blobs_.size() >= kMaxBlobs) {
      // Full: every counter gives one up, those at zero leave (amortised O(1) per record).
      for (auto b = blobs_.begin(); b != blobs_.end();)
        b = --b->second.weight == 0 ? blobs_.erase(b) : std::next(b);
      if (blobs_.size() >= kMaxBlobs) return;
    }
    it = blobs_.emplace(std::string(blob), BlobStats{}).first;
  }
  BlobStats& b = it->second;
  ++b.weight;
  ++b.requests;
  b.throttled += throttled ? 1 : 0;
  if (epoch_s) {
    const auto second = static_cast<int64_t>(*epoch_s);
    if (second != b.second) {
      b.second = second;
      b.in_second = 0;
    }
    b.peak_per_s = std::max(b.peak_per_s, ++b.in_second);
  }
}

void StorageBlobLogsAnalyzer::Finish(Evidence* out) {
  if (requests_ > 0) {
    auto prov = [&](std::string what) {
      Provenance p = At(0);
      p.file = first_file_;
      p.source = fmt::format("{} ({})", first_file_, what);
      return p;
    };
    auto ms = [&](std::string key, double v, std::string what) {
      SetFact(out, NumberFact(std::move(key), v, Unit::kMilliseconds, prov(std::move(what))));
    };
    SetFact(out, NumberFact("metrics.bloblog.requests", static_cast<double>(requests_),
                            Unit::kCount, prov("StorageBlobLogs records")));
    SetFact(out, NumberFact("metrics.bloblog.throttled", static_cast<double>(throttled_),
                            Unit::kCount, prov("503 or *ThrottlingError records")));
    ms("metrics.bloblog.duration_p50_ms", PercentileMs(all_.duration, 0.5), "DurationMs p50");
    ms("metrics.bloblog.duration_p99_ms", PercentileMs(all_.duration, 0.99), "DurationMs p99");
    if (all_.server_latency.count() > 0) {
      ms("metrics.bloblog.server_latency_p50_ms", PercentileMs(all_.server_latency, 0.5),
         "ServerLatencyMs p50");
      ms("metrics.bloblog.server_latency_p99_ms", PercentileMs(all_.server_latency, 0.99),
         "ServerLatencyMs p99");
      ms("metrics.bloblog.network_p50_ms", PercentileMs(all_.network, 0.5),
         "DurationMs - ServerLatencyMs p50");
    }
    const BlobStats* hot = nullptr;
    const std::string* hot_name = nullptr;
    for (const auto& [name, b] : blobs_)
      if (b.throttled > 0 && (!hot || b.throttled > hot->throttled ||
                              (b.throttled == hot->throttled && name < *hot_name))) {
        hot = &b;
        hot_name = &name;
      }
    if (hot) {
      SetFact(out, TextFact("metrics.bloblog.hot_blob", *hot_name,
                            prov("Uri of the most refused blob")));
      SetFact(
          out,
          NumberFact("metrics.bloblog.hot_blob_throttled_share",
                     static_cast<double>(hot->throttled) / static_cast<double>(blob_throttled_),
                     Unit::kFraction, prov("its share of the refused requests that named a blob")));
      SetFact(out, NumberFact("metrics.bloblog.hot_blob_requests_per_s_peak", hot->peak_per_s,
                              Unit::kPerSecond, prov("most of its requests in one second")));
    }
    for (const auto& [code, n] : all_.status_codes)
      SetFact(out, NumberFact("metrics.bloblog.status." + KeySegment(code), static_cast<double>(n),
                              Unit::kCount, prov("StatusCode")));
    for (const auto& [op, s] : ops_) {
      std::string seg = KeySegment(op);
      if (s.response_bytes.count() > 0) {
        const double p50 = PercentileBytes(s.response_bytes, 0.5);
        SetFact(out, NumberFact("metrics.bloblog.response_bytes_p50." + seg, p50, Unit::kBytes,
                                prov(op + " ResponseBodySize p50, successful requests")));
        if (op == kReadOperation)
          SetFact(out, NumberFact("metrics.bloblog.read_bytes_p50", p50, Unit::kBytes,
                                  prov("GetBlob ResponseBodySize p50: the reads' median size")));
      }
      ms("metrics.bloblog.duration_p50_ms." + seg, PercentileMs(s.duration, 0.5),
         op + " DurationMs p50");
      if (s.server_latency.count() > 0)
        ms("metrics.bloblog.server_latency_p50_ms." + seg, PercentileMs(s.server_latency, 0.5),
           op + " ServerLatencyMs p50");
    }
  }
  for (const auto& iv : throttle_intervals_.Result())
    out->timeline.push_back(
        {"storage", "throttled (StorageBlobLogs)", iv.start, iv.end, "logs", first_file_});
  FlushDiagnostics(out);
}

}  // namespace feedcheck::analyzers
