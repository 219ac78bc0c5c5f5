#include "analyzers/torch_trace.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "core/diagnostic_codes.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace feedcheck::analyzers {

namespace {

constexpr size_t kChunkBytes = 256 * 1024;
// |ts| and |dur| past this (about 3,000 years in microseconds) are no clock's.
constexpr double kMaxMicroseconds = 1e17;

bool IsWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The first '"' or '\\' in [p, end); end when none.
const char* FindQuoteOrBackslash(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  for (; p + 16 <= end; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int m =
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (m != 0) return p + __builtin_ctz(static_cast<unsigned>(m));
  }
#endif
  for (; p < end; ++p)
    if (*p == '"' || *p == '\\') return p;
  return end;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// A recursive-descent reader over one complete unit in memory. Running out of bytes is kMore
// (the caller feeds more and tries the unit again from its start); nothing is consumed then.
struct Cursor {
  enum Status { kOk, kMore, kBad, kHostile };
  Cursor(const char* begin, const char* stop, int at_depth, int limit)
      : p(begin), end(stop), depth(at_depth), max_depth(limit) {}
  const char* p;
  const char* end;
  int depth;
  int max_depth;
  Status status = kOk;
  std::string why;
  const char* at = nullptr;

  bool Fail(Status s, const char* where, std::string message) {
    status = s;
    at = where;
    why = std::move(message);
    return false;
  }
  bool More() { return Fail(kMore, p, ""); }
  bool Ws() {
    while (p < end && IsWs(*p)) ++p;
    return p < end || More();
  }
  bool Expect(char c) {
    if (!Ws()) return false;
    if (*p != c) return Fail(kHostile, p, fmt::format("expected '{}'", c));
    ++p;
    return true;
  }
  // At '"': the string's text (a view into the buffer, or `scratch` when it has escapes).
  bool String(std::string_view* out, std::string* scratch) {
    const char* start = ++p;
    const char* q = FindQuoteOrBackslash(p, end);
    if (q == end) return More();
    if (*q == '"') {
      *out = std::string_view(start, static_cast<size_t>(q - start));
      p = q + 1;
      return true;
    }
    scratch->assign(start, q);
    p = q;
    while (true) {
      if (p >= end) return More();
      char c = *p;
      if (c == '"') break;
      if (c != '\\') {
        scratch->push_back(c);
        ++p;
        continue;
      }
      if (p + 1 >= end) return More();
      char e = p[1];
      p += 2;
      switch (e) {
        case 'n':
          scratch->push_back('\n');
          break;
        case 't':
          scratch->push_back('\t');
          break;
        case 'r':
          scratch->push_back('\r');
          break;
        case 'b':
          scratch->push_back('\b');
          break;
        case 'f':
          scratch->push_back('\f');
          break;
        case 'u': {
          if (p + 4 > end) return More();
          uint32_t cp = 0;
          auto r = std::from_chars(p, p + 4, cp, 16);
          if (r.ptr != p + 4) return Fail(kHostile, p, "a bad \\u escape");
          AppendUtf8(cp, scratch);
          p += 4;
          break;
        }
        default:
          scratch->push_back(e);
          break;
      }
    }
    ++p;
    *out = *scratch;
    return true;
  }
  bool SkipString() {
    ++p;
    while (true) {
      const char* q = FindQuoteOrBackslash(p, end);
      if (q == end) return More();
      if (*q == '"') {
        p = q + 1;
        return true;
      }
      if (q + 1 >= end) return More();
      p = q + 2;
    }
  }
  // A JSON number; out of range (or too long to be one) is kBad, naming the byte.
  bool Number(double* out) {
    const char* start = p;
    const char* q = p;
    if (q < end && *q == '-') ++q;
    uint64_t mantissa = 0;
    int digits = 0, frac_digits = 0;
    bool simple = true;
    while (q < end && *q >= '0' && *q <= '9') {
      if (digits < 19) mantissa = mantissa * 10 + static_cast<uint64_t>(*q - '0');
      ++digits;
      ++q;
    }
    if (q < end && *q == '.') {
      ++q;
      while (q < end && *q >= '0' && *q <= '9') {
        if (digits + frac_digits < 19) {
          mantissa = mantissa * 10 + static_cast<uint64_t>(*q - '0');
          ++frac_digits;
        }
        ++q;
      }
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
      simple = false;
      ++q;
      if (q < end && (*q == '+' || *q == '-')) ++q;
      while (q < end && *q >= '0' && *q <= '9') ++q;
    }
    if (q == end) return More();
    if (digits == 0 && frac_digits == 0) return Fail(kHostile, start, "expected a value");
    p = q;
    if (q - start > 64) return Fail(kBad, start, "a number too long to read");
    if (simple && digits + frac_digits <= 19 && digits <= 18) {
      static constexpr double kPow10[] = {1,    1e1,  1e2,  1e3,  1e4,  1e5,  1e6,
                                          1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13,
                                          1e14, 1e15, 1e16, 1e17, 1e18, 1e19};
      double v = static_cast<double>(mantissa) / kPow10[frac_digits];
      *out = *start == '-' ? -v : v;
      return true;
    }
    double v = 0;
    auto r = std::from_chars(start, q, v);
    if (r.ec == std::errc::result_out_of_range || !std::isfinite(v))
      return Fail(kBad, start,
                  fmt::format("a number out of range ({})",
                              std::string_view(start, std::min<size_t>(q - start, 32))));
    if (r.ec != std::errc() || r.ptr != q) return Fail(kHostile, start, "a bad number");
    *out = v;
    return true;
  }
  // Any value, nesting bounded by max_depth (counted, never recursed).
  bool SkipValue() {
    if (!Ws()) return false;
    char c = *p;
    if (c == '"') return SkipString();
    if (c != '{' && c != '[') {
      if (c == '-' || (c >= '0' && c <= '9')) {
        double ignored;
        if (Number(&ignored)) return true;
        if (status == kBad) {  // a skipped number's range does not matter
          status = kOk;
          return true;
        }
        return false;
      }
      const char* start = p;
      while (p < end && ((*p >= 'a' && *p <= 'z'))) ++p;
      if (p == end) return More();
      std::string_view word(start, static_cast<size_t>(p - start));
      if (word == "true" || word == "false" || word == "null") return true;
      return Fail(kHostile, start, "expected a value");
    }
    int d = 0;
    while (p < end) {
      c = *p;
      if (c == '"') {
        if (!SkipString()) return false;
        continue;
      }
      if (c == '{' || c == '[') {
        if (depth + ++d > max_depth)
          return Fail(kHostile, p, fmt::format("nesting deeper than {}", max_depth));
      } else if (c == '}' || c == ']') {
        if (--d == 0) {
          ++p;
          return true;
        }
      }
      ++p;
    }
    return More();
  }
};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
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
  trace_.diagnostics.Add(
      {codes::kTraceRefused,
       DiagnosticSeverity::kError,
       fmt::format("profiler trace refused at byte {}: {}; {} events read before it", at_byte,
                   message, trace_.events),
       {trace_.path, 0, 0},
       "trace",
       ""});
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
      trace_.diagnostics.Add(
          {codes::kTraceCut,
           DiagnosticSeverity::kWarning,
           fmt::format("bytes after the trace's end at byte {}: not read", ByteAt(pos_)),
           {trace_.path, 0, 0},
           "trace",
           ""});
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
          trace_.diagnostics.Add({codes::kTraceEvent,
                                  DiagnosticSeverity::kWarning,
                                  fmt::format("event at byte {}: '{}' is {}: event skipped",
                                              ByteAt(*pos), key, cur.why),
                                  {trace_.path, 0, 0},
                                  "trace",
                                  ""});
          cur.status = Cursor::kOk;
          ok = true;
          ev_.bad = true;
          continue;
        }
        if (!ok) break;
        if (!(std::fabs(x) < kMaxMicroseconds)) {
          trace_.diagnostics.Add(
              {codes::kTraceEvent,
               DiagnosticSeverity::kWarning,
               fmt::format("event at byte {}: '{}' of {} is out of range: event skipped",
                           ByteAt(*pos), key, x),
               {trace_.path, 0, 0},
               "trace",
               ""});
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
      trace_.diagnostics.Add(
          {codes::kTraceEvent,
           DiagnosticSeverity::kWarning,
           fmt::format("more {} than kept at byte {}: the rest not counted", what, ByteAt(pos_)),
           {trace_.path, 0, 0},
           "trace",
           ""});
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
    trace_.diagnostics.Add(
        {codes::kTraceCut,
         DiagnosticSeverity::kWarning,
         trace_.bytes == 0
             ? std::string("an empty profiler trace")
             : fmt::format("profiler trace cut short: it ends at byte {} inside the document "
                           "(the writer stopped, as when a job is killed while the profiler "
                           "writes); read up to the cut: {} events, {} steps",
                           trace_.bytes, trace_.events, trace_.steps.size()),
         {trace_.path, 0, 0},
         "trace",
         ""});
  }
  Merge();
  buf_.clear();
  buf_.shrink_to_fit();
  return std::move(trace_);
}

