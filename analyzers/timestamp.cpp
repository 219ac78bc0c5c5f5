#include "analyzers/timestamp.h"

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

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::optional<double> ParseTimestampPrefix(std::string_view s, size_t* used) {
  int year, month, day, hour, minute, second;
  if (!Digits(s, 0, 4, &year) || s.size() < 19) return std::nullopt;
  char sep = s[4];
  if ((sep != '-' && sep != '/') || s[7] != sep) return std::nullopt;
  if (!Digits(s, 5, 2, &month) || !Digits(s, 8, 2, &day)) return std::nullopt;
  if (s[10] != 'T' && s[10] != ' ') return std::nullopt;
  if (!Digits(s, 11, 2, &hour) || s[13] != ':' || !Digits(s, 14, 2, &minute) || s[16] != ':' ||
      !Digits(s, 17, 2, &second))
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return std::nullopt;
  size_t pos = 19;
  double fraction = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    size_t start = ++pos;
    double scale = 0.1;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (pos - start < 9) fraction += (s[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) return std::nullopt;
  }
  double offset_s = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos + 6 <= s.size() && (s[pos] == '+' || s[pos] == '-') && s[10] == 'T') {
    int oh, om;
    if (Digits(s, pos + 1, 2, &oh) && s[pos + 3] == ':' && Digits(s, pos + 4, 2, &om)) {
      offset_s = (s[pos] == '+' ? 1 : -1) * (oh * 3600.0 + om * 60.0);
      pos += 6;
    }
  }
  long long days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  double epoch = static_cast<double>(days) * 86400.0 + hour * 3600.0 + minute * 60.0 + second +
                 fraction - offset_s;
  if (used) *used = pos;
  return epoch;
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
