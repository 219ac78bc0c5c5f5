#include "probes/test_prefix_name.h"

#include <fmt/format.h>

#include <charconv>
#include <climits>

namespace feedcheck {
namespace {

constexpr std::string_view kHead = "feedcheck-test-";

bool Digits(std::string_view s, uint64_t* out) {
  if (s.empty() || s.size() > 19) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string FormatTestPrefixSegment(const TestPrefixName& name) {
  std::tm tm{};
  gmtime_r(&name.utc_s, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
  return fmt::format("{}{}-{}-{:08x}", kHead, stamp, name.pid, name.random);
}

std::optional<TestPrefixName> ParseTestPrefixSegment(std::string_view s) {
  // Read the fields loosely, then demand that formatting them gives back exactly `s`: whatever
  // the generator cannot produce (a month 99, leading zeros, uppercase hex) fails the compare.
  if (s.size() > 64 || s.substr(0, kHead.size()) != kHead) return std::nullopt;
  std::string_view rest = s.substr(kHead.size());
  if (rest.size() < 16 || rest[8] != 'T' || rest[15] != 'Z') return std::nullopt;
  uint64_t date = 0, time = 0, pid = 0, random = 0;
  if (!Digits(rest.substr(0, 8), &date) || !Digits(rest.substr(9, 6), &time)) return std::nullopt;
  rest.remove_prefix(16);
  if (rest.size() < 2 || rest[0] != '-') return std::nullopt;
  size_t dash = rest.find('-', 1);
  if (dash == std::string_view::npos || !Digits(rest.substr(1, dash - 1), &pid) || pid == 0 ||
      pid > INT_MAX)
    return std::nullopt;
  std::string_view hex = rest.substr(dash + 1);
  if (hex.size() != 8) return std::nullopt;
  auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), random, 16);
  if (ec != std::errc() || end != hex.data() + hex.size()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = static_cast<int>(date / 10000) - 1900;
  tm.tm_mon = static_cast<int>(date / 100 % 100) - 1;
  tm.tm_mday = static_cast<int>(date % 100);
  tm.tm_hour = static_cast<int>(time / 10000);
  tm.tm_min = static_cast<int>(time / 100 % 100);
  tm.tm_sec = static_cast<int>(time % 100);
  TestPrefixName name;
  name.utc_s = timegm(&tm);  // normalises a month 99; the compare below then fails
  name.pid = static_cast<uint32_t>(pid);
  name.random = static_cast<uint32_t>(random);
  if (FormatTestPrefixSegment(name) != s) return std::nullopt;
  return name;
}

}  // namespace feedcheck
