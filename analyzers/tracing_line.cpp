#include "analyzers/tracing_line.h"

#include <array>
#include <cstring>

#include "analyzers/byte_scan.h"
#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

namespace feedcheck::analyzers {

namespace {

// Character classes by table: the tokenizer asks them for every byte of a key.
constexpr unsigned char kIdentStart = 1, kIdentChar = 2, kTargetChar = 4;
constexpr auto kClasses = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool start = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool ident = start || (c >= '0' && c <= '9') || c == '.';
    t[static_cast<size_t>(c)] =
        static_cast<unsigned char>((start ? kIdentStart : 0) | (ident ? kIdentChar : 0) |
                                   (ident || c == ':' || c == '-' ? kTargetChar : 0));
  }
  return t;
}();
inline bool Is(char c, unsigned char cls) { return kClasses[static_cast<unsigned char>(c)] & cls; }
inline bool IdentStart(char c) { return Is(c, kIdentStart); }

// The first field key at or after `from`: "<ident>=" at the start of `s` or right after a
// space; npos when none. It searches for '=' (one per field) and walks back over the
// identifier, rather than trying a key after every space: values are full of spaces
// ("Dataset[Partitions: 1, Sources: 1]"), and a search per space cost a third of the parse.
size_t NextKeyStart(std::string_view s, size_t from, size_t* key_len) {
  const char* data = s.data();
  size_t pos = from;
  while (pos < s.size()) {
    size_t e = FindByte(s, pos, '=');
    if (e == std::string_view::npos) return std::string_view::npos;
    size_t q = IdentRunStart(data, e);
    if (q < e && q >= from && IdentStart(data[q]) && (q == 0 || data[q - 1] == ' ')) {
      *key_len = e - q + 1;
      return q;
    }
    pos = e + 1;
  }
  return std::string_view::npos;
}

bool ParseLevel(std::string_view word, TraceLevel* level) {
  // By length first: one comparison, not five, for the line's level.
  if (word.size() == 4) {
    if (word == "INFO")
      *level = TraceLevel::kInfo;
    else if (word == "WARN")
      *level = TraceLevel::kWarn;
    else
      return false;
    return true;
  }
  if (word.size() != 5) return false;
  if (word == "ERROR")
    *level = TraceLevel::kError;
  else if (word == "DEBUG")
    *level = TraceLevel::kDebug;
  else if (word == "TRACE")
    *level = TraceLevel::kTrace;
  else
    return false;
  return true;
}

// What the leading tokens look like, in one pass: a target-like token has identifier
// characters, '-' and ':' only (so never a key's '='), starts with an identifier and ends in ':'.
struct TokenShape {
  bool target_like = false;
  size_t colons = 0;
  bool has_path = false;  ///< contains "::" (crate::module)
};

TokenShape ShapeOf(std::string_view token) {
  TokenShape shape;
  if (token.size() < 2 || token.back() != ':' || !IdentStart(token[0])) return shape;
  for (size_t i = 0; i < token.size(); ++i) {
    char c = token[i];
    if (!Is(c, kTargetChar)) return shape;
    if (c != ':') continue;
    ++shape.colons;
    shape.has_path = shape.has_path || (i + 1 < token.size() && token[i + 1] == ':');
  }
  shape.target_like = true;
  return shape;
}

// Where the span scope and target of `rest` (the line after its level) are, as offsets into it.
struct Scope {
  size_t spans_len = 0;  ///< 0: no spans (spans are never empty when present)
  size_t target_at = 0, target_len = 0;
  size_t consumed = 0;  ///< the message starts here
  size_t key_len = 0;   ///< bytes that decided it, ending in a space; 0: not to be cached
};

// Span scope and target are the leading "...:" tokens: "spans: target:" or "target:".
Scope ScanScope(std::string_view rest) {
  Scope scope;
  auto token_at = [&](size_t at) {
    size_t sp = rest.find(' ', at);
    return rest.substr(at, sp == std::string_view::npos ? std::string_view::npos : sp - at);
  };
  std::string_view t1 = token_at(0);
  TokenShape s1 = ShapeOf(t1);
  if (!s1.target_like) return scope;
  size_t after1 = t1.size() < rest.size() ? t1.size() + 1 : rest.size();
  if (s1.has_path) {  // a crate path: the target itself, whatever follows
    scope.target_len = t1.size() - 1;
    scope.consumed = after1;
    if (t1.size() < rest.size()) scope.key_len = after1;
    return scope;
  }
  std::string_view t2 = after1 < rest.size() ? token_at(after1) : std::string_view{};
  TokenShape s2 = ShapeOf(t2);
  size_t after2 = after1 + t2.size();
  if (after1 < rest.size() && after2 < rest.size()) scope.key_len = after2 + 1;
  if (s2.target_like && (s2.has_path || s1.colons >= 2)) {
    scope.spans_len = t1.size() - 1;
    scope.target_at = after1;
    scope.target_len = t2.size() - 1;
    scope.consumed = after2 < rest.size() ? after2 + 1 : rest.size();
  } else {
    scope.target_len = t1.size() - 1;
    scope.consumed = after1;
  }
  return scope;
}

