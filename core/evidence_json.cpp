#include "core/evidence_json.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.h"
#include "core/diagnostic_codes.h"
#include "core/input_file.h"
#include "core/json_text.h"

namespace feedcheck {

using nlohmann::json;

namespace {

json NumberOrNull(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json ProvenanceToJson(const Provenance& p) {
  json j = {{"origin", OriginName(p.origin)}, {"source", p.source}};
  if (!p.file.empty()) j["file"] = p.file;
  if (p.line > 0) j["line"] = p.line;
  if (!p.host.empty()) j["host"] = p.host;
  if (p.rank >= 0) j["rank"] = p.rank;
  return j;
}

Diagnostic Bad(const std::string& file, const std::string& path, const std::string& message) {
  return Diagnostic{
      codes::kFactsFileInvalid, DiagnosticSeverity::kError, message, {file, 0, 0}, path, ""};
}

}  // namespace

json FactToJson(const Fact& fact) {
  json j = {{"key", fact.key}, {"unit", UnitName(fact.unit)}};
  if (fact.is_number()) {
    j["value"] = NumberOrNull(fact.number());
  } else if (fact.is_bool()) {
    j["value"] = std::get<bool>(fact.value);
  } else {
    j["value"] = fact.text();
  }
  j["display"] = FormatFactValue(fact);
  j["provenance"] = ProvenanceToJson(fact.provenance);
  return j;
}

json DiagnosticToJson(const Diagnostic& d) {
  json j = {{"code", d.code}, {"severity", SeverityName(d.severity)}, {"message", d.message}};
  if (!d.location.file.empty()) j["file"] = d.location.file;
  if (d.location.line > 0) j["line"] = d.location.line;
  if (d.location.column > 0) j["column"] = d.location.column;
  if (!d.context.empty()) j["context"] = d.context;
  if (!d.snippet.empty()) j["snippet"] = d.snippet;
  return j;
}

json EvidenceToJson(const Evidence& evidence) {
  json facts = json::array();
  for (const auto& [key, fact] : evidence.facts) facts.push_back(FactToJson(fact));
  json series = json::array();
  for (const auto& s : evidence.series) {
    json points = json::array();
    for (const auto& p : s.points) points.push_back({NumberOrNull(p.x), NumberOrNull(p.y)});
    series.push_back({{"key", s.key},
                      {"title", s.title},
                      {"x_label", s.x_label},
                      {"x_unit", UnitName(s.x_unit)},
                      {"y_label", s.y_label},
                      {"y_unit", UnitName(s.y_unit)},
                      {"points", points}});
    if (!s.node.empty()) series.back()["node"] = s.node;
  }
  json timeline = json::array();
  for (const auto& t : evidence.timeline) {
    timeline.push_back({{"lane", t.lane},
                        {"label", t.label},
                        {"start", t.start_epoch_s},
                        {"end", t.end_epoch_s},
                        {"status", t.status},
                        {"source", t.source}});
    if (!t.node.empty()) timeline.back()["node"] = t.node;
  }
  json diagnostics = json::array();
  for (const auto& d : evidence.diagnostics.kept()) diagnostics.push_back(DiagnosticToJson(d));
  return {{"schema_version", kEvidenceSchemaVersion},
          {"facts", facts},
          {"series", series},
          {"timeline", timeline},
          {"diagnostics", diagnostics},
          {"diagnostics_total", evidence.diagnostics.total()},
          {"diagnostics_errors", evidence.diagnostics.errors()}};
}

namespace {

bool ReadFact(const json& j, const std::string& file, const std::string& path, Fact* out,
              DiagnosticList* diags) {
  if (!j.is_object() || !j.contains("key") || !j["key"].is_string() || !j.contains("value")) {
    diags->Add(Bad(file, path, "a fact needs a string 'key' and a 'value'"));
    return false;
  }
  Fact f;
  f.key = j["key"].get<std::string>();
  std::string unit = j.value("unit", "count");
  auto u = UnitFromName(unit);
  if (!u) {
    diags->Add(Bad(file, path, fmt::format("fact '{}' has unknown unit '{}'", f.key, unit)));
    return false;
  }
  f.unit = *u;
  const json& v = j["value"];
  if (v.is_number()) {
    f.value = v.get<double>();
  } else if (v.is_boolean()) {
    f.value = v.get<bool>();
  } else if (v.is_string()) {
    f.value = v.get<std::string>();
  } else if (v.is_null()) {
    f.value = std::nan("");
  } else {
    diags->Add(Bad(file, path,
                   fmt::format("fact '{}' has a value that is not a number, "
                               "string or boolean",
                               f.key)));
    return false;
  }
  if (j.contains("provenance") && j["provenance"].is_object()) {
    const json& p = j["provenance"];
    auto origin = OriginFromName(p.value("origin", "declared"));
    f.provenance.origin = origin.value_or(FactOrigin::kDeclared);
    f.provenance.source = p.value("source", "");
    f.provenance.file = p.value("file", "");
    f.provenance.line = p.value("line", 0);
    f.provenance.host = p.value("host", "");
    f.provenance.rank = p.value("rank", -1);
  } else {
    f.provenance.origin = FactOrigin::kDeclared;
    f.provenance.source = file;
  }
  *out = std::move(f);
  return true;
}

}  // namespace

bool EvidenceFromJson(const json& j, const std::string& file, Evidence* out,
                      DiagnosticList* diags) {
  // A command's report (`probe ... --json`, `preflight --json`) carries its facts under
  // "evidence": it is as good a facts file as a bare one.
  if (j.is_object() && !j.contains("facts") && j.contains("evidence") && j["evidence"].is_object())
    return EvidenceFromJson(j["evidence"], file, out, diags);
  if (!j.is_object() || !j.contains("facts")) {
    diags->Add(Bad(file, "/", "not a facts file: expected an object with \"facts\""));
    return false;
  }
  int version = j.value("schema_version", 0);
  if (version != kEvidenceSchemaVersion) {
    diags->Add(Diagnostic{codes::kFactsSchemaVersion,
                          DiagnosticSeverity::kWarning,
                          fmt::format("schema_version {} (this build reads {}); reading anyway",
                                      version, kEvidenceSchemaVersion),
                          {file, 0, 0},
                          "/schema_version",
                          ""});
  }
  try {
    const json& facts = j["facts"];
    if (facts.is_array()) {
      for (size_t i = 0; i < facts.size(); ++i) {
        Fact f;
        if (ReadFact(facts[i], file, fmt::format("/facts/{}", i), &f, diags))
          out->facts.Set(std::move(f));
      }
    }
    if (j.contains("series") && j["series"].is_array()) {
      for (const auto& s : j["series"]) {
        Series series;
        series.key = s.value("key", "");
        series.title = s.value("title", "");
        series.x_label = s.value("x_label", "");
        series.y_label = s.value("y_label", "");
        series.x_unit = UnitFromName(s.value("x_unit", "count")).value_or(Unit::kCount);
        series.y_unit = UnitFromName(s.value("y_unit", "count")).value_or(Unit::kCount);
        series.node = s.value("node", "");
        if (s.contains("points") && s["points"].is_array()) {
          for (const auto& p : s["points"]) {
            if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number())
              series.points.push_back({p[0].get<double>(), p[1].get<double>()});
          }
        }
        out->series.push_back(std::move(series));
      }
    }
    if (j.contains("timeline") && j["timeline"].is_array()) {
      for (const auto& t : j["timeline"]) {
        TimelineInterval ti;
        ti.lane = t.value("lane", "");
        ti.label = t.value("label", "");
        ti.start_epoch_s = t.value("start", 0.0);
        ti.end_epoch_s = t.value("end", 0.0);
        ti.status = t.value("status", "");
        ti.source = t.value("source", "");
        ti.node = t.value("node", "");
        out->timeline.push_back(std::move(ti));
      }
    }
    if (j.contains("diagnostics") && j["diagnostics"].is_array()) {
      for (const auto& d : j["diagnostics"]) {
        Diagnostic diag;
        diag.code = d.value("code", "");
        std::string sev = d.value("severity", "error");
        diag.severity = sev == "warning" ? DiagnosticSeverity::kWarning
                        : sev == "note"  ? DiagnosticSeverity::kNote
                                         : DiagnosticSeverity::kError;
        diag.message = d.value("message", "");
        diag.location.file = d.value("file", "");
        diag.location.line = d.value("line", 0);
        diag.location.column = d.value("column", 0);
        diag.context = d.value("context", "");
        diag.snippet = d.value("snippet", "");
        out->diagnostics.Add(std::move(diag));
      }
      // The writer kept at most its limit: count the rest as it did.
      const size_t kept = out->diagnostics.total(), kept_errors = out->diagnostics.errors();
      const size_t total = j.value("diagnostics_total", kept);
      const size_t errors = j.value("diagnostics_errors", kept_errors);
      if (total > kept)
        out->diagnostics.CountUnkept(total - kept, errors > kept_errors ? errors - kept_errors : 0);
    }
  } catch (const json::exception& e) {
    diags->Add(Bad(file, "/", fmt::format("malformed facts file: {}", e.what())));
  }
  return true;
}

std::optional<json> ReadJsonFile(const std::string& path, const char* code, DiagnosticList* diags) {
  auto error = [&](std::string message, int line = 0, int column = 0) {
    diags->Add(Diagnostic{
        code, DiagnosticSeverity::kError, std::move(message), {path, line, column}, "", ""});
    return std::nullopt;
  };
  std::string text, why;
  if (!ReadBoundedRegularFile(path, kMaxResultFileBytes, &text, &why)) return error(why);
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded()) return j;
  // Parse again with exceptions to learn the byte offset, then name the line and column.
  try {
    json again = json::parse(text);
    (void)again;
  } catch (const json::parse_error& e) {
    size_t offset = e.byte == 0 ? 0 : e.byte - 1;
    int line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    return error("not valid JSON: " + std::string(e.what()), line, column);
  }
  return error("not valid JSON");
}

bool LoadEvidenceFile(const std::string& path, Evidence* out, DiagnosticList* diags) {
  std::optional<json> j = ReadJsonFile(path, codes::kFactsFileInvalid, diags);
  return j && EvidenceFromJson(*j, path, out, diags);
}

bool SaveEvidenceFile(const std::string& path, const Evidence& evidence, std::string* error) {
  // Whole or not at all: a reader never sees half a facts file.
  return WriteFileAtomically(path, JsonText(EvidenceToJson(evidence), 2) + "\n", error);
}

}  // namespace feedcheck
