#include "analyzers/torch_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "analyzers/gzip_stream.h"
#include "analyzers/json_unit.h"
#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"

namespace feedcheck::analyzers {

namespace {

using json_unit::Cursor;
using json_unit::FindQuoteOrBackslash;
using json_unit::IsWs;

constexpr size_t kChunkBytes = Inflater::kChunkBytes;
// |ts| and |dur| past this (about 3,000 years in microseconds) are no clock's.
constexpr double kMaxMicroseconds = 1e17;

// A diagnostic of the trace at `path` (no line: the message names the byte).
void AddTo(DiagnosticList* list, const char* code, DiagnosticSeverity severity,
           const std::string& path, std::string message) {
  list->Add({code, severity, std::move(message), {path, 0, 0}, "trace", ""});
}

bool IsGpuCategory(std::string_view cat) {
  return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "Kernel" ||
         cat == "Memcpy" || cat == "Memset";
}

}  // namespace

TorchTraceScanner::TorchTraceScanner(std::string path, TraceLimits limits) : limits_(limits) {
  trace_.path = std::move(path);
}

void TorchTraceScanner::Stop(std::string message, uint64_t at_byte) {
  if (trace_.stopped) return;
  trace_.stopped = true;
  AddTo(&trace_.diagnostics, codes::kTraceRefused, DiagnosticSeverity::kError, trace_.path,
        fmt::format("profiler trace refused at byte {}: {}; {} events read before it", at_byte,
                    message, trace_.events));
}

bool TorchTraceScanner::Feed(std::string_view bytes) {
  if (trace_.stopped) return false;
  trace_.bytes += bytes.size();
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    consumed_ += pos_;
    pos_ = 0;
  }
  buf_.append(bytes);
  if (buf_.size() < want_) return true;  // the unit pending needs more bytes first
  Run();
  return !trace_.stopped;
}

void TorchTraceScanner::Run() {
  want_ = 0;
  while (!trace_.stopped) {
    Unit u = StepState();
    if (u != Unit::kDone) break;
  }
}

TorchTraceScanner::Unit TorchTraceScanner::StepState() {
  const size_t n = buf_.size();
  while (pos_ < n && IsWs(buf_[pos_])) ++pos_;
  if (state_ == State::kStart && n - pos_ >= 3 && buf_.compare(pos_, 3, "\xEF\xBB\xBF") == 0)
    pos_ += 3;
  if (pos_ >= n) return Unit::kMore;
  const char c = buf_[pos_];
  auto refuse = [&](std::string why) {
    Stop(std::move(why), ByteAt(pos_));
    return Unit::kFail;
  };
  switch (state_) {
    case State::kStart:
      if (c == '[') {
        trace_.legacy = true;
        state_ = State::kArrayFirst;
      } else if (c == '{') {
        state_ = State::kKey;
      } else {
        return refuse("not a JSON object or array");
      }
      ++pos_;
      return Unit::kDone;
    case State::kKey: {
      if (c == '}') {
        ++pos_;
        state_ = State::kDone;
        return Unit::kDone;
      }
      if (c != '"') return refuse("expected a key");
      Cursor cur{buf_.data() + pos_, buf_.data() + n, 1, limits_.max_depth};
      std::string_view key;
      std::string scratch;
      if (!cur.String(&key, &scratch) || !cur.Expect(':')) {
        if (cur.status == Cursor::kMore) {
          const size_t pending = n - pos_;
          if (pending > limits_.max_event_bytes) return refuse("a key too long");
          want_ = std::max(pending * 2, pending + 4096);
          return Unit::kMore;
        }
        Stop(cur.why, ByteAt(static_cast<size_t>(cur.at - buf_.data())));
        return Unit::kFail;
      }
      key_.assign(key);
      pos_ = static_cast<size_t>(cur.p - buf_.data());
      state_ = State::kValue;
      return Unit::kDone;
    }
    case State::kValue:
      if (key_ == "traceEvents" && c == '[') {
        trace_.kineto = true;
        in_events_object_ = true;
        ++pos_;
        state_ = State::kArrayFirst;
        return Unit::kDone;
      }
      if (key_ == "distributedInfo" || key_ == "baseTimeNanoseconds") {
        size_t p = pos_;
        Unit u = ParseTopValue(&p);
        if (u == Unit::kDone) {
          pos_ = p;
          state_ = State::kAfterValue;
        }
        return u;
      }
      skip_depth_ = 0;
      skip_in_string_ = skip_escape_ = false;
      skip_scalar_ = c != '{' && c != '[' && c != '"';
      state_ = State::kSkip;
      return Unit::kDone;
    case State::kSkip: {
      Unit u = SkipIncrementally();
      if (u == Unit::kDone) state_ = State::kAfterValue;
      return u;
    }
    case State::kAfterValue:
      if (c == ',') {
        state_ = State::kKey;
      } else if (c == '}') {
        state_ = State::kDone;
      } else {
        return refuse("expected ',' or '}' after a value");
      }
      ++pos_;
      return Unit::kDone;
    case State::kArrayFirst:
      if (c == ']') {
        ++pos_;
        state_ = in_events_object_ ? State::kAfterValue : State::kDone;
        return Unit::kDone;
      }
      state_ = State::kEvent;
      return Unit::kDone;
    case State::kEvent: {
      size_t p = pos_;
      Unit u = ParseEvent(&p);
      if (u == Unit::kDone) {
        pos_ = p;
        want_ = 0;
        state_ = State::kAfterEvent;
      }
      return u;
    }
    case State::kAfterEvent:
      if (c == ',') {
        state_ = State::kEvent;
      } else if (c == ']') {
        state_ = in_events_object_ ? State::kAfterValue : State::kDone;
      } else {
        return refuse("expected ',' or ']' after an event");
      }
      ++pos_;
      return Unit::kDone;
    case State::kDone:
      AddTo(&trace_.diagnostics, codes::kTraceCut, DiagnosticSeverity::kWarning, trace_.path,
            fmt::format("bytes after the trace's end at byte {}: not read", ByteAt(pos_)));
      pos_ = n;
      trace_.stopped = true;
      return Unit::kFail;
  }
  return Unit::kFail;
}

