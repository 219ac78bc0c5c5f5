#include "analyzers/rslex_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "analyzers/byte_scan.h"
#include "analyzers/disk_full.h"
#include "analyzers/text_util.h"
#include "analyzers/throttle_kind.h"
#include "core/diagnostic_codes.h"
#include "core/plural.h"
#include "core/utf8_cut.h"

namespace feedcheck::analyzers {

namespace {
// Distinct spans/targets/codes kept; beyond this they are counted under "(other)" so a log with
// generated names cannot grow memory.
constexpr size_t kMaxKeys = 512;
// Throttling responses closer than this merge into one storage-lane interval.
constexpr double kThrottleGapS = 60;

// An event owns at most this many lines before it is closed outright: an unclosed brace cannot
// swallow the rest of a log.
constexpr int kHardEventLines = 4096;
constexpr std::string_view kPollTimeout =
    "Timed out while trying to poll data from the response body";

std::string_view After(std::string_view s, std::string_view marker) {
  size_t p = s.find(marker);
  return p == std::string_view::npos ? std::string_view{} : s.substr(p + marker.size());
}

// After(s, marker) for a marker that opens with a quote: looked for from its second character,
// since a response's headers have a '"' on every line and its name is rare.
std::string_view AfterQuoted(std::string_view s, std::string_view marker) {
  std::string_view name = marker.substr(1);
  size_t p = s.find(name, 1);
  while (p != std::string_view::npos && s[p - 1] != marker[0]) p = s.find(name, p + 1);
  return p == std::string_view::npos ? std::string_view{} : s.substr(p + name.size());
}

// The status number after `key` where `key` starts a word ("code=" but not "status_code=" or
// "error-code"): the first one of `text`, or 0.
int StatusAfter(std::string_view text, std::string_view key) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string_view::npos) {
    bool word_start = at == 0 || text[at - 1] == ' ' || text[at - 1] == '\n';
    size_t v = at + key.size();
    at = v;
    if (!word_start || v + 3 > text.size()) continue;
    std::string_view digits = text.substr(v, 3);
    if (v + 3 < text.size() && text[v + 3] >= '0' && text[v + 3] <= '9') continue;
    if (auto n = ParseInt(digits); n && *n >= 100 && *n <= 599) return static_cast<int>(*n);
  }
  return 0;
}

// Braces opened minus closed outside double-quoted strings (header values may hold braces).
int BraceBalance(std::string_view text) {
  // Most lines an event owns ("x-ms-request-id": "...",) hold no brace at all.
  if (!HasEitherByte(text, '{', '}')) return 0;
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    }
  }
  return depth;
}

}  // namespace

RslexLogAnalyzer::RslexLogAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("rslex", options) {}

void RslexLogAnalyzer::BeginFile(const std::string& path) {
  LineAnalyzer::BeginFile(path);
  file_last_epoch_s_.reset();
  node_totals_ = nullptr;
  if (!node().empty() && (nodes_.size() < kMaxNodes || nodes_.count(node())))
    node_totals_ = &nodes_[node()];
}

bool RslexLogAnalyzer::OwnsLine(std::string_view text) {
  // A timestamp starts a new event, whatever the state of the last one.
  if (text.empty() || (text[0] >= '0' && text[0] <= '9')) return false;
  Event& e = event_;
  if (e.brace_depth > 0) {
    e.brace_depth += BraceBalance(text);
    return true;
  }
  if (e.in_body) {
    if (text.find("</Error>") != std::string_view::npos) e.in_body = false;
    return true;
  }
  if (text.starts_with("Status:")) return true;
  if (text.starts_with("Headers:")) {
    e.brace_depth = std::max(0, BraceBalance(text));
    return true;
  }
  if (text.starts_with("Body:")) {  // "Body: " of an empty body may lose its space
    // Azure's XML error body: its <Message> goes on over RequestId: and Time: lines.
    e.in_body = text.find("<Error>") != std::string_view::npos &&
                text.find("</Error>") == std::string_view::npos;
    return true;
  }
  return text.starts_with("RequestId:") || text.starts_with("Time:");
}

void RslexLogAnalyzer::CloseEvent() {
  Event& e = event_;
  if (!e.open) return;
  e.open = false;
  if (!e.keep) return;
  OnResponse(e.text, e.line);
}

void RslexLogAnalyzer::EndFile() { CloseEvent(); }

