// Golden-file matching with loose numbers, after google/benchmark's output tests: each golden
// line is literal text except for placeholders:
//   %float  a number (integer, decimal or exponent form)     %int  digits
//   %any    anything to the end of the line
// so the shape is pinned while numbers may drift in their last digits.
#pragma once

#include <string>

namespace feedcheck::testing {

/// True when `actual` matches the golden text line for line; otherwise `why` names the first
/// line that differs, with both versions.
bool MatchesGolden(const std::string& actual, const std::string& golden, std::string* why);

std::string ReadFileOrEmpty(const std::string& path);

}  // namespace feedcheck::testing