TorchTraceScanner::Unit TorchTraceScanner::SkipIncrementally() {
  const size_t n = buf_.size();
  const char* d = buf_.data();
  size_t i = pos_;
  if (skip_scalar_) {
    while (i < n && d[i] != ',' && d[i] != '}' && d[i] != ']' && !IsWs(d[i])) ++i;
    pos_ = i;
    return i < n ? Unit::kDone : Unit::kMore;
  }
  while (i < n) {
    if (skip_in_string_) {
      if (skip_escape_) {
        skip_escape_ = false;
        ++i;
        continue;
      }
      const char* q = FindQuoteOrBackslash(d + i, d + n);
      i = static_cast<size_t>(q - d);
      if (i >= n) break;
      if (*q == '\\') {
        skip_escape_ = true;
      } else {
        skip_in_string_ = false;
        if (skip_depth_ == 0) {
          pos_ = i + 1;
          return Unit::kDone;
        }
      }
      ++i;
      continue;
    }
    char c = d[i];
    if (c == '"') {
      skip_in_string_ = true;
    } else if (c == '{' || c == '[') {
      if (++skip_depth_ + 1 > limits_.max_depth) {
        Stop(fmt::format("nesting deeper than {}", limits_.max_depth), ByteAt(i));
        return Unit::kFail;
      }
    } else if (c == '}' || c == ']') {
      if (--skip_depth_ == 0) {
        pos_ = i + 1;
        return Unit::kDone;
      }
    }
    ++i;
  }
  pos_ = n;
  return Unit::kMore;
}

