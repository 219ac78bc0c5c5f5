#include "analyzers/text_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <vector>

#include "core/redact.h"

namespace feedcheck::analyzers {

std::optional<double> ParseDoublePrefix(std::string_view s, size_t* used) {
  double v = 0;
  const char* begin = s.data();
  // from_chars rejects a leading '+'; accept it for "+1.5".
  if (!s.empty() && s[0] == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, s.data() + s.size(), v);
  if (ec != std::errc() || !std::isfinite(v)) return std::nullopt;
  if (used) *used = static_cast<size_t>(ptr - s.data());
  return v;
}

std::optional<double> ParseDouble(std::string_view s) {
  size_t used = 0;
  auto v = ParseDoublePrefix(s, &used);
  if (!v || used != s.size()) return std::nullopt;
  return v;
}

std::optional<long long> ParseInt(std::string_view s) {
  long long v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::string KeySegment(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
    out.push_back(ok ? c : '_');
  }
  // push_back, not assignment: GCC 12 warns (-Wrestrict, a false positive) on `out = "_"`.
  if (out.empty()) out.push_back('_');
  return out;
}

namespace {
// Length of the valid UTF-8 sequence at s[i], 0 when invalid.
size_t Utf8Length(std::string_view s, size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  if (n == 2 && b < 0xC2) return 0;  // overlong
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  return n;
}
}  // namespace

std::string PrintableSnippet(std::string_view text, size_t max_chars) {
  static const char kHex[] = "0123456789abcdef";
  // Redacted before it is cut and escaped: a line of an environment dump or a connection string
  // is quoted without its key (a cut could leave a prefix no pattern recognises).
  // Only the part that can be shown is redacted (a bounded cost per line, however long); the
  // rest follows as it is, for callers that scan a whole line for control bytes.
  const size_t shown = std::min<size_t>(text.size(), std::min<size_t>(max_chars, 2048) * 4 + 1024);
  std::string redacted = RedactText(text.substr(0, shown));
  redacted.append(text.substr(shown));
  std::string_view s = redacted;
  std::string out;
  size_t i = 0;
  size_t chars = 0;
  while (i < s.size() && chars < max_chars) {
    auto b = static_cast<unsigned char>(s[i]);
    size_t n = Utf8Length(s, i);
    if (n == 1 && (b >= 0x20 && b != 0x7f)) {
      out.push_back(s[i]);
    } else if (n > 1) {
      out.append(s.substr(i, n));
    } else if (b == '\t') {
      out.push_back(' ');
      n = 1;
    } else {
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
      n = 1;
    }
    i += n;
    ++chars;
  }
  if (i < s.size()) out += "...";
  return out;
}

bool SplitCsvLine(std::string_view line, std::string* scratch, std::vector<std::string_view>* out) {
  out->clear();
  // Fast path: no quotes, fields are views into the line.
  if (line.find('"') == std::string_view::npos) {
    size_t start = 0;
    while (true) {
      size_t comma = line.find(',', start);
      if (comma == std::string_view::npos) {
        out->push_back(line.substr(start));
        return true;
      }
      out->push_back(line.substr(start, comma - start));
      start = comma + 1;
    }
  }
  // Quoted fields are unescaped into `scratch`; views point into it, so reserve up front.
  scratch->clear();
  scratch->reserve(line.size() + 1);
  std::vector<std::pair<size_t, size_t>> spans;
  size_t i = 0;
  while (true) {
    size_t begin = scratch->size();
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            scratch->push_back('"');
            i += 2;
            continue;
          }
          ++i;
          closed = true;
          break;
        }
        scratch->push_back(line[i++]);
      }
      if (!closed) return false;
      while (i < line.size() && line[i] != ',') ++i;  // junk after the closing quote is ignored
    } else {
      while (i < line.size() && line[i] != ',') scratch->push_back(line[i++]);
    }
    spans.emplace_back(begin, scratch->size() - begin);
    if (i >= line.size()) break;
    ++i;  // comma
  }
  for (auto [b, n] : spans) out->push_back(std::string_view(*scratch).substr(b, n));
  return true;
}

}  // namespace feedcheck::analyzers
