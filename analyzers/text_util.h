// Small string helpers shared by the log parsers: no allocation on the hot path.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ascii_text.h"

namespace feedcheck::analyzers {

using feedcheck::EndsWith;
using feedcheck::IContains;
using feedcheck::IEquals;
using feedcheck::StartsWith;
using feedcheck::ToLower;
using feedcheck::Trim;

/// Parses a whole string as a finite double ("2504.39", "1e3"); nullopt on anything else.
std::optional<double> ParseDouble(std::string_view s);
/// Parses the longest numeric prefix; `*used` gets its length.
std::optional<double> ParseDoublePrefix(std::string_view s, size_t* used);
std::optional<long long> ParseInt(std::string_view s);

/// A fact-key segment from free text: [A-Za-z0-9_-] kept, anything else becomes '_'.
std::string KeySegment(std::string_view s);

/// A line made safe to print: secrets redacted (core/redact.h), control bytes and invalid UTF-8
/// escaped as \xNN, cut to `max_chars`.
std::string PrintableSnippet(std::string_view s, size_t max_chars = 160);

/// Splits one CSV record (RFC 4180 quoting within the line). Returns false on an unterminated
/// quote. Fields are appended to `out` (cleared first).
bool SplitCsvLine(std::string_view line, std::string* scratch, std::vector<std::string_view>* out);

}  // namespace feedcheck::analyzers