TorchTraceScanner::Unit TorchTraceScanner::ParseTopValue(size_t* pos) {
  Cursor cur{buf_.data() + *pos, buf_.data() + buf_.size(), 1, limits_.max_depth};
  std::string scratch;
  bool ok = true;
  if (key_ == "baseTimeNanoseconds" && (*cur.p == '-' || (*cur.p >= '0' && *cur.p <= '9'))) {
    double v = 0;
    ok = cur.Number(&v);
    if (ok && v >= 0 && v < 9.2e18) trace_.base_time_ns = static_cast<int64_t>(v);
  } else if (*cur.p != '{') {
    ok = cur.SkipValue();
  } else {
    ++cur.p;
    ++cur.depth;
    while (ok) {
      if (!(ok = cur.Ws())) break;
      if (*cur.p == '}') {
        ++cur.p;
        break;
      }
      if (*cur.p == ',') ++cur.p;
      if (!(ok = cur.Ws())) break;
      if (*cur.p != '"') {
        ok = cur.Fail(Cursor::kHostile, cur.p, "expected a key");
        break;
      }
      std::string_view key;
      if (!(ok = cur.String(&key, &scratch) && cur.Expect(':') && cur.Ws())) break;
      if ((key == "rank" || key == "world_size") &&
          (*cur.p == '-' || (*cur.p >= '0' && *cur.p <= '9'))) {
        double v = 0;
        if (!(ok = cur.Number(&v))) break;
        if (v >= 0 && v < 1e9 && v == std::floor(v))
          (key == "rank" ? trace_.rank : trace_.world_size) = static_cast<int64_t>(v);
      } else {
        ok = cur.SkipValue();
      }
    }
  }
  if (ok) {
    *pos = static_cast<size_t>(cur.p - buf_.data());
    return Unit::kDone;
  }
  if (cur.status == Cursor::kMore) {
    const size_t pending = buf_.size() - *pos;
    if (pending > limits_.max_event_bytes) {
      Stop(fmt::format("a value larger than {} bytes", limits_.max_event_bytes), ByteAt(*pos));
      return Unit::kFail;
    }
    want_ = std::max(pending * 2, pending + 4096);
    return Unit::kMore;
  }
  Stop(cur.why, ByteAt(static_cast<size_t>(cur.at - buf_.data())));
  return Unit::kFail;
}

TorchTraceScanner::Unit TorchTraceScanner::ParseEvent(size_t* pos) {
  const int base_depth = in_events_object_ ? 2 : 1;
  Cursor cur{buf_.data() + *pos, buf_.data() + buf_.size(), base_depth, limits_.max_depth};
  ev_.name = ev_.ph = ev_.cat = {};
  ev_.has_ts = ev_.has_dur = ev_.bad = false;
  std::string key_scratch, value_scratch;
  bool ok = true;
  if (*cur.p != '{') {
    // Chrome's format allows nothing else in traceEvents; a stray value is skipped.
    ok = cur.SkipValue();
    ev_.bad = true;
  } else {
    ++cur.p;
    ++cur.depth;
    bool first = true;
    while (ok) {
      if (!(ok = cur.Ws())) break;
      if (*cur.p == '}') {
        ++cur.p;
        break;
      }
      if (!first) {
        if (*cur.p != ',') {
          ok = cur.Fail(Cursor::kHostile, cur.p, "expected ',' or '}' in an event");
          break;
        }
        ++cur.p;
        if (!(ok = cur.Ws())) break;
      }
      first = false;
      if (*cur.p != '"') {
        ok = cur.Fail(Cursor::kHostile, cur.p, "expected a key in an event");
        break;
      }
      std::string_view key;
      if (!(ok = cur.String(&key, &key_scratch) && cur.Expect(':') && cur.Ws())) break;
      const char v = *cur.p;
      const bool is_string = v == '"';
      const bool is_number = v == '-' || (v >= '0' && v <= '9');
      if (key.size() == 4 && key == "name" && is_string) {
        ok = cur.String(&ev_.name, &ev_.name_buf);
        if (ok && ev_.name.data() == ev_.name_buf.data()) ev_.name = ev_.name_buf;
      } else if (key.size() == 3 && key == "cat" && is_string) {
        ok = cur.String(&ev_.cat, &ev_.cat_buf);
      } else if (key.size() == 2 && key == "ph" && is_string) {
        ok = cur.String(&ev_.ph, &value_scratch);
      } else if ((key == "ts" || key == "dur") && is_number) {
        double x = 0;
        ok = cur.Number(&x);
        if (!ok && cur.status == Cursor::kBad) {
          // Out of range: the event is skipped and said so; the read goes on (the cursor is
          // past the number).
          AddTo(&trace_.diagnostics, codes::kTraceEvent, DiagnosticSeverity::kWarning, trace_.path,
                fmt::format("event at byte {}: '{}' is {}: event skipped", ByteAt(*pos), key,
                            cur.why));
          cur.status = Cursor::kOk;
          ok = true;
          ev_.bad = true;
          continue;
        }
        if (!ok) break;
        if (!(std::fabs(x) < kMaxMicroseconds)) {
          AddTo(&trace_.diagnostics, codes::kTraceEvent, DiagnosticSeverity::kWarning, trace_.path,
                fmt::format("event at byte {}: '{}' of {} is out of range: event skipped",
                            ByteAt(*pos), key, x));
          ev_.bad = true;
        }
        if (key == "ts") {
          ev_.ts = x;
          ev_.has_ts = true;
        } else {
          ev_.dur = x;
          ev_.has_dur = true;
        }
      } else {
        ok = cur.SkipValue();
      }
    }
  }
  if (ok && static_cast<size_t>(cur.p - (buf_.data() + *pos)) > limits_.max_event_bytes) {
    // Whole in one piece, but past the bound a piece-wise read would have refused it at.
    Stop(fmt::format("an event larger than {} bytes", limits_.max_event_bytes), ByteAt(*pos));
    return Unit::kFail;
  }
  if (ok) {
    *pos = static_cast<size_t>(cur.p - buf_.data());
    AddEvent();
    return trace_.stopped ? Unit::kFail : Unit::kDone;
  }
  if (cur.status == Cursor::kMore) {
    const size_t pending = buf_.size() - *pos;
    if (pending > limits_.max_event_bytes) {
      Stop(fmt::format("an event larger than {} bytes", limits_.max_event_bytes), ByteAt(*pos));
      return Unit::kFail;
    }
    want_ = std::max(pending * 2, pending + 4096);
    return Unit::kMore;
  }
  Stop(cur.why, ByteAt(static_cast<size_t>(cur.at - buf_.data())));
  return Unit::kFail;
}

