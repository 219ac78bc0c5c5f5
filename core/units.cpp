#include "core/units.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <utility>

#include "core/ascii_text.h"

namespace feedcheck {
namespace {

constexpr std::array<UnitInfo, 14> kUnits{{
    {Unit::kCount, "count", Dimension::kCount, 1},
    {Unit::kBytes, "bytes", Dimension::kBytes, 1},
    {Unit::kGbps, "Gbit/s", Dimension::kBitRate, 1e9},
    {Unit::kMbps, "Mbit/s", Dimension::kBitRate, 1e6},
    {Unit::kBytesPerSecond, "B/s", Dimension::kBitRate, 8},
    {Unit::kSeconds, "s", Dimension::kDuration, 1},
    {Unit::kMilliseconds, "ms", Dimension::kDuration, 1e-3},
    // One spelling wherever people read it ("55 \xC2\xB5s" in FormatSeconds too).
    {Unit::kMicroseconds, "\xC2\xB5s", Dimension::kDuration, 1e-6},
    {Unit::kPerSecond, "/s", Dimension::kFrequency, 1},
    {Unit::kFraction, "fraction", Dimension::kRatio, 1},
    {Unit::kPercent, "%", Dimension::kRatio, 0.01},
    {Unit::kCpuSecondsPerGB, "cpu-s/GB", Dimension::kCpuCost, 1},
    {Unit::kText, "text", Dimension::kText, 1},
    {Unit::kBool, "bool", Dimension::kBool, 1},
}};

struct Suffix {
  std::string_view text;
  Unit unit;
  double multiplier;  // applied to the number to get a value in `unit`
};

// Longest suffixes first is not required: matching is exact on the whole suffix.
constexpr std::array<Suffix, 52> kSuffixes{{
    {"B", Unit::kBytes, 1},
    {"KB", Unit::kBytes, 1e3},
    {"kB", Unit::kBytes, 1e3},
    {"MB", Unit::kBytes, 1e6},
    {"GB", Unit::kBytes, 1e9},
    {"TB", Unit::kBytes, 1e12},
    {"PB", Unit::kBytes, 1e15},
    {"KiB", Unit::kBytes, 1024.0},
    {"MiB", Unit::kBytes, 1048576.0},
    {"GiB", Unit::kBytes, 1073741824.0},
    {"TiB", Unit::kBytes, 1099511627776.0},
    {"PiB", Unit::kBytes, 1125899906842624.0},
    {"K", Unit::kBytes, 1024.0},
    {"M", Unit::kBytes, 1048576.0},
    {"G", Unit::kBytes, 1073741824.0},
    {"T", Unit::kBytes, 1099511627776.0},
    {"bytes", Unit::kBytes, 1},
    {"bit/s", Unit::kMbps, 1e-6},
    {"bps", Unit::kMbps, 1e-6},
    {"kbit/s", Unit::kMbps, 1e-3},
    {"Kbit/s", Unit::kMbps, 1e-3},
    {"kbps", Unit::kMbps, 1e-3},
    {"Mbit/s", Unit::kMbps, 1},
    {"Mbps", Unit::kMbps, 1},
    {"Mb/s", Unit::kMbps, 1},
    {"Gbit/s", Unit::kGbps, 1},
    {"Gbps", Unit::kGbps, 1},
    {"Gb/s", Unit::kGbps, 1},
    {"Tbit/s", Unit::kGbps, 1e3},
    {"Tbps", Unit::kGbps, 1e3},
    {"B/s", Unit::kBytesPerSecond, 1},
    {"KB/s", Unit::kBytesPerSecond, 1e3},
    {"MB/s", Unit::kBytesPerSecond, 1e6},
    {"GB/s", Unit::kBytesPerSecond, 1e9},
    {"KiB/s", Unit::kBytesPerSecond, 1024.0},
    {"MiB/s", Unit::kBytesPerSecond, 1048576.0},
    {"GiB/s", Unit::kBytesPerSecond, 1073741824.0},
    {"ns", Unit::kMicroseconds, 1e-3},
    {"us", Unit::kMicroseconds, 1},
    {"\xC2\xB5s", Unit::kMicroseconds, 1},  // U+00B5 MICRO SIGN
    {"\xCE\xBCs", Unit::kMicroseconds, 1},  // U+03BC GREEK SMALL LETTER MU
    {"ms", Unit::kMilliseconds, 1},
    {"s", Unit::kSeconds, 1},
    {"sec", Unit::kSeconds, 1},
    {"min", Unit::kSeconds, 60},
    {"h", Unit::kSeconds, 3600},
    {"/s", Unit::kPerSecond, 1},
    {"req/s", Unit::kPerSecond, 1},
    {"ops/s", Unit::kPerSecond, 1},
    {"%", Unit::kPercent, 1},
    {"x", Unit::kCount, 1},
    {"count", Unit::kCount, 1},
}};

void SetError(std::string* error, std::string message) {
  if (error) *error = std::move(message);
}

}  // namespace

const UnitInfo& InfoOf(Unit unit) {
  for (const auto& info : kUnits)
    if (info.unit == unit) return info;
  return kUnits[0];
}

std::string_view UnitName(Unit unit) { return InfoOf(unit).name; }

std::optional<Unit> UnitFromName(std::string_view name) {
  for (const auto& info : kUnits)
    if (info.name == name) return info.unit;
  if (name == "us") return Unit::kMicroseconds;  // the ASCII spelling, as saved by older builds
  return std::nullopt;
}

std::string_view DimensionName(Dimension dimension) {
  switch (dimension) {
    case Dimension::kCount:
      return "count";
    case Dimension::kBytes:
      return "size";
    case Dimension::kBitRate:
      return "rate";
    case Dimension::kDuration:
      return "duration";
    case Dimension::kFrequency:
      return "frequency";
    case Dimension::kRatio:
      return "ratio";
    case Dimension::kCpuCost:
      return "cpu cost";
    case Dimension::kText:
      return "text";
    case Dimension::kBool:
      return "bool";
  }
  return "?";
}

std::optional<double> Convert(double value, Unit from, Unit to) {
  const UnitInfo& a = InfoOf(from);
  const UnitInfo& b = InfoOf(to);
  if (a.dimension != b.dimension) return std::nullopt;
  if (from == to) return value;
  return value * a.scale_to_base / b.scale_to_base;
}

std::optional<Quantity> ParseQuantity(std::string_view text, std::string* error) {
  std::string_view s = Trim(text);
  if (s.empty()) {
    SetError(error, "empty value");
    return std::nullopt;
  }
  // Number part: digits, one '.', thousands separators, optional exponent.
  std::string number;
  size_t i = 0;
  if (s[i] == '+' || s[i] == '-') number += s[i++];
  bool digits = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      number += c;
      digits = true;
    } else if (c == '.') {
      number += c;
    } else if (c == ',' && digits && i + 3 < s.size() + 1 &&
               std::isdigit(static_cast<unsigned char>(i + 1 < s.size() ? s[i + 1] : 'x'))) {
      continue;  // 1,500 -> 1500
    } else if ((c == 'e' || c == 'E') && digits && i + 1 < s.size() &&
               (std::isdigit(static_cast<unsigned char>(s[i + 1])) || s[i + 1] == '-' ||
                s[i + 1] == '+')) {
      number += c;
      number += s[++i];
    } else {
      break;
    }
  }
  if (!digits) {
    SetError(error, fmt::format("'{}' is not a number", text));
    return std::nullopt;
  }
  double value = 0;
  auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec != std::errc() || ptr != number.data() + number.size() || !std::isfinite(value)) {
    SetError(error, fmt::format("'{}' is not a number", text));
    return std::nullopt;
  }
  std::string_view suffix = Trim(s.substr(i));
  if (suffix.empty()) return Quantity{value, Unit::kCount};
  for (const auto& sfx : kSuffixes) {
    if (sfx.text != suffix) continue;
    // The number was finite; its scaled value may not be ("1e308TB").
    const double scaled = value * sfx.multiplier;
    if (!std::isfinite(scaled)) {
      SetError(error, fmt::format("'{}' is too large", text));
      return std::nullopt;
    }
    return Quantity{scaled, sfx.unit};
  }
  SetError(error, fmt::format("unknown unit '{}' in '{}'", suffix, text));
  return std::nullopt;
}