// The scope of `rest`, from the cache when its head was seen before; a scanned head is stored.
Scope CachedScope(std::string_view rest, TracingLineCache::Entry* entries, size_t slots,
                  size_t* last_hit, uint64_t* next_id, uint64_t* id) {
  for (size_t k = 0; k < slots; ++k) {
    size_t i = (*last_hit + k) % slots;
    const auto& e = entries[i];
    if (e.id == 0 || e.key.size() > rest.size() || e.key[0] != rest[0] ||
        std::memcmp(e.key.data(), rest.data(), e.key.size()) != 0)
      continue;
    *last_hit = i;
    *id = e.id;
    Scope scope;
    scope.spans_len = e.spans_len;
    scope.target_at = e.target_at;
    scope.target_len = e.target_len;
    scope.consumed = e.consumed;
    return scope;
  }
  Scope scope = ScanScope(rest);
  if (scope.key_len == 0 || scope.key_len > TracingLineCache::kMaxKeyBytes) return scope;
  uint64_t new_id = (*next_id)++;
  auto& e = entries[TracingLineCache::SlotOf(new_id)];
  e.key.assign(rest.substr(0, scope.key_len));
  e.id = new_id;
  e.spans_len = static_cast<uint16_t>(scope.spans_len);
  e.target_at = static_cast<uint16_t>(scope.target_at);
  e.target_len = static_cast<uint16_t>(scope.target_len);
  e.consumed = static_cast<uint16_t>(scope.consumed);
  *last_hit = TracingLineCache::SlotOf(new_id);
  *id = new_id;
  return scope;
}

}  // namespace

std::string_view TraceLevelName(TraceLevel level) {
  switch (level) {
    case TraceLevel::kTrace:
      return "TRACE";
    case TraceLevel::kDebug:
      return "DEBUG";
    case TraceLevel::kInfo:
      return "INFO";
    case TraceLevel::kWarn:
      return "WARN";
    case TraceLevel::kError:
      return "ERROR";
  }
  return "INFO";
}

std::string_view TracingLine::LeafSpan() const {
  size_t colon = spans.rfind(':');
  return colon == std::string_view::npos ? spans : spans.substr(colon + 1);
}

std::optional<std::string_view> TracingLine::Field(std::string_view key) const {
  for (const auto& f : fields)
    if (f.key == key) return f.value;
  return std::nullopt;
}

std::optional<std::string_view> TracingLine::LastField(std::string_view key) const {
  for (auto it = fields.rbegin(); it != fields.rend(); ++it)
    if (it->key == key) return it->value;
  return std::nullopt;
}

TracingFieldReader::TracingFieldReader(std::string_view text) : text_(text) {
  start_ = NextKeyStart(text_, 0, &key_len_);
}

TracingFieldReader::TracingFieldReader(const TracingLine& line) : text_(line.fields_text) {
  start_ = line.first_key_len > 0 ? 0 : std::string_view::npos;
  key_len_ = line.first_key_len;
}

bool TracingFieldReader::Next(TraceField* out) {
  if (start_ == std::string_view::npos) return false;
  std::string_view key = text_.substr(start_, key_len_ - 1);
  size_t value_start = start_ + key_len_;
  // The value runs to the next " <ident>=".
  size_t next_len = 0;
  size_t next = NextKeyStart(text_, value_start, &next_len);
  size_t value_end = next == std::string_view::npos ? text_.size() : next - 1;
  std::string_view value = text_.substr(value_start, value_end - value_start);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  *out = {key, value};
  start_ = next;
  key_len_ = next_len;
  return true;
}

void TokenizeFields(std::string_view s, std::vector<TraceField>* out) {
  TracingFieldReader reader(s);
  TraceField f;
  while (reader.Next(&f)) out->push_back(f);
}