void TorchTraceScanner::AddEvent() {
  if (++trace_.events > limits_.max_events) {
    --trace_.events;
    Stop(fmt::format("more than {} events", limits_.max_events), ByteAt(pos_));
    return;
  }
  if (ev_.ph != "X") return;  // metadata, instants, flows: no span
  if (ev_.bad || !ev_.has_ts || !ev_.has_dur || ev_.dur < 0) {
    ++trace_.malformed_events;
    return;
  }
  const double start = ev_.ts, end = ev_.ts + ev_.dur;
  if (!trace_.first_ts_us || start < *trace_.first_ts_us) trace_.first_ts_us = start;
  if (!trace_.last_end_us || end > *trace_.last_end_us) trace_.last_end_us = end;
  auto drop = [&](const char* what) {
    if (trace_.dropped++ == 0)
      AddTo(&trace_.diagnostics, codes::kTraceEvent, DiagnosticSeverity::kWarning, trace_.path,
            fmt::format("more {} than kept at byte {}: the rest not counted", what, ByteAt(pos_)));
  };
  if (IsGpuCategory(ev_.cat)) {
    ++trace_.gpu_events;
    auto& busy = trace_.gpu_busy;
    if (busy.size() >= limits_.max_gpu_intervals) {
      Merge();
      if (busy.size() >= limits_.max_gpu_intervals / 2 + 1) return drop("GPU intervals");
    }
    busy.push_back({start, end});
    return;
  }
  if (StartsWith(ev_.cat, "gpu_")) return;  // gpu_user_annotation: the step on the GPU stream
  if (StartsWith(ev_.name, "ProfilerStep#")) {
    int64_t number = 0;
    std::string_view digits = ev_.name.substr(13);
    std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (trace_.steps.size() >= limits_.max_steps) return drop("steps");
    trace_.steps.push_back({number, start, end});
    return;
  }
  if (StartsWith(ev_.name, "enumerate(DataLoader)#") &&
      ev_.name.find("__next__") != std::string_view::npos) {
    if (trace_.loader_waits.size() >= limits_.max_waits) return drop("DataLoader waits");
    trace_.loader_waits.push_back({start, end});
  }
}

void TorchTraceScanner::Merge() {
  auto& v = trace_.gpu_busy;
  std::sort(v.begin(), v.end(),
            [](const TraceInterval& a, const TraceInterval& b) { return a.start_us < b.start_us; });
  size_t out = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (out > 0 && v[i].start_us <= v[out - 1].end_us) {
      v[out - 1].end_us = std::max(v[out - 1].end_us, v[i].end_us);
    } else {
      v[out++] = v[i];
    }
  }
  v.resize(out);
}