namespace {
// The value in `base` units times `scale` (bit/s are Mbit/s x 1e6); an overflow is an error.
std::optional<double> ParseIn(std::string_view text, Dimension dimension, Unit base,
                              bool bare_allowed, std::string* error, double scale = 1) {
  auto q = ParseQuantity(text, error);
  if (!q) return std::nullopt;
  if (q->unit == Unit::kCount) {
    if (bare_allowed) return q->value;
    SetError(error, fmt::format("'{}' needs a unit (for example {})", text,
                                dimension == Dimension::kBitRate ? "10Gbit/s" : "4MiB"));
    return std::nullopt;
  }
  auto v = Convert(q->value, q->unit, base);
  if (!v) {
    SetError(error,
             fmt::format("'{}' is a {}, expected a {}", text,
                         DimensionName(InfoOf(q->unit).dimension), DimensionName(dimension)));
    return std::nullopt;
  }
  if (!std::isfinite(*v * scale)) {
    SetError(error, fmt::format("'{}' is too large", text));
    return std::nullopt;
  }
  return *v * scale;
}
}  // namespace

namespace {
// "1h30m", "2m", "1m30s", "1.5h", "2m500ms": number-unit pairs as Go's time.ParseDuration, warp
// and fio write them, largest unit first. Only for durations: elsewhere "m" means nothing.
std::optional<double> ParseCompoundDuration(std::string_view text) {
  static constexpr std::pair<std::string_view, double> kParts[] = {
      {"h", 3600}, {"min", 60}, {"ms", 1e-3}, {"m", 60}, {"s", 1}, {"us", 1e-6}};
  std::string_view s = Trim(text);
  double total = 0;
  double last_scale = 1e9;  // each part smaller than the one before
  int parts = 0;
  while (!s.empty()) {
    size_t n = 0;
    while (n < s.size() && (std::isdigit(static_cast<unsigned char>(s[n])) || s[n] == '.')) ++n;
    if (n == 0 || n > 32) return std::nullopt;
    double value = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + n, value);
    if (ec != std::errc() || ptr != s.data() + n) return std::nullopt;
    s.remove_prefix(n);
    const std::pair<std::string_view, double>* unit = nullptr;
    for (const auto& part : kParts) {
      if (s.substr(0, part.first.size()) == part.first) {
        unit = &part;
        break;
      }
    }
    if (unit == nullptr || unit->second >= last_scale) return std::nullopt;
    last_scale = unit->second;
    s.remove_prefix(unit->first.size());
    total += value * unit->second;
    ++parts;
  }
  if (parts == 0 || !std::isfinite(total)) return std::nullopt;
  return total;
}

