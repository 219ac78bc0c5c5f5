#include "analyzers/tracing_line.h"

#include <cstring>

#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"

namespace feedcheck::analyzers {

namespace {

inline bool IdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool IdentChar(char c) { return IdentStart(c) || (c >= '0' && c <= '9') || c == '.'; }

// Length of "<ident>=" at s[pos] (ident plus '='), 0 when there is none.
inline size_t KeyAt(std::string_view s, size_t pos) {
  if (pos >= s.size() || !IdentStart(s[pos])) return 0;
  size_t i = pos + 1;
  while (i < s.size() && IdentChar(s[i])) ++i;
  return (i < s.size() && s[i] == '=') ? i - pos + 1 : 0;
}

// Offset of the first field key: at 0 or right after a space; npos when none.
size_t FirstFieldStart(std::string_view s) {
  if (KeyAt(s, 0)) return 0;
  size_t pos = 0;
  while (pos < s.size()) {  // memchr must not see the null data() of an empty view
    const void* sp = std::memchr(s.data() + pos, ' ', s.size() - pos);
    if (sp == nullptr) return std::string_view::npos;
    pos = static_cast<size_t>(static_cast<const char*>(sp) - s.data()) + 1;
    if (KeyAt(s, pos)) return pos;
  }
  return std::string_view::npos;
}

bool ParseLevel(std::string_view word, TraceLevel* level) {
  if (word == "INFO")
    *level = TraceLevel::kInfo;
  else if (word == "WARN")
    *level = TraceLevel::kWarn;
  else if (word == "ERROR")
    *level = TraceLevel::kError;
  else if (word == "DEBUG")
    *level = TraceLevel::kDebug;
  else if (word == "TRACE")
    *level = TraceLevel::kTrace;
  else
    return false;
  return true;
}

// A token that can be a target: identifier characters and ':' only, ending in ':'.
bool TargetLike(std::string_view token) {
  if (token.size() < 2 || token.back() != ':' || !IdentStart(token[0])) return false;
  for (char c : token)
    if (!(IdentChar(c) || c == ':' || c == '-')) return false;
  return true;
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

void TokenizeFields(std::string_view s, std::vector<TraceField>* out) {
  size_t start = FirstFieldStart(s);
  while (start != std::string_view::npos) {
    size_t key_len = KeyAt(s, start);
    std::string_view key = s.substr(start, key_len - 1);
    size_t value_start = start + key_len;
    // The value runs to the next " <ident>=".
    size_t next = std::string_view::npos;
    size_t pos = value_start;
    while (pos < s.size()) {
      const void* sp = std::memchr(s.data() + pos, ' ', s.size() - pos);
      if (sp == nullptr) break;
      size_t space = static_cast<size_t>(static_cast<const char*>(sp) - s.data());
      if (KeyAt(s, space + 1)) {
        next = space + 1;
        break;
      }
      pos = space + 1;
    }
    size_t value_end = next == std::string_view::npos ? s.size() : next - 1;
    std::string_view value = s.substr(value_start, value_end - value_start);
    while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    out->push_back({key, value});
    start = next;
  }
}

bool ParseTracingLine(std::string_view line, TracingLine* out) {
  out->has_time = false;
  out->epoch_s = 0;
  out->spans = out->target = out->message = {};
  out->fields.clear();
  size_t pos = 0;
  if (!line.empty() && line[0] >= '0' && line[0] <= '9') {
    size_t used = 0;
    auto t = ParseTimestampPrefix(line, &used);
    if (!t || used >= line.size() || line[used] != ' ') return false;
    out->has_time = true;
    out->epoch_s = *t;
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

  // Span scope and target are the leading "...:" tokens.
  auto token_at = [&](size_t at) {
    size_t sp = rest.find(' ', at);
    return rest.substr(at, sp == std::string_view::npos ? std::string_view::npos : sp - at);
  };
  std::string_view t1 = token_at(0);
  if (TargetLike(t1) && KeyAt(t1, 0) == 0) {
    size_t after1 = t1.size() < rest.size() ? t1.size() + 1 : rest.size();
    std::string_view t2 = after1 < rest.size() ? token_at(after1) : std::string_view{};
    bool t1_has_path = t1.find("::") != std::string_view::npos;
    size_t t1_colons = 0;
    for (char c : t1) t1_colons += c == ':';
    bool t2_target = TargetLike(t2) && KeyAt(t2, 0) == 0 &&
                     (t2.find("::") != std::string_view::npos || t1_colons >= 2);
    if (!t1_has_path && t2_target) {
      out->spans = t1.substr(0, t1.size() - 1);
      out->target = t2.substr(0, t2.size() - 1);
      size_t after2 = after1 + t2.size();
      rest = after2 < rest.size() ? rest.substr(after2 + 1) : std::string_view{};
    } else {
      out->target = t1.substr(0, t1.size() - 1);
      rest = after1 < rest.size() ? rest.substr(after1) : std::string_view{};
    }
  }
  size_t fields_at = FirstFieldStart(rest);
  if (fields_at == std::string_view::npos) {
    out->message = rest;
  } else {
    out->message = rest.substr(0, fields_at);
    TokenizeFields(rest.substr(fields_at), &out->fields);
  }
  while (!out->message.empty() && out->message.back() == ' ') out->message.remove_suffix(1);
  return true;
}

std::optional<double> ParseTracingDurationNs(std::string_view text) {
  size_t used = 0;
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  auto v = ParseDoublePrefix(text, &used);
  if (!v) return std::nullopt;
  std::string_view unit = text.substr(used);
  if (unit == "ns") return *v;
  if (unit == "\xC2\xB5s" || unit == "\xCE\xBCs" || unit == "us") return *v * 1e3;
  if (unit == "ms") return *v * 1e6;
  if (unit == "s") return *v * 1e9;
  return std::nullopt;
}

}  // namespace feedcheck::analyzers
