#include "analyzers/rslex_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzers/analyzer_messages.h"
#include "analyzers/text_util.h"
#include "analyzers/throttle_kind.h"

namespace feedcheck::analyzers {

namespace {
// Distinct spans/targets/codes kept; beyond this they are counted under "(other)" so a log with
// generated names cannot grow memory.
constexpr size_t kMaxKeys = 512;
// Throttling responses closer than this merge into one storage-lane interval.
constexpr double kThrottleGapS = 60;

std::string_view After(std::string_view s, std::string_view marker) {
  size_t p = s.find(marker);
  return p == std::string_view::npos ? std::string_view{} : s.substr(p + marker.size());
}

}  // namespace

RslexLogAnalyzer::RslexLogAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("rslex", options) {}

void RslexLogAnalyzer::BeginFile(const std::string& path) {
  LineAnalyzer::BeginFile(path);
  file_last_epoch_s_.reset();
}

void RslexLogAnalyzer::OnLine(const Line& line) {
  if (line.text.empty()) return;
  TracingLine& t = scratch_;
  if (!ParseTracingLine(line.text, &t)) {
    Malformed(line, "not a tracing line (expected 'TIMESTAMP LEVEL [spans:] target: message')");
    return;
  }
  ++parsed_;
  ++by_level_[static_cast<int>(t.level)];
  if (t.has_time) {
    if (!have_time_) {
      first_epoch_s_ = last_epoch_s_ = t.epoch_s;
      have_time_ = true;
    }
    if (file_last_epoch_s_ && t.epoch_s + 1 < *file_last_epoch_s_) ++out_of_order_;
    file_last_epoch_s_ = std::max(file_last_epoch_s_.value_or(t.epoch_s), t.epoch_s);
    first_epoch_s_ = std::min(first_epoch_s_, t.epoch_s);
    last_epoch_s_ = std::max(last_epoch_s_, t.epoch_s);
  }
  std::string_view msg = t.message;
  // The storage accounts the job read: the datastore resolver names them (and every refused
  // request's URI, below). Looked up on the resolver's lines only: the span closes are most
  // of a log and name none.
  if (t.target.find("resolver") != std::string_view::npos)
    if (auto account = t.Field("account_name")) NoteAccount(*account);
  if (msg == "close") {
    OnClose(t);
  } else if (StartsWith(msg, "non-successful response")) {
    OnResponse(t, line);
  } else if (msg.find(" set in environment") != std::string_view::npos) {
    OnSetting(t, line);
  } else if (IContains(msg, "retry")) {  // "retrying" contains it
    if (retries_.count++ == 0) {
      retries_.file = file();
      retries_.line = line.number;
    }
  }
  if (t.level == TraceLevel::kError) {
    std::string_view failed = After(msg, "Execution has failed with: ");
    if (!failed.empty() && stream_error_.empty()) {
      size_t end = failed.find_first_of(", ");
      stream_error_ = std::string(failed.substr(0, end));
      stream_error_at_ = {1, file(), line.number};
    }
  }
  // The operation rslex ran tells the mode: copy_uri/download spans vs fuse/mount spans.
  if (!t.spans.empty() && (download_hint_.count == 0 || mount_hint_.count == 0)) {
    if (t.spans.find("copy_uri") != std::string_view::npos ||
        t.spans.find("download") != std::string_view::npos) {
      if (download_hint_.count++ == 0) download_hint_ = {1, file(), line.number};
    } else if (t.spans.find("mount") != std::string_view::npos ||
               t.spans.find("fuse") != std::string_view::npos) {
      if (mount_hint_.count++ == 0) mount_hint_ = {1, file(), line.number};
    }
  }
  for (const auto& f : t.fields) {
    if (f.key != "parallelization_degree") continue;
    // The same text as the last one parsed cannot change the maximum.
    if (have_parallelization_ && f.value == last_parallelization_text_) continue;
    auto v = ParseDouble(f.value);
    if (f.value.size() <= 32) last_parallelization_text_.assign(f.value);
    if (!v) continue;
    if (!have_parallelization_ || *v > parallelization_max_) {
      parallelization_max_ = *v;
      parallelization_at_ = {1, file(), line.number};
    }
    have_parallelization_ = true;
  }
}

void RslexLogAnalyzer::NoteAccount(std::string_view text) {
  // account_name=Some("stimagenet01"), or https://stimagenet01.blob.core.windows.net/...
  if (StartsWith(text, "Some(\"")) {
    text.remove_prefix(6);
    text = text.substr(0, text.find('"'));
  } else if (size_t scheme = text.find("://"); scheme != std::string_view::npos) {
    text.remove_prefix(scheme + 3);
    size_t dot = text.find('.');
    if (dot == std::string_view::npos) return;
    std::string_view host = text.substr(dot);
    if (!StartsWith(host, ".blob.") && !StartsWith(host, ".dfs.")) return;
    text = text.substr(0, dot);
  } else {
    return;
  }
  if (text.empty() || text.size() > 24 || accounts_.size() >= 16) return;
  for (char ch : text)
    if (!std::isalnum(static_cast<unsigned char>(ch))) return;
  accounts_.insert(ToLower(text));
}

void RslexLogAnalyzer::OnClose(const TracingLine& t) {
  auto busy = t.Field("time.busy");
  auto idle = t.Field("time.idle");
  double busy_ns = busy ? ParseTracingDurationNs(*busy).value_or(0) : 0;
  double idle_ns = idle ? ParseTracingDurationNs(*idle).value_or(0) : 0;
  auto add = [&](std::map<std::string, SpanTotals, std::less<>>& map, std::string_view key) {
    auto it = map.find(key);
    if (it == map.end()) {
      if (map.size() >= kMaxKeys) {
        ++span_overflow_;
        key = "(other)";
      }
      it = map.try_emplace(std::string(key)).first;
    }
    SpanTotals& s = it->second;
    ++s.closes;
    s.busy_ns += busy_ns;
    s.idle_ns += idle_ns;
    s.max_busy_ns = std::max(s.max_busy_ns, busy_ns);
  };
  add(spans_, t.spans.empty() ? std::string_view("(no span)") : t.LeafSpan());
  add(targets_, t.target.empty() ? std::string_view("(no target)") : t.target);
}

void RslexLogAnalyzer::Count(std::map<std::string, Counted, std::less<>>* map, std::string_view key,
                             const Line& line) {
  auto it = map->find(key);
  if (it == map->end()) {
    if (map->size() >= kMaxKeys) key = "(other)";
    it = map->try_emplace(std::string(key)).first;
  }
  if (it->second.count++ == 0) {
    it->second.file = file();
    it->second.line = line.number;
  }
}

void RslexLogAnalyzer::OnResponse(const TracingLine& t, const Line& line) {
  ++non_success_;
  if (auto uri = t.Field("request_uri")) NoteAccount(*uri);
  std::string_view msg = t.message;
  // "Status: 503 Service Unavailable" in the message; some builds log a status= field.
  int status = 0;
  std::string_view s = After(msg, "Status: ");
  if (s.empty()) s = t.Field("status").value_or(std::string_view{});
  if (s.size() >= 3) {
    if (auto v = ParseInt(s.substr(0, 3))) status = static_cast<int>(*v);
  }
  if (status < 100 || status > 599) status = 0;
  auto& st = statuses_[status];
  if (st.count++ == 0) {
    st.file = file();
    st.line = line.number;
  }
  // x-ms-error-code from the Debug-printed headers, or an error_code= field.
  std::string_view code = After(msg, "\"x-ms-error-code\": \"");
  if (!code.empty()) {
    code = code.substr(0, code.find('"'));
  } else if (auto f = t.Field("error_code")) {
    code = *f;
  }
  if (!code.empty() && code.size() < 128) Count(&error_codes_, code, line);
  // Refusals that end a job (a credential refused, a path or an output that is wrong) over
  // time, for the "access" lane: when storage started refusing is what a fix estimate needs.
  if (t.has_time &&
      (status == 401 || status == 403 || status == 404 || status == 409 || status == 412)) {
    std::string label = fmt::format("{} refused", status);
    auto it = access_intervals_.find(label);
    if (it == access_intervals_.end() && access_intervals_.size() < 8)
      it = access_intervals_.emplace(label, IntervalMerger(kThrottleGapS, 256)).first;
    if (it != access_intervals_.end()) it->second.Add(t.epoch_s, t.epoch_s + 1);
  }
  ThrottleKind kind = ClassifyStorageError(status, msg, code);
  if (kind == ThrottleKind::kNotThrottled) return;
  Counted& thr = throttled_[static_cast<int>(kind)];
  if (thr.count++ == 0) {
    thr.file = file();
    thr.line = line.number;
  }
  std::string_view label = ThrottleKindLabel(kind);
  if (t.has_time) {
    auto it = throttle_intervals_.find(label);
    if (it == throttle_intervals_.end())
      it =
          throttle_intervals_.emplace(std::string(label), IntervalMerger(kThrottleGapS, 256)).first;
    it->second.Add(t.epoch_s, t.epoch_s + 1);
  }
}

void RslexLogAnalyzer::OnSetting(const TracingLine& t, const Line& line) {
  std::string_view msg = t.message;
  size_t end = msg.find(' ');
  std::string_view var = msg.substr(0, end);
  if (var.empty() || var.size() > 128) return;
  for (char c : var)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return;
  // The value: after the message's last ": " ("using for http client: 10"), else the first field.
  std::string_view value;
  size_t colon = msg.rfind(": ");
  if (colon != std::string_view::npos && colon > end) value = Trim(msg.substr(colon + 2));
  if (value.empty() && !t.fields.empty()) value = t.fields.front().value;
  if (value.empty()) value = "set";
  if (settings_.size() >= kMaxKeys && settings_.find(var) == settings_.end()) return;
  settings_[std::string(var)] = {std::string(value.substr(0, 256)), file(), line.number};
}

void RslexLogAnalyzer::Finish(Evidence* out) {
  auto prov = [&](const Counted& c) { return AtFile(c.file, c.line); };
  if (have_parallelization_)
    SetFact(out, NumberFact("runtime.parallelization_degree", parallelization_max_, Unit::kCount,
                            prov(parallelization_at_)));
  for (const auto& [status, c] : statuses_) {
    std::string key = status ? fmt::format("runtime.http_errors.{}", status)
                             : std::string("runtime.http_errors.unknown");
    SetFact(out, NumberFact(key, static_cast<double>(c.count), Unit::kCount, prov(c)));
  }
  for (const auto& [code, c] : error_codes_)
    SetFact(out, NumberFact("runtime.error_codes." + KeySegment(code), static_cast<double>(c.count),
                            Unit::kCount, prov(c)));
  if (non_success_ > 0 || parsed_ > 0) {
    Provenance p = AtFile(stats().files.empty() ? "" : stats().files.front(), 0);
    p.source = fmt::format("{} ({} lines)", p.file, parsed_);
    SetFact(out, NumberFact("runtime.non_success_responses", static_cast<double>(non_success_),
                            Unit::kCount, p));
    SetFact(out, NumberFact("runtime.retries", static_cast<double>(retries_.count), Unit::kCount,
                            retries_.count ? prov(retries_) : p));
    SetFact(out, NumberFact("runtime.log_errors",
                            static_cast<double>(by_level_[static_cast<int>(TraceLevel::kError)]),
                            Unit::kCount, p));
  }
  // Each node's log counts the requests of that node: a per-node count, never to be added to
  // the account-wide Transactions metric (which counts every client of the account).
  for (const auto& [kind, c] : throttled_)
    SetFact(out, NumberFact(fmt::format("runtime.throttled.{}",
                                        ThrottleKindKey(static_cast<ThrottleKind>(kind))),
                            static_cast<double>(c.count), Unit::kCount, prov(c)));
  for (const auto& [var, s] : settings_)
    SetFact(out, TextFact("runtime.setting." + var, s.value, AtFile(s.file, s.line)));
  if (!stream_error_.empty())
    SetFact(out, TextFact("runtime.stream_error", stream_error_, prov(stream_error_at_)));
  if (download_hint_.count || mount_hint_.count) {
    bool download = download_hint_.count > 0;
    SetFact(out, TextFact("runtime.mode",
                          download && mount_hint_.count ? "mixed"
                          : download                    ? "download"
                                                        : "mount",
                          prov(download ? download_hint_ : mount_hint_)));
  }
  // The busiest spans as facts (the full table is in the summary).
  std::vector<std::pair<std::string, SpanTotals>> ranked(spans_.begin(), spans_.end());
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.second.busy_ns > b.second.busy_ns; });
  if (ranked.size() > 8) ranked.resize(8);
  for (const auto& [name, s] : ranked) {
    Provenance p = AtFile(stats().files.empty() ? "" : stats().files.front(), 0);
    p.source = fmt::format("rslex span '{}' ({} closes)", name, s.closes);
    SetFact(out, NumberFact("runtime.span_busy_s." + KeySegment(name), s.busy_ns / 1e9,
                            Unit::kSeconds, p));
  }
  for (const auto& [label, merger] : throttle_intervals_)
    for (const auto& iv : merger.Result())
      out->timeline.push_back({"storage", label, iv.start, iv.end, "rslex", "rslex.log"});
  for (const auto& [label, merger] : access_intervals_)
    for (const auto& iv : merger.Result())
      out->timeline.push_back({"access", label, iv.start, iv.end, "rslex", "rslex.log"});
  if (out_of_order_ > 0)
    diagnostics().Add({kCodeOutOfOrder,
                       DiagnosticSeverity::kNote,
                       fmt::format("{} lines went back in time within their file", out_of_order_),
                       {stats().files.empty() ? "" : stats().files.back(), 0, 0},
                       "rslex",
                       ""});
  if (span_overflow_ > 0)
    diagnostics().Add(
        {kCodeTooManySpans,
         DiagnosticSeverity::kNote,
         fmt::format("more than {} distinct spans; the rest counted as (other)", kMaxKeys),
         {},
         "rslex",
         ""});
  FlushDiagnostics(out);
}

}  // namespace feedcheck::analyzers