// "4mib" -> "4MiB", "100gb" -> "100GB", "64k" -> "64K": size suffixes in any case.
std::string CanonicalSizeCase(std::string_view text) {
  std::string out(text);
  size_t i = 0;
  while (i < out.size() && !std::isalpha(static_cast<unsigned char>(out[i]))) ++i;
  for (size_t k = i; k < out.size(); ++k)
    out[k] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[k])));
  if (out.size() >= i + 3 && out.compare(out.size() - 2, 2, "IB") == 0) out[out.size() - 2] = 'i';
  return out;
}
}  // namespace

std::optional<double> ParseBytes(std::string_view text, std::string* error) {
  std::string first_error;
  auto v = ParseIn(text, Dimension::kBytes, Unit::kBytes, true, &first_error);
  if (!v) {
    std::string canonical = CanonicalSizeCase(text);
    if (canonical != text) v = ParseIn(canonical, Dimension::kBytes, Unit::kBytes, true, nullptr);
    if (!v) {
      SetError(error, first_error);
      return std::nullopt;
    }
  }
  if (v && *v < 0) {
    SetError(error, fmt::format("'{}' is negative", text));
    return std::nullopt;
  }
  return v;
}

std::optional<double> ParseBitsPerSecond(std::string_view text, std::string* error) {
  return ParseIn(text, Dimension::kBitRate, Unit::kMbps, false, error, 1e6);
}

