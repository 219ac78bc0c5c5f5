#include "analyzers/clock_offset.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdlib>

namespace feedcheck::analyzers {

namespace {
constexpr double kStepS = 15 * 60;
constexpr int kMaxSteps = 14 * 4;  // UTC-12 .. UTC+14
}  // namespace

std::optional<double> LocalClockOffsetS(double samples_first_s, double samples_last_s,
                                        double logs_first_s, double logs_last_s, double slack_s) {
  if (!(samples_first_s <= samples_last_s) || !(logs_first_s <= logs_last_s)) return std::nullopt;
  auto overlaps = [&](double offset_s) {
    return samples_first_s + offset_s <= logs_last_s + slack_s &&
           samples_last_s + offset_s >= logs_first_s - slack_s;
  };
  if (overlaps(0)) return std::nullopt;
  std::optional<double> best;
  double best_miss = 0;
  for (int k = -kMaxSteps; k <= kMaxSteps; ++k) {
    if (k == 0) continue;
    double offset = k * kStepS;
    if (!overlaps(offset)) continue;
    double miss = std::fabs(samples_first_s + offset - logs_first_s);
    if (!best || miss < best_miss || (miss == best_miss && std::fabs(offset) < std::fabs(*best))) {
      best = offset;
      best_miss = miss;
    }
  }
  return best;
}

std::optional<double> ParseUtcOffsetS(std::string_view text, std::string* error) {
  auto fail = [&]() -> std::optional<double> {
    *error = fmt::format(
        "'{}' is not a UTC offset: give the zone nvidia-smi's clock was in as +HH:MM or -HH:MM "
        "(+05:30, -07:00, +00:00), a whole quarter hour from -12:00 to +14:00",
        text);
    return std::nullopt;
  };
  std::string_view s = text;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.size() >= 3 && (s.substr(0, 3) == "UTC" || s.substr(0, 3) == "GMT")) s.remove_prefix(3);
  if (s.empty() || s == "Z") return 0.0;
  if (s.front() != '+' && s.front() != '-') return fail();
  const int sign = s.front() == '-' ? -1 : 1;
  s.remove_prefix(1);
  size_t colon = s.find(':');
  std::string_view hh = colon == std::string_view::npos ? s : s.substr(0, colon);
  std::string_view mm = colon == std::string_view::npos ? std::string_view{} : s.substr(colon + 1);
  if (colon == std::string_view::npos && hh.size() == 4) {  // +0530
    mm = hh.substr(2);
    hh = hh.substr(0, 2);
  }
  auto number = [](std::string_view d, int* out) {
    if (d.empty() || d.size() > 2) return false;
    for (char c : d)
      if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    *out = std::atoi(std::string(d).c_str());
    return true;
  };
  int hours = 0, minutes = 0;
  if (!number(hh, &hours)) return fail();
  if (colon != std::string_view::npos || !mm.empty())
    if (mm.size() != 2 || !number(mm, &minutes)) return fail();
  if (minutes % 15 != 0 || minutes >= 60) return fail();
  const int total_min = sign * (hours * 60 + minutes);
  if (total_min < -12 * 60 || total_min > 14 * 60) return fail();
  return total_min * 60.0;
}

std::string UtcOffsetName(double offset_s) {
  int minutes = static_cast<int>(std::lround(offset_s / 60));
  return fmt::format("UTC{}{:02d}:{:02d}", minutes < 0 ? '-' : '+', std::abs(minutes) / 60,
                     std::abs(minutes) % 60);
}

}  // namespace feedcheck::analyzers
