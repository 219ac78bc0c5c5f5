// Timestamps in the formats the inputs use, parsed without locale or allocation:
// rslex "2023-05-18T14:08:25.388670Z", Python logging "2023-05-18 17:14:47,790",
// nvidia-smi "2024/03/15 13:57:59.791", Azure Monitor "2021-04-20T09:00:00Z" and ISO 8601
// durations ("PT1M"). A time without a zone is taken as UTC (the container clock).
#pragma once

#include <optional>
#include <string_view>

namespace feedcheck::analyzers {

/// 10000-01-01T00:00:00Z in epoch seconds: past every time the parsers below can read (4-digit
/// years). A time beyond it (an epoch-milliseconds field, say) is not a clock reading.
inline constexpr double kEndOfYear9999EpochS = 253402300800.0;

/// The date, hour and minute of the last timestamp read ("2023-05-18T14:08"): a log's lines
/// share them for a minute at a time, and so skip their checks and the calendar arithmetic.
struct TimestampCache {
  bool valid = false;
  char minute[16] = {};
  double base_s = 0;  ///< epoch seconds of that minute, as the full parse sums them
};

/// Epoch seconds of a date-time at the start of `s`; `*used` gets the characters consumed.
/// Accepts '-' or '/' in the date, 'T' or ' ' between date and time, '.' or ',' before the
/// fraction, and an optional 'Z' or +HH:MM / -HH:MM offset. With a cache, the same value.
std::optional<double> ParseTimestampPrefix(std::string_view s, size_t* used = nullptr,
                                           TimestampCache* cache = nullptr);
/// The same, for loops over every line: false instead of nullopt, the seconds in `*epoch_s`
/// (an optional<double> returned through memory stalls the caller on each line).
bool ParseTimestampPrefix(std::string_view s, double* epoch_s, size_t* used, TimestampCache* cache);
/// The whole string must be a timestamp (surrounding spaces allowed).
std::optional<double> ParseTimestamp(std::string_view s);

/// Seconds in an ISO 8601 duration: "PT1M" = 60, "PT1H" = 3600, "P1D" = 86400, "PT30S".
std::optional<double> ParseIsoDuration(std::string_view s);

/// Seconds in a clock-style duration, as `az ... -o json` prints a timedelta: "0:01:00" = 60,
/// "0:05:00" = 300, "1:00:00" = 3600, "1 day, 0:00:00" = 86400.
std::optional<double> ParseClockDuration(std::string_view s);

/// An Azure Monitor response's `interval`: ISO 8601 (REST: "PT5M") or clock style (az CLI:
/// "0:05:00").
std::optional<double> ParseMetricInterval(std::string_view s);

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
long long DaysFromCivil(long long y, unsigned m, unsigned d);

}  // namespace feedcheck::analyzers