void RslexLogAnalyzer::OnLine(const Line& line) {
  if (line.text.empty()) return;
  if (event_.open && OwnsLine(line.text)) {
    Event& e = event_;
    ++shapes_[static_cast<size_t>(RslexShape::kContinuation)];
    if (++e.lines > kHardEventLines) {
      e.brace_depth = 0;
      e.in_body = false;
      CloseEvent();
      return;
    }
    if (e.cut) return;
    if (e.lines > kMaxEventLines || (e.keep && e.text.size() + line.text.size() > kMaxEventBytes)) {
      e.cut = true;
      diagnostics().Add({codes::kEventCut,
                         DiagnosticSeverity::kWarning,
                         fmt::format("the event at line {} goes on past {} lines or {} bytes; "
                                     "read up to line {}, the rest of it skipped",
                                     e.line, kMaxEventLines, kMaxEventBytes, line.number - 1),
                         {file(), static_cast<int>(e.line), 0},
                         "rslex",
                         ""});
      return;
    }
    if (e.keep) {
      e.text.push_back('\n');
      e.text.append(line.text);
    }
    return;
  }
  CloseEvent();
  TracingLine& t = scratch_;
  if (!ParseTracingHead(line.text, &t, &scope_cache_)) {
    Malformed(line, "not a tracing line (expected 'TIMESTAMP LEVEL [spans:] target: message')");
    return;
  }
  ++parsed_;
  if (node_totals_) ++node_totals_->parsed;
  event_.open = true;
  event_.keep = event_.cut = event_.in_body = false;
  event_.brace_depth = 0;
  event_.lines = 0;
  event_.line = line.number;
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
  ScopeFacts* facts = FactsOf(t);
  // The storage accounts the job read: the datastore resolver names them (and every refused
  // request's URI, below). Looked up on the resolver's lines only: the span closes are most
  // of a log and name none.
  if (facts ? facts->resolver : t.target.find("resolver") != std::string_view::npos)
    if (auto account = FindTracingField(t.fields_text, "account_name")) NoteAccount(*account);
  auto note = [&](Counted& c) {
    if (c.count++ == 0) c = {1, file(), line.number};
  };
  RslexShape shape = RslexShape::kSpanClose;
  if (msg != "close") {
    // The fields are looked for only where the shape depends on them.
    bool response_fields = msg.find("non-successful response") != std::string_view::npos &&
                           (FindTracingField(t.fields_text, "response_status_code").has_value() ||
                            FindTracingField(t.fields_text, "request_uri").has_value());
    shape = ClassifyRslexMessage(msg, response_fields);
  }
  // A cut last line's shape cannot be told (A207 notes it): not counted as unknown.
  if (shape != RslexShape::kUnknown || !line.unterminated) ++shapes_[static_cast<size_t>(shape)];
  switch (shape) {
    case RslexShape::kSpanClose:
      OnClose(t, facts, line.number);
      break;
    case RslexShape::kResponseAsync:
    case RslexShape::kResponseSync:
    case RslexShape::kResponseOneLine:
    case RslexShape::kResponseFields:
      // Read when the event ends: its status, headers and body may follow on lines of their own.
      event_.keep = true;
      event_.text.assign(line.text);
      event_.has_time = t.has_time;
      event_.epoch_s = t.epoch_s;
      event_.request_uri = SpanIn(line.text, FindTracingField(t.fields_text, "request_uri"));
      event_.error_code = SpanIn(line.text, FindTracingField(t.fields_text, "error_code"));
      break;
    case RslexShape::kSetting:
      OnSetting(t, line);
      break;
    case RslexShape::kRetryDelay:
    case RslexShape::kRetryError:
      note(retries_);
      break;
    case RslexShape::kRetryTimeout:
      note(retries_);
      note(timeouts_);
      break;
    case RslexShape::kGiveUpAttempts:
    case RslexShape::kGiveUpBackoff:
      note(give_ups_);
      // The error a give-up carries may be the body read's timeout.
      if (line.text.find(kPollTimeout) != std::string_view::npos) note(timeouts_);
      break;
    case RslexShape::kBodyPollTimeout:
      note(timeouts_);
      break;
    case RslexShape::kUnknown:
      if (first_unknown_.empty() && !line.unterminated)
        first_unknown_ = fmt::format("{}:{}", file(), line.number);
      if (line.text.find(kPollTimeout) != std::string_view::npos) note(timeouts_);
      break;
    default:
      break;
  }
  if ((t.level == TraceLevel::kError || t.level == TraceLevel::kWarn) && SaysDiskFull(line.text))
    note(disk_full_);
  if (t.level == TraceLevel::kError) {
    std::string_view failed = After(msg, "Execution has failed with: ");
    if (!failed.empty() && stream_error_.empty()) {
      size_t end = failed.find_first_of(", ");
      stream_error_ = std::string(failed.substr(0, end));
      stream_error_at_ = {1, file(), line.number};
    }
  }
  // The operation rslex ran tells the mode: copy_uri/download spans vs fuse/mount spans. A
  // scope already looked at has given its hint (a second time would only count it again).
  if (!t.spans.empty() && (download_hint_.count == 0 || mount_hint_.count == 0) &&
      !(facts && facts->mode_noted)) {
    NoteMode(t, line.number);
    if (facts) facts->mode_noted = true;
  }
  // A span close has read its own.
  if (shape != RslexShape::kSpanClose) {
    size_t from = 0;
    while (auto value = FindTracingField(t.fields_text, "parallelization_degree", &from))
      NoteParallelization(*value, line.number);
  }
}

