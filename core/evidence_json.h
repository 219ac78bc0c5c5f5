// Evidence <-> JSON ("facts.json"), with "schema_version". Only this pair knows the layout.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "core/diagnostic.h"
#include "core/evidence.h"

namespace feedcheck {

nlohmann::json FactToJson(const Fact& fact);
nlohmann::json DiagnosticToJson(const Diagnostic& diagnostic);
nlohmann::json EvidenceToJson(const Evidence& evidence);

/// Reads evidence from JSON. Bad entries become diagnostics naming `file` and the JSON path;
/// the rest is kept. Returns false only when the document is not evidence at all.
bool EvidenceFromJson(const nlohmann::json& json, const std::string& file, Evidence* out,
                      DiagnosticList* diagnostics);

/// Reads and parses a JSON file. nullopt with a diagnostic `code` naming the file when it cannot
/// be read, or file:line:column of the first error when it is not JSON.
std::optional<nlohmann::json> ReadJsonFile(const std::string& path, const char* code,
                                           DiagnosticList* diagnostics);

/// Reads a facts.json file; diagnostics name the file (and line for syntax errors).
bool LoadEvidenceFile(const std::string& path, Evidence* out, DiagnosticList* diagnostics);
bool SaveEvidenceFile(const std::string& path, const Evidence& evidence, std::string* error);

}  // namespace feedcheck