namespace {

bool IsGzip(std::string_view head) {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
         static_cast<unsigned char>(head[1]) == 0x8b;
}

// Inflates gzip `next` piece by piece into `sink`; false (with `error`) on corrupt data.
// Concatenated members are read one after the other, as gzip -d does.
class Inflater {
 public:
  Inflater() : out_(new char[kChunkBytes]) {
    std::memset(&zs_, 0, sizeof(zs_));
    ok_ = inflateInit2(&zs_, 15 + 32) == Z_OK;
  }
  ~Inflater() {
    if (ok_) inflateEnd(&zs_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  template <typename Sink>
  bool Put(std::string_view in, Sink&& sink, std::string* error) {
    if (!ok_) {
      *error = "cannot start zlib";
      return false;
    }
    zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs_.avail_in = static_cast<uInt>(in.size());
    while (zs_.avail_in > 0) {
      if (ended_) {  // another member follows
        inflateReset(&zs_);
        ended_ = false;
      }
      zs_.next_out = reinterpret_cast<Bytef*>(out_.get());
      zs_.avail_out = static_cast<uInt>(kChunkBytes);
      int r = inflate(&zs_, Z_NO_FLUSH);
      size_t produced = kChunkBytes - zs_.avail_out;
      if (produced > 0 && !sink(std::string_view(out_.get(), produced))) return true;
      if (r == Z_STREAM_END) {
        ended_ = true;
        continue;
      }
      if (r != Z_OK && r != Z_BUF_ERROR) {
        *error = zs_.msg ? zs_.msg : "corrupt gzip data";
        return false;
      }
      if (r == Z_BUF_ERROR && zs_.avail_in == 0) break;
    }
    return true;
  }
  bool ended() const { return ended_; }

 private:
  z_stream zs_;
  bool ok_ = false;
  bool ended_ = false;
  std::unique_ptr<char[]> out_;
};

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
    trace.diagnostics.Add({codes::kTraceCut,
                           DiagnosticSeverity::kWarning,
                           fmt::format("gzip data corrupt after {} uncompressed bytes ({}): read "
                                       "up to there",
                                       trace.bytes, error),
                           {path, 0, 0},
                           "trace",
                           ""});
  else if (gz && !gzip_ended && fed_ok)
    trace.diagnostics.Add({codes::kTraceCut,
                           DiagnosticSeverity::kWarning,
                           fmt::format("the gzip stream ends early, after {} uncompressed bytes "
                                       "(the file was cut)",
                                       trace.bytes),
                           {path, 0, 0},
                           "trace",
                           ""});
  return trace;
}

}  // namespace

TorchTrace ReadTorchTrace(InputFile file, const TraceLimits& limits) {
  if (!file.ok()) {
    TorchTrace trace;
    trace.path = file.path();
    trace.stopped = true;
    trace.diagnostics.Add({codes::kUnreadableFile,
                           DiagnosticSeverity::kError,
                           "cannot read the profiler trace: " + file.error(),
                           {file.path(), 0, 0},
                           "trace",
                           ""});
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
