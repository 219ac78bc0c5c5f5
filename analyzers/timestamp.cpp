#include "analyzers/timestamp.h"

#include <array>
#include <cstdint>
#include <cstring>

#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

long long DaysFromCivil(long long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

namespace {

// The value of the n digits at p, or -1 when one is not a digit.
inline int DigitsAt(const char* p, size_t n) {
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    auto d = static_cast<unsigned char>(p[i] - '0');
    if (d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

// The weights of the fraction's digits, 0.1, 0.1/10, ... as the loop that divided by 10 at each
// digit computed them (the same doubles, so the same sums), without a division per digit.
constexpr auto kFractionScale = [] {
  std::array<double, 9> scale{};
  double s = 0.1;
  for (double& v : scale) {
    v = s;
    s /= 10;
  }
  return scale;
}();

// Whether the 16 bytes at a and b are equal (two word loads each, not a call).
inline bool SameMinute(const char* a, const char* b) {
  uint64_t a0, a1, b0, b1;
  std::memcpy(&a0, a, 8);
  std::memcpy(&a1, a + 8, 8);
  std::memcpy(&b0, b, 8);
  std::memcpy(&b1, b + 8, 8);
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

}  // namespace

std::optional<double> ParseTimestampPrefix(std::string_view s, size_t* used,
                                           TimestampCache* cache) {
  double epoch_s = 0;
  if (!ParseTimestampPrefix(s, &epoch_s, used, cache)) return std::nullopt;
  return epoch_s;
}

bool ParseTimestampPrefix(std::string_view s, double* epoch_s, size_t* used,
                          TimestampCache* cache) {
  if (s.size() < 19) return false;
  const char* p = s.data();
  double base_s = 0;  // the date, hour and minute in epoch seconds
  if (cache != nullptr && cache->valid && SameMinute(p, cache->minute)) {
    base_s = cache->base_s;  // the same 16 bytes passed every check below before
  } else {
    const int year = DigitsAt(p, 4);
    if (year < 0) return false;
    const char sep = p[4];
    if ((sep != '-' && sep != '/') || p[7] != sep) return false;
    const int month = DigitsAt(p + 5, 2), day = DigitsAt(p + 8, 2);
    if (month < 0 || day < 0) return false;
    if (p[10] != 'T' && p[10] != ' ') return false;
    const int hour = DigitsAt(p + 11, 2), minute = DigitsAt(p + 14, 2);
    if (hour < 0 || p[13] != ':' || minute < 0) return false;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59) return false;
    long long days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    base_s = static_cast<double>(days) * 86400.0 + hour * 3600.0 + minute * 60.0;
    if (cache != nullptr) {
      std::memcpy(cache->minute, p, 16);
      cache->base_s = base_s;
      cache->valid = true;
    }
  }
  const int second = DigitsAt(p + 17, 2);
  if (p[16] != ':' || second < 0 || second > 60) return false;
  size_t pos = 19;
  double fraction = 0;
  if (pos < s.size() && (p[pos] == '.' || p[pos] == ',')) {
    const size_t start = ++pos, n = s.size();
    // Up to nine digits count; more are read and dropped.
    for (size_t k = 0; pos < n && k < kFractionScale.size(); ++pos, ++k) {
      const auto d = static_cast<unsigned char>(p[pos] - '0');
      if (d > 9) break;
      fraction += d * kFractionScale[k];
    }
    while (pos < n && static_cast<unsigned char>(p[pos] - '0') <= 9) ++pos;
    if (pos == start) return false;
  }
  double offset_s = 0;
  if (pos < s.size() && p[pos] == 'Z') {
    ++pos;
  } else if (pos + 6 <= s.size() && (p[pos] == '+' || p[pos] == '-') && p[10] == 'T') {
    const int oh = DigitsAt(p + pos + 1, 2), om = DigitsAt(p + pos + 4, 2);
    if (oh >= 0 && p[pos + 3] == ':' && om >= 0) {
      offset_s = (p[pos] == '+' ? 1 : -1) * (oh * 3600.0 + om * 60.0);
      pos += 6;
    }
  }
  // Summed in the order "days * 86400 + h * 3600 + m * 60 + s + fraction - offset" always was.
  double epoch = base_s + second + fraction - offset_s;
  if (used) *used = pos;
  *epoch_s = epoch;
  return true;
}

std::optional<double> ParseTimestamp(std::string_view s) {
  s = Trim(s);
  size_t used = 0;
  auto t = ParseTimestampPrefix(s, &used);
  if (!t || used != s.size()) return std::nullopt;
  return t;
}

std::optional<double> ParseIsoDuration(std::string_view s) {
  s = Trim(s);
  if (s.empty() || (s[0] != 'P' && s[0] != 'p')) return std::nullopt;
  double total = 0;
  bool in_time = false, any = false;
  size_t i = 1;
  while (i < s.size()) {
    if (s[i] == 'T' || s[i] == 't') {
      in_time = true;
      ++i;
      continue;
    }
    size_t used = 0;
    auto v = ParseDoublePrefix(s.substr(i), &used);
    if (!v || used == 0 || i + used >= s.size()) return std::nullopt;
    i += used;
    char unit = s[i++];
    switch (unit) {
      case 'D':
      case 'd':
        total += *v * 86400;
        break;
      case 'W':
      case 'w':
        total += *v * 7 * 86400;
        break;
      case 'H':
      case 'h':
        if (!in_time) return std::nullopt;
        total += *v * 3600;
        break;
      case 'M':
      case 'm':
        if (!in_time) return std::nullopt;
        total += *v * 60;
        break;
      case 'S':
      case 's':
        if (!in_time) return std::nullopt;
        total += *v;
        break;
      default:
        return std::nullopt;
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return total;
}

}  // namespace feedcheck::analyzers

namespace feedcheck::analyzers {

std::optional<double> ParseClockDuration(std::string_view s) {
  s = Trim(s);
  double days = 0;
  // Python's str(timedelta): "1 day, 0:00:00", "2 days, 12:00:00".
  if (size_t comma = s.find(", "); comma != std::string_view::npos) {
    std::string_view head = s.substr(0, comma);
    size_t sp = head.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    std::string_view unit = head.substr(sp + 1);
    if (unit != "day" && unit != "days") return std::nullopt;
    auto d = ParseDouble(head.substr(0, sp));
    if (!d || *d < 0 || *d > 3650) return std::nullopt;
    days = *d;
    s = s.substr(comma + 2);
  }
  size_t c1 = s.find(':');
  size_t c2 = c1 == std::string_view::npos ? c1 : s.find(':', c1 + 1);
  if (c1 == std::string_view::npos || c2 == std::string_view::npos || c1 == 0 || c1 > 2 ||
      c2 != c1 + 3)
    return std::nullopt;
  auto h = ParseDouble(s.substr(0, c1));
  auto m = ParseDouble(s.substr(c1 + 1, 2));
  auto sec = ParseDouble(s.substr(c2 + 1));
  if (!h || !m || !sec || *h < 0 || *h >= 24 || *m < 0 || *m >= 60 || *sec < 0 || *sec >= 60)
    return std::nullopt;
  return days * 86400 + *h * 3600 + *m * 60 + *sec;
}

std::optional<double> ParseMetricInterval(std::string_view s) {
  if (auto iso = ParseIsoDuration(s)) return iso;
  return ParseClockDuration(s);
}

}  // namespace feedcheck::analyzers
