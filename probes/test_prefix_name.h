// The one grammar of the prefixes --create-test-data writes under,
// "feedcheck-test-<YYYYMMDDTHHMMSSZ>-<pid>-<8 lowercase hex digits>": the generator formats it
// and `feedcheck cleanup` matches it through the same function, so cleanup can only ever take a
// name this tool could have made (no uppercase hex, no month 99, no 27-digit pid).
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace feedcheck {

struct TestPrefixName {
  std::time_t utc_s = 0;  ///< when the run started (UTC, whole seconds)
  uint32_t pid = 0;       ///< the run's process id (1..2^31-1, as pid_t allows)
  uint32_t random = 0;    ///< 32 random bits
};

/// The segment, without a slash: "feedcheck-test-20261122T035500Z-4242-1a2b3c4d".
std::string FormatTestPrefixSegment(const TestPrefixName& name);

/// The fields of a segment that FormatTestPrefixSegment makes exactly (it is parsed, formatted
/// again and compared); nullopt for anything else.
std::optional<TestPrefixName> ParseTestPrefixSegment(std::string_view segment);

}  // namespace feedcheck
