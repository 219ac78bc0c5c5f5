// Report <-> JSON: the saved result (RESULT.json) that `feedcheck report` re-renders. Only this
// pair knows the layout; the evidence inside uses core's facts.json layout.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "core/diagnostic.h"
#include "reports/report.h"

namespace feedcheck {

inline constexpr const char* kReportKind = "feedcheck-report";

nlohmann::json ReportToJson(const Report& report);

/// Reads a report. A bare facts.json (evidence without a verdict) is accepted too and becomes a
/// report titled "Facts". Bad entries become diagnostics naming `file` and the JSON path, and
/// the rest is kept; returns false only when the document is neither a report nor evidence.
bool ReportFromJson(const nlohmann::json& json, const std::string& file, Report* out,
                    DiagnosticList* diagnostics);

/// The JSON of `report`'s section `key` (ReportSection::json), parsed: a null value when the
/// report has no such section or its text is not a JSON object.
nlohmann::json SectionJson(const Report& report, std::string_view key);

/// Reads a RESULT.json file; false (with a diagnostic naming the file, and the line and column
/// for syntax errors) when it cannot be opened, is not JSON, or is not a report.
bool LoadReportFile(const std::string& path, Report* out, DiagnosticList* diagnostics);

}  // namespace feedcheck
