// Units in one place: parsing and printing of sizes, rates, durations and the unit
// metadata every fact carries.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace feedcheck {

/// What a quantity measures. Two units convert into each other only within one dimension.
enum class Dimension {
  kCount,
  kBytes,
  kBitRate,
  kDuration,
  kFrequency,
  kRatio,
  kCpuCost,
  kText,
  kBool
};

/// The unit a fact is stored in. Fact keys name their unit (`_ms`, `_gbps`, `_bytes`).
enum class Unit {
  kCount,           ///< plain number (files, pages, retries)
  kBytes,           ///< bytes
  kGbps,            ///< Gbit/s (1e9 bit/s)
  kMbps,            ///< Mbit/s
  kBytesPerSecond,  ///< B/s, a bit rate in bytes
  kSeconds,
  kMilliseconds,
  kMicroseconds,
  kPerSecond,        ///< events (requests, entries) per second
  kFraction,         ///< 0..1
  kPercent,          ///< 0..100
  kCpuSecondsPerGB,  ///< CPU seconds spent per 1e9 bytes moved
  kText,
  kBool,
};

struct UnitInfo {
  Unit unit;
  std::string_view name;  ///< canonical short name: "bytes", "Gbit/s", "ms"
  Dimension dimension;
  double scale_to_base;  ///< bytes, bit/s, seconds, 1/s, fraction
};

const UnitInfo& InfoOf(Unit unit);
std::string_view UnitName(Unit unit);
std::optional<Unit> UnitFromName(std::string_view name);
std::string_view DimensionName(Dimension dimension);

/// Converts `value` from one unit to another of the same dimension; nullopt otherwise.
std::optional<double> Convert(double value, Unit from, Unit to);

/// A number with a unit, as written by a user: "4MiB", "24Gbit/s", "20ms", "0.5".
struct Quantity {
  double value = 0;
  Unit unit = Unit::kCount;
};

/// Parses a number with an optional unit suffix (space allowed between). Sizes: B, KB, MB, GB,
/// TB, PB (powers of 1000) and KiB, MiB, GiB, TiB, PiB (powers of 1024); a bare K, M, G, T
/// means KiB, MiB, GiB, TiB as in fio and dd. Rates: bit/s, kbit/s, Mbit/s, Gbit/s, Tbit/s,
/// Mbps, Gbps, B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s. Durations: ns, us, µs, ms, s, min, h.
/// Frequency: /s, req/s. Ratio: %. Thousands separators (1,500) are accepted.
/// Returns nullopt and sets `error` when the text is not a quantity.
std::optional<Quantity> ParseQuantity(std::string_view text, std::string* error = nullptr);

/// Parses a size into bytes; rejects non-size units.
std::optional<double> ParseBytes(std::string_view text, std::string* error = nullptr);
/// Parses a rate into bits per second; a bare number is rejected (ambiguous).
std::optional<double> ParseBitsPerSecond(std::string_view text, std::string* error = nullptr);
/// Parses a duration into seconds; a bare number means seconds.
std::optional<double> ParseSeconds(std::string_view text, std::string* error = nullptr);

/// What every formatter below prints for a value that is not a finite number (NaN, an infinity,
/// or a finite value whose conversion to the printed unit overflows): never "inf" or "nan".
inline constexpr std::string_view kNotFiniteText = "n/a";

/// "4.00 MiB", "500 KB"-style printing: a size that is round in powers of 1000 and not in
/// powers of 1024 (what a user wrote as 100GB or 1MB) prints as given, "100 GB", "1 MB"; any
/// other in binary units, unless `decimal` asks for powers of 1000.
std::string FormatBytes(double bytes, bool decimal = false);
/// "1.50 Gbit/s", "187.5 Mbit/s".
std::string FormatBitRate(double bits_per_second);
/// "187.5 MB/s" (decimal bytes per second).
std::string FormatByteRate(double bytes_per_second);
/// "23.2 µs", "2.50 ms", "1.23 s", "4 min 27 s".
std::string FormatSeconds(double seconds);
/// Prints a value in its unit for humans: FormatValue(4194304, kBytes) == "4.00 MiB".
std::string FormatValue(double value, Unit unit);
/// Shortest round-trip-ish plain number: 120 -> "120", 0.5 -> "0.5", 1/3 -> "0.333".
std::string FormatNumber(double value, int significant = 3);
/// FormatNumber with thousands separators in the integer part: 549316 -> "549,316",
/// 1234.5 -> "1,235", 0.25 -> "0.25". For counts and rates people read, never for parsing.
std::string FormatGrouped(double value, int significant = 3);

}  // namespace feedcheck