bool ParseTracingHead(std::string_view line, TracingLine* out, TracingLineCache* cache) {
  out->has_time = false;
  out->epoch_s = 0;
  out->spans = out->target = out->message = out->fields_text = {};
  out->first_key_len = 0;
  out->fields.clear();
  out->scope_id = 0;
  size_t pos = 0;
  if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
    size_t used = 0;
    double t = 0;
    if (!ParseTimestampPrefix(line, &t, &used, cache ? &cache->timestamp_ : nullptr) ||
        used >= line.size() || line[used] != ' ')
      return false;
    out->has_time = true;
    out->epoch_s = t;
    pos = used;
  }
  while (pos < line.size() && line[pos] == ' ') ++pos;
  size_t level_end = line.find(' ', pos);
  std::string_view level_word = line.substr(
      pos, level_end == std::string_view::npos ? std::string_view::npos : level_end - pos);
  if (!ParseLevel(level_word, &out->level)) return false;
  if (level_end == std::string_view::npos) return true;  // a level and nothing else
  pos = level_end;
  while (pos < line.size() && line[pos] == ' ') ++pos;
  std::string_view rest = line.substr(pos);

  if (!rest.empty()) {
    Scope scope = cache ? CachedScope(rest, cache->entries_.data(), cache->entries_.size(),
                                      &cache->last_hit_, &cache->next_id_, &out->scope_id)
                        : ScanScope(rest);
    if (scope.spans_len > 0) out->spans = rest.substr(0, scope.spans_len);
    if (scope.target_len > 0) out->target = rest.substr(scope.target_at, scope.target_len);
    rest.remove_prefix(scope.consumed);
  }
  size_t key_len = 0;
  size_t fields_at = NextKeyStart(rest, 0, &key_len);
  if (fields_at == std::string_view::npos) {
    out->message = rest;
  } else {
    out->message = rest.substr(0, fields_at);
    out->fields_text = rest.substr(fields_at);
    out->first_key_len = key_len;
  }
  while (!out->message.empty() && out->message.back() == ' ') out->message.remove_suffix(1);
  return true;
}

bool ParseTracingLine(std::string_view line, TracingLine* out) {
  if (!ParseTracingHead(line, out)) return false;
  // TokenizeFields finds the first key at offset 0 at once.
  if (!out->fields_text.empty()) TokenizeFields(out->fields_text, &out->fields);
  return true;
}

std::optional<std::string_view> FindTracingField(std::string_view s, std::string_view key,
                                                 size_t* from) {
  size_t pos = from ? *from : 0;
  while (pos < s.size()) {
    size_t q = s.find(key, pos);
    if (q == std::string_view::npos) return std::nullopt;
    size_t e = q + key.size();
    // Every " <ident>=" starts a field (TokenizeFields), so this is the field, not a value.
    if (e < s.size() && s[e] == '=' && (q == 0 || s[q - 1] == ' ')) {
      size_t value_start = e + 1;
      size_t next_len = 0;
      size_t next = NextKeyStart(s, value_start, &next_len);
      size_t value_end = next == std::string_view::npos ? s.size() : next - 1;
      std::string_view value = s.substr(value_start, value_end - value_start);
      while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
      if (from) *from = value_start;
      return value;
    }
    pos = q + 1;
  }
  return std::nullopt;
}

std::optional<double> ParseTracingDurationNs(std::string_view text) {
  double ns = 0;
  if (!ParseTracingDurationNs(text, &ns)) return std::nullopt;
  return ns;
}

bool ParseTracingDurationNs(std::string_view text, double* ns) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  // TimingDisplay writes "23.2µs": up to 15 digits with a fraction are read as an integer m and
  // divided by 10^k, which is correctly rounded (both are exact doubles), so it is the very
  // double std::from_chars gives; anything else (an exponent, more digits) goes to from_chars.
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char* p = text.data();
  const size_t n = text.size();
  uint64_t m = 0;
  size_t i = 0, digits = 0, fraction_digits = 0;
  while (i < n && static_cast<unsigned char>(p[i] - '0') < 10) {
    m = m * 10 + static_cast<uint64_t>(p[i] - '0');
    ++i;
    ++digits;
  }
  bool fast = true;
  if (i < n && p[i] == '.') {
    size_t start = ++i;
    while (i < n && static_cast<unsigned char>(p[i] - '0') < 10) {
      m = m * 10 + static_cast<uint64_t>(p[i] - '0');
      ++i;
      ++digits;
    }
    fraction_digits = i - start;
    fast = fraction_digits > 0;
  }
  double v = 0;
  size_t used = i;
  if (fast && digits <= 15 && (i == n || (p[i] != 'e' && p[i] != 'E'))) {
    v = static_cast<double>(m) / kPow10[fraction_digits];
  } else {
    auto parsed = ParseDoublePrefix(text, &used);
    if (!parsed) return false;
    v = *parsed;
  }
  // The unit, by its length first: "s", "ns", "us", "ms", "µs" (U+00B5) or "μs" (U+03BC).
  std::string_view unit = text.substr(used);
  if (unit.empty() || unit.back() != 's') return false;
  double scale = 0;  // ns per unit (x * 1 is x exactly)
  if (unit.size() == 1) {
    scale = 1e9;
  } else if (unit.size() == 2) {
    if (unit[0] == 'n')
      scale = 1;
    else if (unit[0] == 'u')
      scale = 1e3;
    else if (unit[0] == 'm')
      scale = 1e6;
    else
      return false;
  } else if (unit == "\xC2\xB5s" || unit == "\xCE\xBCs") {
    scale = 1e3;
  } else {
    return false;
  }
  *ns = v * scale;
  return true;
}

}  // namespace feedcheck::analyzers