TorchTrace TorchTraceScanner::Finish() {
  if (!trace_.stopped) Run();
  trace_.complete = state_ == State::kDone;
  if (!trace_.complete && !trace_.stopped) {
    trace_.cut_at_byte = ByteAt(pos_);
    AddTo(&trace_.diagnostics, codes::kTraceCut, DiagnosticSeverity::kWarning, trace_.path,
          trace_.bytes == 0
              ? std::string("an empty profiler trace")
              : fmt::format("profiler trace cut short: it ends at byte {} inside the document "
                            "(the writer stopped, as when a job is killed while the profiler "
                            "writes); read up to the cut: {} events, {} steps",
                            trace_.bytes, trace_.events, trace_.steps.size()));
  }
  Merge();
  buf_.clear();
  buf_.shrink_to_fit();
  return std::move(trace_);
}

namespace {

template <typename Source>
TorchTrace ReadFrom(const std::string& path, Source&& next, const TraceLimits& limits) {
  TorchTraceScanner scanner(path, limits);
  std::string piece = next();
  const bool gz = IsGzip(piece);
  std::string error;
  bool fed_ok = true;
  auto sink = [&](std::string_view bytes) { return fed_ok = scanner.Feed(bytes); };
  bool gzip_ended = true;
  if (gz) {
    auto inflater = std::make_unique<Inflater>();
    while (!piece.empty() && fed_ok) {
      if (!inflater->Put(piece, sink, &error)) break;
      piece = next();
    }
    gzip_ended = inflater->ended();
  } else {
    while (!piece.empty() && fed_ok) {
      sink(piece);
      piece = next();
    }
  }
  TorchTrace trace = scanner.Finish();
  if (!error.empty())
    AddTo(&trace.diagnostics, codes::kTraceCut, DiagnosticSeverity::kWarning, path,
          fmt::format("gzip data corrupt after {} uncompressed bytes ({}): read "
                      "up to there",
                      trace.bytes, error));
  else if (gz && !gzip_ended && fed_ok)
    AddTo(&trace.diagnostics, codes::kTraceCut, DiagnosticSeverity::kWarning, path,
          fmt::format("the gzip stream ends early, after {} uncompressed bytes "
                      "(the file was cut)",
                      trace.bytes));
  return trace;
}

}  // namespace

TorchTrace ReadTorchTrace(InputFile file, const TraceLimits& limits) {
  if (!file.ok()) {
    TorchTrace trace;
    trace.path = file.path();
    trace.stopped = true;
    AddTo(&trace.diagnostics, codes::kUnreadableFile, DiagnosticSeverity::kError, file.path(),
          "cannot read the profiler trace: " + file.error());
    return trace;
  }
  uint64_t offset = 0;
  auto next = [&] {
    std::string piece = file.ReadAt(offset, kChunkBytes);
    offset += piece.size();
    return piece;
  };
  return ReadFrom(file.path(), next, limits);
}

TorchTrace ReadTorchTraceBytes(std::string_view bytes, const std::string& path,
                               const TraceLimits& limits) {
  size_t offset = 0;
  auto next = [&] {
    std::string piece(bytes.substr(offset, std::min(kChunkBytes, bytes.size() - offset)));
    offset += piece.size();
    return piece;
  };
  return ReadFrom(path, next, limits);
}

bool LooksLikeTorchTrace(std::string_view head, std::string_view file_name) {
  auto ends_with = [&](std::string_view suffix) {
    return file_name.size() >= suffix.size() &&
           file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".pt.trace.json") || ends_with(".pt.trace.json.gz")) return true;
  std::string text;
  if (IsGzip(head)) {
    Inflater inflater;
    std::string error;
    inflater.Put(
        head,
        [&](std::string_view bytes) {
          text.append(bytes.substr(0, 64 * 1024 - std::min<size_t>(text.size(), 64 * 1024)));
          return text.size() < 64 * 1024;
        },
        &error);
    head = text;
  }
  size_t i = 0;
  while (i < head.size() && IsWs(head[i])) ++i;
  if (i >= head.size()) return false;
  if (head[i] == '{') return head.find("\"traceEvents\"") != std::string_view::npos;
  if (head[i] != '[') return false;
  std::string_view first = head.substr(i, 4096);
  return first.find("\"ph\"") != std::string_view::npos &&
         first.find("\"ts\"") != std::string_view::npos;
}

}  // namespace feedcheck::analyzers