std::optional<double> ParseSeconds(std::string_view text, std::string* error) {
  std::string first_error;
  auto v = ParseIn(text, Dimension::kDuration, Unit::kSeconds, true, &first_error);
  if (v) return v;
  if (auto compound = ParseCompoundDuration(text)) return compound;
  SetError(error, first_error + " (durations: 90, 90s, 500ms, 2m, 1h30m)");
  return std::nullopt;
}

std::string FormatNumber(double value, int significant) {
  if (!std::isfinite(value)) return std::string(kNotFiniteText);
  if (value == std::floor(value) && std::fabs(value) < 1e15) return fmt::format("{:.0f}", value);
  double magnitude = std::fabs(value);
  int decimals = significant - 1 - static_cast<int>(std::floor(std::log10(magnitude)));
  if (decimals < 0) decimals = 0;
  if (decimals > 9) decimals = 9;
  std::string s = fmt::format("{:.{}f}", value, decimals);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  return s;
}

std::string FormatGrouped(double value, int significant) {
  if (!std::isfinite(value)) return std::string(kNotFiniteText);
  std::string plain = FormatNumber(value, significant);
  size_t begin = plain.empty() || plain[0] != '-' ? 0 : 1;
  size_t end = std::min(plain.find('.'), plain.size());
  // Built anew rather than by insert(): GCC 12 flags insert() in a loop (-Wrestrict).
  std::string out = plain.substr(0, begin);
  for (size_t i = begin; i < end; ++i) {
    if (i > begin && (end - i) % 3 == 0) out += ',';
    out += plain[i];
  }
  return out + plain.substr(end);
}

namespace {
std::string Scaled(double value, double step, const std::array<std::string_view, 6>& names) {
  if (!std::isfinite(value)) return std::string(kNotFiniteText);
  size_t i = 0;
  double v = value;
  while (std::fabs(v) >= step && i + 1 < names.size()) {
    v /= step;
    ++i;
  }
  if (i == 0) return fmt::format("{} {}", FormatNumber(v), names[0]);
  return fmt::format("{:.{}f} {}", v, std::fabs(v) < 10 ? 2 : (std::fabs(v) < 100 ? 1 : 0),
                     names[i]);
}
}  // namespace

namespace {
// Whether `bytes` is a whole number of hundredths of a power of `base` (1.5 TB, 100 GB, 64 MiB):
// how a size reads when someone typed it.
bool RoundIn(double bytes, double base) {
  if (!(bytes >= base) || !std::isfinite(bytes)) return false;
  double v = bytes;
  while (v >= base) v /= base;
  double hundredths = v * 100;
  return std::fabs(hundredths - std::round(hundredths)) < 1e-6;
}
}  // namespace

std::string FormatBytes(double bytes, bool decimal) {
  if (!std::isfinite(bytes)) return std::string(kNotFiniteText);
  if (!decimal && RoundIn(bytes, 1000) && !RoundIn(bytes, 1024)) {
    // As typed: "1 MB", "1.5 TB", "100 GB", without padding zeros.
    static constexpr std::array<std::string_view, 6> kNames{"B", "KB", "MB", "GB", "TB", "PB"};
    size_t i = 0;
    double v = bytes;
    while (v >= 1000 && i + 1 < kNames.size()) v /= 1000, ++i;
    return fmt::format("{} {}", FormatNumber(v, 6), kNames[i]);
  }
  if (decimal) return Scaled(bytes, 1000, {"B", "KB", "MB", "GB", "TB", "PB"});
  return Scaled(bytes, 1024, {"B", "KiB", "MiB", "GiB", "TiB", "PiB"});
}

