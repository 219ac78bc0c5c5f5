// ASCII text helpers every layer needs (header names, VM sizes, regions, log fields): trimming,
// case folding, prefix tests. ASCII only on purpose: the inputs are protocol and log tokens, and a
// locale must never change how "Standard_ND96asr_v4" or "x-ms-error-code" compares.
#pragma once

#include <string>
#include <string_view>

namespace feedcheck {

/// Without leading and trailing spaces, tabs, CR, LF, VT and FF.
std::string_view Trim(std::string_view s);
std::string ToLower(std::string_view s);
std::string ToUpper(std::string_view s);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
/// Case-insensitive (ASCII) equality and substring test.
bool IEquals(std::string_view a, std::string_view b);
bool IContains(std::string_view haystack, std::string_view needle);

}  // namespace feedcheck
