#include "core/evidence_json.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.h"
#include "core/diagnostic_codes.h"
#include "core/input_file.h"
#include "core/json_input.h"
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

bool ReadFact(const JsonField& j, const std::string& file, const std::string& path, Fact* out,
              DiagnosticList* diags) {
  const std::optional<std::string> key = j.is_object() ? j["key"].String() : std::nullopt;
  const JsonField v = j["value"];
  if (!key || v.raw() == nullptr) {
    diags->Add(Bad(file, path, "a fact needs a string 'key' and a 'value'"));
    return false;
  }
  Fact f;
  f.key = *key;
  std::string unit = j["unit"].StringOr("count");
  auto u = UnitFromName(unit);
  if (!u) {
    diags->Add(Bad(file, path, fmt::format("fact '{}' has unknown unit '{}'", f.key, unit)));
    return false;
  }
  f.unit = *u;
  if (v.is_number()) {
    auto number = v.Number();
    if (!number) return false;
    f.value = *number;
  } else if (v.is_bool()) {
    f.value = *v.Bool();
  } else if (v.is_string()) {
    f.value = *v.String();
  } else if (!v.present()) {
    // Written for a value that was not finite: the fact is known to exist, its value is not.
    f.value = std::nan("");
  } else {
    diags->Add(Bad(file, path,
                   fmt::format("fact '{}' has a value that is not a number, "
                               "string or boolean",
                               f.key)));
    return false;
  }
  if (const JsonField p = j["provenance"]; p.is_object()) {
    auto origin = OriginFromName(p["origin"].StringOr("declared"));
    f.provenance.origin = origin.value_or(FactOrigin::kDeclared);
    f.provenance.source = p["source"].StringOr("");
    f.provenance.file = p["file"].StringOr("");
    f.provenance.line = static_cast<int>(p["line"].WholeOr(0, 0, kMaxWholeInt));
    f.provenance.host = p["host"].StringOr("");
    f.provenance.rank = static_cast<int>(p["rank"].WholeOr(-1, -1, kMaxWholeInt));
  } else {
    f.provenance.origin = FactOrigin::kDeclared;
    f.provenance.source = file;
  }
  *out = std::move(f);
  return true;
}

}  // namespace

bool EvidenceFromJson(const json& document, const std::string& file, Evidence* out,
                      DiagnosticList* diags) {
  const JsonSource source{file, codes::kFactsFileInvalid, diags};
  const JsonField j = JsonField::Root(document, source);
  // A command's report (`probe ... --json`, `preflight --json`) carries its facts under
  // "evidence": it is as good a facts file as a bare one.
  if (j.is_object() && j["facts"].raw() == nullptr && j["evidence"].is_object())
    return EvidenceFromJson(*j["evidence"].raw(), file, out, diags);
  if (!j.is_object() || j["facts"].raw() == nullptr) {
    diags->Add(Bad(file, "/", "not a facts file: expected an object with \"facts\""));
    return false;
  }
  const int64_t version = j["schema_version"].WholeOr(0, 0, kMaxWholeInt);
  if (version != kEvidenceSchemaVersion) {
    diags->Add(Diagnostic{codes::kFactsSchemaVersion,
                          DiagnosticSeverity::kWarning,
                          fmt::format("schema_version {} (this build reads {}); reading anyway",
                                      version, kEvidenceSchemaVersion),
                          {file, 0, 0},
                          "/schema_version",
                          ""});
  }
  if (j["facts"].is_array()) {
    const std::vector<JsonField> facts = j["facts"].Elements();
    for (size_t i = 0; i < facts.size(); ++i) {
      Fact f;
      if (ReadFact(facts[i], file, fmt::format("/facts/{}", i), &f, diags))
        out->facts.Set(std::move(f));
    }
  }
  if (j["series"].is_array()) {
    for (const JsonField& s : j["series"].Elements()) {
      Series series;
      series.key = s["key"].StringOr("");
      series.title = s["title"].StringOr("");
      series.x_label = s["x_label"].StringOr("");
      series.y_label = s["y_label"].StringOr("");
      series.x_unit = UnitFromName(s["x_unit"].StringOr("count")).value_or(Unit::kCount);
      series.y_unit = UnitFromName(s["y_unit"].StringOr("count")).value_or(Unit::kCount);
      series.node = s["node"].StringOr("");
      if (s["points"].is_array()) {
        for (const JsonField& p : s["points"].Elements()) {
          // A point written as [x, null] (a value that was not finite) is not a point.
          if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number()) {
            auto x = p[0].Number(), y = p[1].Number();
            if (x && y) series.points.push_back({*x, *y});
          }
        }
      }
      out->series.push_back(std::move(series));
    }
  }
  if (j["timeline"].is_array()) {
    for (const JsonField& t : j["timeline"].Elements()) {
      TimelineInterval ti;
      ti.lane = t["lane"].StringOr("");
      ti.label = t["label"].StringOr("");
      ti.start_epoch_s = t["start"].NumberOr(0.0);
      ti.end_epoch_s = t["end"].NumberOr(0.0);
      ti.status = t["status"].StringOr("");
      ti.source = t["source"].StringOr("");
      ti.node = t["node"].StringOr("");
      out->timeline.push_back(std::move(ti));
    }
  }
  if (j["diagnostics"].is_array()) {
    for (const JsonField& d : j["diagnostics"].Elements()) {
      Diagnostic diag;
      diag.code = d["code"].StringOr("");
      std::string sev = d["severity"].StringOr("error");
      diag.severity = sev == "warning" ? DiagnosticSeverity::kWarning
                      : sev == "note"  ? DiagnosticSeverity::kNote
                                       : DiagnosticSeverity::kError;
      diag.message = d["message"].StringOr("");
      diag.location.file = d["file"].StringOr("");
      diag.location.line = static_cast<int>(d["line"].WholeOr(0, 0, kMaxWholeInt));
      diag.location.column = static_cast<int>(d["column"].WholeOr(0, 0, kMaxWholeInt));
      diag.context = d["context"].StringOr("");
      diag.snippet = d["snippet"].StringOr("");
      out->diagnostics.Add(std::move(diag));
    }
    // The writer kept at most its limit: count the rest as it did.
    const size_t kept = out->diagnostics.total(), kept_errors = out->diagnostics.errors();
    const auto total = static_cast<size_t>(j["diagnostics_total"].WholeOr(0, 0, kMaxWholeCount));
    const auto errors = static_cast<size_t>(j["diagnostics_errors"].WholeOr(0, 0, kMaxWholeCount));
    if (total > kept)
      out->diagnostics.CountUnkept(total - kept, errors > kept_errors ? errors - kept_errors : 0);
  }
  return true;
}

std::optional<json> ReadJsonFile(const std::string& path, const char* code, DiagnosticList* diags) {
  return ReadJsonInputFile(path, code, diags, kMaxResultFileBytes);
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