std::string FormatBitRate(double bits_per_second) {
  return Scaled(bits_per_second, 1000, {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s", "Pbit/s"});
}

std::string FormatByteRate(double bytes_per_second) {
  return Scaled(bytes_per_second, 1000, {"B/s", "KB/s", "MB/s", "GB/s", "TB/s", "PB/s"});
}

std::string FormatSeconds(double seconds) {
  if (!std::isfinite(seconds)) return std::string(kNotFiniteText);
  double a = std::fabs(seconds);
  if (a == 0) return "0 s";
  if (a < 1e-6) return fmt::format("{} ns", FormatNumber(seconds * 1e9));
  if (a < 1e-3) return fmt::format("{} \xC2\xB5s", FormatNumber(seconds * 1e6));
  if (a < 1) return fmt::format("{} ms", FormatNumber(seconds * 1e3));
  if (a < 120) return fmt::format("{} s", FormatNumber(seconds));
  if (std::round(a) < 7200) {
    // Round first, so 20 min 59.6 s reads "21 min 0 s", never "20 min 60 s".
    double r = std::round(a);
    double m = std::floor(r / 60);
    return fmt::format("{}{:.0f} min {:.0f} s", seconds < 0 ? "-" : "", m, r - m * 60);
  }
  const char* sign = seconds < 0 ? "-" : "";
  if (std::round(a / 60) * 60 < 48 * 3600) {
    double r = std::round(a / 60) * 60;
    double h = std::floor(r / 3600);
    return fmt::format("{}{:.0f} h {:.0f} min", sign, h, (r - h * 3600) / 60);
  }
  // Past two days hours stop being read; past two years, days too.
  constexpr double kYear = 365.25 * 86400;
  if (a >= 2 * kYear) return fmt::format("{}{} years", sign, FormatGrouped(a / kYear));
  double r = std::round(a / 3600) * 3600;
  double d = std::floor(r / 86400);
  return fmt::format("{}{} d {:.0f} h", sign, FormatGrouped(d), (r - d * 86400) / 3600);
}

std::string FormatValue(double value, Unit unit) {
  // One place for every unit: the conversions below (Gbit/s to bit/s, a fraction to percent)
  // may overflow a finite value too, which the formatters they call refuse the same way.
  if (!std::isfinite(value)) return std::string(kNotFiniteText);
  auto with_unit = [](std::string number, std::string_view unit_text) {
    return number == kNotFiniteText ? number : number + std::string(unit_text);
  };
  switch (unit) {
    case Unit::kBytes:
      return FormatBytes(value);
    case Unit::kGbps:
      return FormatBitRate(value * 1e9);
    case Unit::kMbps:
      return FormatBitRate(value * 1e6);
    case Unit::kBytesPerSecond:
      return FormatByteRate(value);
    case Unit::kSeconds:
      return FormatSeconds(value);
    case Unit::kMilliseconds:
      return FormatSeconds(value / 1e3);
    case Unit::kMicroseconds:
      return FormatSeconds(value / 1e6);
    case Unit::kPerSecond:
      return with_unit(FormatGrouped(value), "/s");
    case Unit::kFraction:
      return with_unit(FormatNumber(value * 100), "%");
    case Unit::kPercent:
      return with_unit(FormatNumber(value), "%");
    case Unit::kCpuSecondsPerGB:
      return with_unit(FormatNumber(value), " CPU-s/GB");
    case Unit::kBool:
      return value != 0 ? "true" : "false";
    case Unit::kCount:
      return FormatGrouped(value);
    case Unit::kText:
      break;
  }
  return FormatNumber(value);
}

}  // namespace feedcheck