void RslexLogAnalyzer::NoteParallelization(std::string_view text, int64_t line) {
  // The same text as the last one parsed cannot change the maximum.
  if (have_parallelization_ && text == last_parallelization_text_) return;
  auto v = ParseDouble(text);
  if (text.size() <= 32) last_parallelization_text_.assign(text);
  if (!v) return;
  if (!have_parallelization_ || *v > parallelization_max_) {
    parallelization_max_ = *v;
    parallelization_at_ = {1, file(), line};
  }
  have_parallelization_ = true;
}

RslexLogAnalyzer::Span RslexLogAnalyzer::SpanIn(std::string_view line,
                                                std::optional<std::string_view> value) {
  Span span;
  if (value) span = {true, static_cast<size_t>(value->data() - line.data()), value->size()};
  return span;
}

RslexLogAnalyzer::ScopeFacts* RslexLogAnalyzer::FactsOf(const TracingLine& t) {
  if (t.scope_id == 0) return nullptr;
  ScopeFacts& f = scope_facts_[TracingLineCache::SlotOf(t.scope_id)];
  if (f.id != t.scope_id) {
    f = ScopeFacts{};
    f.id = t.scope_id;
    f.resolver = t.target.find("resolver") != std::string_view::npos;
  }
  return &f;
}

void RslexLogAnalyzer::NoteMode(const TracingLine& t, int64_t line) {
  if (t.spans.find("copy_uri") != std::string_view::npos ||
      t.spans.find("download") != std::string_view::npos) {
    if (download_hint_.count++ == 0) download_hint_ = {1, file(), line};
  } else if (t.spans.find("mount") != std::string_view::npos ||
             t.spans.find("fuse") != std::string_view::npos) {
    if (mount_hint_.count++ == 0) mount_hint_ = {1, file(), line};
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

void RslexLogAnalyzer::OnClose(const TracingLine& t, ScopeFacts* facts, int64_t line) {
  // The first time.busy and time.idle, and every parallelization_degree. tracing writes
  // time.busy and time.idle as the first two fields: read in that order they cost a search for
  // each one's end, and the fields after them are read on (a few) or searched (every span's
  // fields repeated); in any other order each is looked up.
  std::optional<std::string_view> busy, idle;
  TracingFieldReader fields(t);
  TraceField f;
  if (fields.Next(&f) && f.key == "time.busy") {
    busy = f.value;
    if (fields.Next(&f) && f.key == "time.idle") idle = f.value;
  }
  size_t from = 0;  // where parallelization_degree may first be
  if (busy && idle) {
    from = fields.position();
    if (from != std::string_view::npos && t.fields_text.size() - from <= 96) {
      while (fields.Next(&f))
        if (f.key == "parallelization_degree") NoteParallelization(f.value, line);
      from = std::string_view::npos;
    }
  } else {
    if (!busy) busy = FindTracingField(t.fields_text, "time.busy");
    if (!idle) idle = FindTracingField(t.fields_text, "time.idle");
  }
  if (from != std::string_view::npos)
    while (auto value = FindTracingField(t.fields_text, "parallelization_degree", &from))
      NoteParallelization(*value, line);
  span_closes_.Add(t.epoch_s, t.epoch_s + 1);
  read_gaps_.Add(t.epoch_s);
  if (node_totals_) {
    node_totals_->span_closes.Add(t.epoch_s, t.epoch_s + 1);
    node_totals_->read_gaps.Add(t.epoch_s);
  }
  double busy_ns = 0, idle_ns = 0;
  if (busy && !ParseTracingDurationNs(*busy, &busy_ns)) busy_ns = 0;
  if (idle && !ParseTracingDurationNs(*idle, &idle_ns)) idle_ns = 0;
  // `cached`: the entry this scope's key found before (std::map entries stay put), or where to
  // keep it; an entry counted under "(other)" is never kept, so each overflow is counted.
  // The key is only worked out when the scope has no entry yet.
  auto add = [&](std::map<std::string, SpanTotals, std::less<>>& map, auto key_of,
                 SpanTotals** cached) {
    SpanTotals* s = cached ? *cached : nullptr;
    if (s == nullptr) {
      std::string_view key = key_of();
      auto it = map.find(key);
      bool own = true;
      if (it == map.end()) {
        if (map.size() >= kMaxKeys) {
          ++span_overflow_;
          key = "(other)";
          own = false;
        }
        it = map.try_emplace(std::string(key)).first;
      }
      s = &it->second;
      if (cached && own) *cached = s;
    }
    ++s->closes;
    s->busy_ns += busy_ns;
    s->idle_ns += idle_ns;
    s->max_busy_ns = std::max(s->max_busy_ns, busy_ns);
  };
  SpanTotals* leaf = nullptr;
  add(
      spans_, [&] { return t.spans.empty() ? std::string_view("(no span)") : t.LeafSpan(); },
      facts ? &facts->span : nullptr);
  if (node_totals_ && busy_ns > 0) {
    // The node's own share of the span, for its busiest spans (its reads).
    leaf = facts && facts->span ? facts->span : nullptr;
    if (!leaf) {
      auto it = spans_.find(t.spans.empty() ? std::string_view("(no span)") : t.LeafSpan());
      leaf = it == spans_.end() ? &spans_.find(std::string_view("(other)"))->second : &it->second;
    }
    auto& mine = node_totals_->span_busy_ns;
    auto it =
        std::find_if(mine.begin(), mine.end(), [&](const auto& e) { return e.first == leaf; });
    if (it != mine.end())
      it->second += busy_ns;
    else if (mine.size() < kMaxNodeSpans)
      mine.emplace_back(leaf, busy_ns);
  }
  add(
      targets_, [&] { return t.target.empty() ? std::string_view("(no target)") : t.target; },
      facts ? &facts->target : nullptr);
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

void RslexLogAnalyzer::OnResponse(std::string_view text, int64_t line_no) {
  ++non_success_;
  if (node_totals_) ++node_totals_->non_success;
  const Event& e = event_;
  auto field = [&](const Span& f) {
    return f.found ? std::optional<std::string_view>(text.substr(f.at, f.len)) : std::nullopt;
  };
  Line line;
  line.number = line_no;
  if (auto uri = field(e.request_uri)) NoteAccount(*uri);
  // The status: "Status: 503 Service Unavailable" (the HTTP library's reason, never Azure's
  // message), the 2026 field response_status_code=, or the event's own code= field after the
  // headers ("} code=503"); some builds log status=.
  int status = StatusAfter(text, "Status: ");
  if (status == 0) status = StatusAfter(text, "response_status_code=");
  if (status == 0) status = StatusAfter(text, "code=");
  if (status == 0) status = StatusAfter(text, "status=");
  auto& st = statuses_[status];
  if (st.count++ == 0) {
    st.file = file();
    st.line = line_no;
  }
  // x-ms-error-code from the Debug-printed headers, an error_code= field, or the body's <Code>.
  std::string_view code = AfterQuoted(text, "\"x-ms-error-code\": \"");
  if (!code.empty()) {
    code = code.substr(0, code.find('"'));
  } else if (auto f = field(e.error_code)) {
    code = *f;
  } else if (code = After(text, "<Code>"); !code.empty()) {
    code = code.substr(0, code.find('<'));
  }
  if (!code.empty() && code.size() < 128) Count(&error_codes_, code, line);
  // Azure's own message is only in a body (the synchronous variant); its first line is enough.
  std::string_view azure_message = After(text, "<Message>");
  azure_message = azure_message.substr(0, azure_message.find_first_of("<\n"));
  // Refusals that end a job (a credential refused, a path or an output that is wrong) over
  // time, for the "access" lane: when storage started refusing is what a fix estimate needs.
  if (e.has_time &&
      (status == 401 || status == 403 || status == 404 || status == 409 || status == 412)) {
    std::string label = fmt::format("{} refused", status);
    auto it = access_intervals_.find(label);
    if (it == access_intervals_.end() && access_intervals_.size() < 8)
      it = access_intervals_.emplace(label, IntervalMerger(kThrottleGapS, 256)).first;
    if (it != access_intervals_.end()) it->second.Add(e.epoch_s, e.epoch_s + 1);
  }
  ThrottleKind kind = ClassifyStorageError(status, azure_message, code);
  if (kind == ThrottleKind::kNotThrottled) return;
  Counted& thr = throttled_[static_cast<int>(kind)];
  if (thr.count++ == 0) {
    thr.file = file();
    thr.line = line_no;
  }
  std::string_view label = ThrottleIntervalLabel(kind, azure_message);
  auto add_interval = [&](std::map<std::string, IntervalMerger, std::less<>>* intervals) {
    auto it = intervals->find(label);
    if (it == intervals->end())
      it = intervals->emplace(std::string(label), IntervalMerger(kThrottleGapS, 256)).first;
    it->second.Add(e.epoch_s, e.epoch_s + 1);
  };
  if (e.has_time) add_interval(&throttle_intervals_);
  if (node_totals_) {
    Counted& mine = node_totals_->throttled[static_cast<int>(kind)];
    if (mine.count++ == 0) {
      mine.file = file();
      mine.line = line_no;
    }
    if (e.has_time) add_interval(&node_totals_->throttle_intervals);
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
  if (value.empty() && !t.fields_text.empty()) {
    setting_fields_.clear();
    TokenizeFields(t.fields_text, &setting_fields_);
    if (!setting_fields_.empty()) value = setting_fields_.front().value;
  }
  if (value.empty()) value = "set";
  if (settings_.size() >= kMaxKeys && settings_.find(var) == settings_.end()) return;
  // Cut at a character boundary: a value quoted in every report must stay valid UTF-8.
  settings_[std::string(var)] = {std::string(Utf8Prefix(value, 256)), file(), line.number};
}

void RslexLogAnalyzer::Finish(Evidence* out) {
  CloseEvent();
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
    p.source =
        fmt::format("{} ({})", p.file, feedcheck::Counted(static_cast<double>(parsed_), "line"));
    SetFact(out, NumberFact("runtime.non_success_responses", static_cast<double>(non_success_),
                            Unit::kCount, p));
    SetFact(out, NumberFact("runtime.retries", static_cast<double>(retries_.count), Unit::kCount,
                            retries_.count ? prov(retries_) : p));
    SetFact(out, NumberFact("runtime.retry_give_ups", static_cast<double>(give_ups_.count),
                            Unit::kCount, give_ups_.count ? prov(give_ups_) : p));
    SetFact(out, NumberFact("runtime.timeouts", static_cast<double>(timeouts_.count), Unit::kCount,
                            timeouts_.count ? prov(timeouts_) : p));
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
  if (disk_full_.count > 0)
    SetFact(out, NumberFact("runtime.disk_full_lines", static_cast<double>(disk_full_.count),
                            Unit::kCount, prov(disk_full_)));
  if (!accounts_.empty()) {
    Provenance p = AtFile(stats().files.empty() ? "" : stats().files.front(), 0);
    p.source = fmt::format("{} (account_name fields and request URIs)", p.file);
    SetFact(out, TextFact("runtime.accounts", fmt::format("{}", fmt::join(accounts_, ", ")), p));
  }
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
    p.source = fmt::format("rslex span '{}' ({})", name,
                           feedcheck::Counted(static_cast<double>(s.closes), "close"));
    SetFact(out, NumberFact("runtime.span_busy_s." + KeySegment(name), s.busy_ns / 1e9,
                            Unit::kSeconds, p));
  }
  for (const auto& [label, merger] : throttle_intervals_)
    for (const auto& iv : merger.Result())
      out->timeline.push_back({"storage", label, iv.start, iv.end, "rslex", "rslex.log"});
  for (const auto& [label, merger] : access_intervals_)
    for (const auto& iv : merger.Result())
      out->timeline.push_back({"access", label, iv.start, iv.end, "rslex", "rslex.log"});
  for (const auto& iv : span_closes_.Result())
    out->timeline.push_back({"reads", "span closes", iv.start, iv.end, "rslex", "rslex.log"});
  AddReadSilences(read_gaps_, "", out);
  if (out_of_order_ > 0)
    diagnostics().Add({codes::kOutOfOrder,
                       DiagnosticSeverity::kNote,
                       fmt::format("{} lines went back in time within their file", out_of_order_),
                       {stats().files.empty() ? "" : stats().files.back(), 0, 0},
                       "rslex",
                       ""});
  if (span_overflow_ > 0)
    diagnostics().Add(
        {codes::kTooManySpans,
         DiagnosticSeverity::kNote,
         fmt::format("more than {} distinct spans; the rest counted as (other)", kMaxKeys),
         {},
         "rslex",
         ""});
  FlushDiagnostics(out);
}

}  // namespace feedcheck::analyzers
