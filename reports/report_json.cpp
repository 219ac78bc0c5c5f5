#include "reports/report_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <type_traits>

#include "core/diagnostic_codes.h"
#include "core/evidence_json.h"
#include "core/measurement_caveat.h"
#include "core/units.h"

namespace feedcheck {

using nlohmann::json;

namespace {

// A whole number (a count, a line) as a JSON integer: `12`, not `12.0`, which a reader typed
// for integers refuses. Other values stay floating point.
json NumberJson(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15)
    return json(static_cast<int64_t>(value));
  return json(value);
}

json EnvToJson(const std::vector<EnvSetting>& env) {
  json out = json::array();
  for (const auto& e : env) out.push_back({{"name", e.name}, {"value", e.value}});
  return out;
}

json ConfigToJson(const std::vector<ConfigFragment>& config) {
  json out = json::array();
  for (const auto& c : config) out.push_back({{"kind", c.kind}, {"text", c.text}});
  return out;
}

json FindingToJson(const Finding& f) {
  json evidence = json::array();
  for (const auto& fact : f.evidence) evidence.push_back(FactToJson(fact));
  json j = {{"rule_id", f.rule_id},
            {"severity", SeverityName(f.severity)},
            {"title", f.title},
            {"message", f.message},
            {"evidence", evidence},
            {"env", EnvToJson(f.env)},
            {"config", ConfigToJson(f.config)},
            {"source", f.source}};
  if (!f.rule_file.empty()) j["rule_file"] = f.rule_file;
  if (f.rule_line > 0) j["rule_line"] = f.rule_line;
  j["class"] = BottleneckId(f.bottleneck);
  j["basis"] = FindingBasisName(f.basis);
  if (f.impact_gpu_s >= 0) j["impact_gpu_s"] = f.impact_gpu_s;
  if (!f.impact.empty()) j["impact"] = f.impact;
  if (f.secondary) {
    j["secondary"] = true;
    j["secondary_note"] = f.secondary_note;
  }
  if (f.excess) j["excess"] = *f.excess;
  if (f.gauge)
    j["gauge"] = {{"demand", f.gauge->demand},
                  {"limit", f.gauge->limit},
                  {"unit", std::string(UnitName(f.gauge->unit))}};
  if (f.escalated) j["escalated"] = true;
  return j;
}

json ContextToJson(const RunContext& c) {
  return {{"tool_version", c.tool_version},
          {"command", c.command},
          {"host", c.host},
          {"started_at_utc", c.started_at_utc},
          {"target", c.target},
          {"build_type", c.build_type},
          {"warnings", c.warnings}};
}

Diagnostic Bad(const std::string& file, const std::string& path, const std::string& message,
               DiagnosticSeverity severity = DiagnosticSeverity::kError) {
  return Diagnostic{codes::kReportInvalid, severity, message, {file, 0, 0}, path, ""};
}

// Typed readers: a wrong type is a diagnostic naming the JSON path, and the default is kept.
std::string Str(const json& j, const char* key, const std::string& file, const std::string& path,
                DiagnosticList* diags) {
  if (!j.contains(key) || j[key].is_null()) return "";
  if (!j[key].is_string()) {
    diags->Add(Bad(file, path + "/" + key, fmt::format("'{}' should be a string", key)));
    return "";
  }
  return j[key].get<std::string>();
}

const json* Array(const json& j, const char* key, const std::string& file, const std::string& path,
                  DiagnosticList* diags) {
  if (!j.contains(key)) return nullptr;
  if (!j[key].is_array()) {
    diags->Add(Bad(file, path + "/" + key, fmt::format("'{}' should be an array", key)));
    return nullptr;
  }
  return &j[key];
}

std::vector<EnvSetting> ReadEnv(const json& j, const char* key, const std::string& file,
                                const std::string& path, DiagnosticList* diags) {
  std::vector<EnvSetting> out;
  const json* arr = Array(j, key, file, path, diags);
  if (!arr) return out;
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& e = (*arr)[i];
    std::string p = fmt::format("{}/{}/{}", path, key, i);
    if (!e.is_object()) {
      diags->Add(Bad(file, p, "an env setting should be an object with 'name' and 'value'"));
      continue;
    }
    out.push_back({Str(e, "name", file, p, diags), Str(e, "value", file, p, diags)});
  }
  return out;
}

std::vector<ConfigFragment> ReadConfig(const json& j, const char* key, const std::string& file,
                                       const std::string& path, DiagnosticList* diags) {
  std::vector<ConfigFragment> out;
  const json* arr = Array(j, key, file, path, diags);
  if (!arr) return out;
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& c = (*arr)[i];
    std::string p = fmt::format("{}/{}/{}", path, key, i);
    if (!c.is_object()) {
      diags->Add(Bad(file, p, "a config fragment should be an object with 'kind' and 'text'"));
      continue;
    }
    out.push_back({Str(c, "kind", file, p, diags), Str(c, "text", file, p, diags)});
  }
  return out;
}

void ReadFindings(const json& j, const std::string& file, Report* out, DiagnosticList* diags) {
  const json* arr = Array(j, "findings", file, "", diags);
  if (!arr) return;
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& fj = (*arr)[i];
    std::string p = fmt::format("/findings/{}", i);
    if (!fj.is_object()) {
      diags->Add(Bad(file, p, "a finding should be an object"));
      continue;
    }
    Finding f;
    f.rule_id = Str(fj, "rule_id", file, p, diags);
    std::string severity = Str(fj, "severity", file, p, diags);
    auto sev = SeverityFromName(severity);
    if (!sev) {
      diags->Add(Bad(
          file, p + "/severity",
          fmt::format("unknown severity '{}' (critical, warning or info); read as info", severity),
          DiagnosticSeverity::kWarning));
    }
    f.severity = sev.value_or(Severity::kInfo);
    f.title = Str(fj, "title", file, p, diags);
    f.message = Str(fj, "message", file, p, diags);
    f.source = Str(fj, "source", file, p, diags);
    f.rule_file = Str(fj, "rule_file", file, p, diags);
    if (fj.contains("rule_line") && fj["rule_line"].is_number_integer())
      f.rule_line = fj["rule_line"].get<int>();
    if (fj.contains("excess") && fj["excess"].is_number()) f.excess = fj["excess"].get<double>();
    if (fj.contains("gauge") && fj["gauge"].is_object()) {
      // Read only whole: a gauge with a number missing or an unknown unit is dropped, not
      // drawn against a guessed scale.
      const json& g = fj["gauge"];
      auto unit = g.contains("unit") && g["unit"].is_string()
                      ? UnitFromName(g["unit"].get<std::string>())
                      : std::nullopt;
      if (unit && g.contains("demand") && g["demand"].is_number() && g.contains("limit") &&
          g["limit"].is_number())
        f.gauge = FindingGauge{g["demand"].get<double>(), g["limit"].get<double>(), *unit};
      else
        diags->Add(Bad(file, p + "/gauge", "a gauge needs demand, limit and a known unit; ignored",
                       DiagnosticSeverity::kWarning));
    }
    if (fj.contains("escalated") && fj["escalated"].is_boolean())
      f.escalated = fj["escalated"].get<bool>();
    // Evidence facts share the facts.json layout: read them through core's reader.
    // One at a time, so the rule's order of evidence is kept.
    if (const json* ev = Array(fj, "evidence", file, p, diags)) {
      for (size_t k = 0; k < ev->size(); ++k) {
        Evidence one;
        EvidenceFromJson(
            json{{"schema_version", kEvidenceSchemaVersion}, {"facts", json::array({(*ev)[k]})}},
            file, &one, diags);
        for (const auto& [key, fact] : one.facts) f.evidence.push_back(fact);
      }
    }
    // class, basis and the post-mortem's marks came later: absent in older reports.
    if (auto c = fj.find("class"); c != fj.end() && c->is_string())
      f.bottleneck = BottleneckFromName(c->get<std::string>()).value_or(Bottleneck::kNone);
    if (auto b = fj.find("basis"); b != fj.end() && b->is_string())
      f.basis = FindingBasisFromName(b->get<std::string>()).value_or(FindingBasis::kObserved);
    if (auto v = fj.find("impact_gpu_s"); v != fj.end() && v->is_number())
      f.impact_gpu_s = v->get<double>();
    if (auto v = fj.find("impact"); v != fj.end() && v->is_string())
      f.impact = v->get<std::string>();
    if (auto v = fj.find("secondary"); v != fj.end() && v->is_boolean())
      f.secondary = v->get<bool>();
    if (auto v = fj.find("secondary_note"); v != fj.end() && v->is_string())
      f.secondary_note = v->get<std::string>();
    f.env = ReadEnv(fj, "env", file, p, diags);
    f.config = ReadConfig(fj, "config", file, p, diags);
    out->findings.push_back(std::move(f));
  }
}

void ReadSkipped(const json& j, const std::string& file, Report* out, DiagnosticList* diags) {
  const json* arr = Array(j, "skipped", file, "", diags);
  if (!arr) return;
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& sj = (*arr)[i];
    std::string p = fmt::format("/skipped/{}", i);
    if (!sj.is_object()) {
      diags->Add(Bad(file, p, "a skipped rule should be an object"));
      continue;
    }
    SkippedRule s;
    s.rule_id = Str(sj, "rule_id", file, p, diags);
    s.title = Str(sj, "title", file, p, diags);
    if (const json* missing = Array(sj, "missing_facts", file, p, diags)) {
      for (const auto& m : *missing)
        if (m.is_string()) s.missing_facts.push_back(m.get<std::string>());
    }
    out->skipped.push_back(std::move(s));
  }
}

void ReadContext(const json& j, const std::string& file, RunContext* c, DiagnosticList* diags) {
  if (!j.contains("context")) return;
  const json& cj = j["context"];
  if (!cj.is_object()) {
    diags->Add(Bad(file, "/context", "'context' should be an object"));
    return;
  }
  c->tool_version = Str(cj, "tool_version", file, "/context", diags);
  c->command = Str(cj, "command", file, "/context", diags);
  c->host = Str(cj, "host", file, "/context", diags);
  c->started_at_utc = Str(cj, "started_at_utc", file, "/context", diags);
  c->target = Str(cj, "target", file, "/context", diags);
  c->build_type = Str(cj, "build_type", file, "/context", diags);
  if (const json* w = Array(cj, "warnings", file, "/context", diags)) {
    for (const auto& s : *w)
      if (s.is_string()) c->warnings.push_back(s.get<std::string>());
  }
}

// The "result" object read back (for `report` and `compare`). JSON objects are unordered, so
// "result_display" keeps the order, labels and units the run showed (reports written before it
// existed list the values by key, with no labels).
void ReadResult(const json& j, const std::string& file, Report* out, DiagnosticList* diags) {
  if (!j.contains("result")) return;
  const json& rj = j["result"];
  if (!rj.is_object()) {
    diags->Add(Bad(file, "/result", "'result' should be an object"));
    return;
  }
  auto read = [&](const std::string& key, ResultValue* v) {
    auto it = rj.find(key);
    if (it == rj.end()) return false;
    v->key = key;
    if (it->is_boolean())
      v->value = it->get<bool>();
    else if (it->is_number())
      v->value = it->get<double>();
    else if (it->is_string())
      v->value = it->get<std::string>();
    else
      return false;
    return true;
  };
  std::set<std::string> shown;
  if (const json* display = Array(j, "result_display", file, "", diags)) {
    for (size_t i = 0; i < display->size(); ++i) {
      const json& d = (*display)[i];
      std::string p = fmt::format("/result_display/{}", i);
      if (!d.is_object()) {
        diags->Add(Bad(file, p, "a result_display entry should be an object with 'key'"));
        continue;
      }
      ResultValue v;
      const std::string key = Str(d, "key", file, p, diags);
      if (shown.count(key) != 0 || !read(key, &v)) continue;
      v.label = Str(d, "label", file, p, diags);
      v.unit = Str(d, "unit", file, p, diags);
      shown.insert(key);
      out->result.push_back(std::move(v));
    }
  }
  for (auto it = rj.begin(); it != rj.end(); ++it) {
    ResultValue v;
    if (shown.count(it.key()) == 0 && read(it.key(), &v)) out->result.push_back(std::move(v));
  }
}

// Tables: columns with key and label, each row as an object (key -> the number, or the text
// when the cell has none) for scripts, and the texts as shown, for re-rendering.
json TableToJson(const ReportTable& t) {
  json columns = json::array();
  for (const auto& c : t.columns)
    columns.push_back({{"key", c.key}, {"label", c.label}, {"numeric", c.numeric}});
  json rows = json::array();
  json text = json::array();
  for (const auto& row : t.rows) {
    json object = json::object();
    json cells = json::array();
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string key = i < t.columns.size() ? t.columns[i].key : fmt::format("c{}", i);
      object[key] = row[i].value ? NumberJson(*row[i].value) : json(row[i].text);
      cells.push_back(row[i].text);
    }
    rows.push_back(std::move(object));
    text.push_back(std::move(cells));
  }
  json out = {
      {"title", t.title}, {"columns", columns}, {"rows", rows}, {"text", text}, {"notes", t.notes}};
  if (t.folded) out["folded"] = true;
  return out;
}

void ReadTables(const json& j, const std::string& file, Report* out, DiagnosticList* diags) {
  const json* arr = Array(j, "tables", file, "", diags);
  if (!arr) return;
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& tj = (*arr)[i];
    std::string p = fmt::format("/tables/{}", i);
    if (!tj.is_object()) {
      diags->Add(Bad(file, p, "a table should be an object"));
      continue;
    }
    ReportTable t;
    t.title = Str(tj, "title", file, p, diags);
    if (auto f = tj.find("folded"); f != tj.end() && f->is_boolean()) t.folded = *f;
    if (const json* columns = Array(tj, "columns", file, p, diags)) {
      for (const auto& c : *columns) {
        if (!c.is_object()) continue;
        TableColumn column{Str(c, "key", file, p, diags), Str(c, "label", file, p, diags)};
        if (auto n = c.find("numeric"); n != c.end() && n->is_boolean()) column.numeric = *n;
        t.columns.push_back(std::move(column));
      }
    }
    const json* rows = Array(tj, "rows", file, p, diags);
    const json* text = Array(tj, "text", file, p, diags);
    for (size_t r = 0; text && r < text->size(); ++r) {
      const json& cells = (*text)[r];
      if (!cells.is_array()) continue;
      std::vector<TableCell> row;
      for (size_t c = 0; c < cells.size(); ++c) {
        TableCell cell{cells[c].is_string() ? cells[c].get<std::string>() : "", std::nullopt};
        if (rows && r < rows->size() && c < t.columns.size()) {
          const json& object = (*rows)[r];
          if (auto v = object.find(t.columns[c].key); v != object.end() && v->is_number())
            cell.value = v->get<double>();
        }
        row.push_back(std::move(cell));
      }
      t.rows.push_back(std::move(row));
    }
    if (const json* notes = Array(tj, "notes", file, p, diags))
      for (const auto& n : *notes)
        if (n.is_string()) t.notes.push_back(n.get<std::string>());
    out->tables.push_back(std::move(t));
  }
}

json CodesToJson(const ReportCodes& codes) {
  json list = json::array();
  for (const ReportCode& c : codes.codes)
    list.push_back({{"code", c.code},
                    {"name", c.name},
                    {"summary", c.summary},
                    {"help", c.help},
                    {"level", c.level}});
  return {{"uri", codes.uri}, {"codes", list}};
}

void ReadCodes(const json& j, const std::string& file, Report* out, DiagnosticList* diags) {
  if (!j.contains("codes")) return;
  if (!j["codes"].is_object()) {
    diags->Add(Bad(file, "/codes", "'codes' should be an object"));
    return;
  }
  const json& codes = j["codes"];
  out->codes.uri = Str(codes, "uri", file, "/codes", diags);
  const json* arr = Array(codes, "codes", file, "/codes", diags);
  if (arr == nullptr) return;
  for (size_t i = 0; i < arr->size(); ++i) {
    const json& c = (*arr)[i];
    const std::string p = fmt::format("/codes/codes/{}", i);
    if (!c.is_object()) {
      diags->Add(Bad(file, p, "a code should be an object"));
      continue;
    }
    out->codes.codes.push_back({Str(c, "code", file, p, diags), Str(c, "name", file, p, diags),
                                Str(c, "summary", file, p, diags), Str(c, "help", file, p, diags),
                                Str(c, "level", file, p, diags)});
  }
}

// The keys of a report's own JSON; any other object at the top is a section's.
bool IsReportKey(std::string_view key) {
  static constexpr std::array<std::string_view, 19> kKeys{"schema_version",
                                                          "kind",
                                                          "title",
                                                          "verdict",
                                                          "verdict_level",
                                                          "verdict_detail",
                                                          "context",
                                                          "findings",
                                                          "skipped",
                                                          "env",
                                                          "config",
                                                          "evidence",
                                                          "measurement_caveat",
                                                          "result",
                                                          "result_display",
                                                          "run_diagnostics",
                                                          "tables",
                                                          "codes",
                                                          "complete"};
  return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end();
}

// The sections of a saved report: each object under a key the report does not use itself, its
// text kept (the command that wrote it lays its lines out again; see ReportSection).
void ReadSections(const json& j, Report* out) {
  for (const auto& [key, value] : j.items())
    if (value.is_object() && !IsReportKey(key)) {
      ReportSection s;
      s.key = key;
      s.json = value.dump();
      out->sections.push_back(std::move(s));
    }
}

}  // namespace

json ReportToJson(const Report& r) {
  // Output only: a loaded report recomputes both from its target facts.
  MeasurementCaveat caveat = CaveatOf(r.evidence.facts);
  json findings = json::array();
  for (const auto& f : r.findings) {
    findings.push_back(FindingToJson(f));
    if (std::string note = FindingCaveat(f, caveat); !note.empty())
      findings.back()["measurement_caveat"] = note;
  }
  json skipped = json::array();
  for (const auto& s : r.skipped) {
    skipped.push_back(
        {{"rule_id", s.rule_id}, {"title", s.title}, {"missing_facts", s.missing_facts}});
  }
  json out = {{"schema_version", kReportSchemaVersion},
              {"kind", kReportKind},
              {"title", r.title},
              {"verdict", r.verdict},
              {"verdict_level", VerdictLevelName(r.verdict_level)},
              {"verdict_detail", r.verdict_detail},
              {"context", ContextToJson(r.context)},
              {"findings", findings},
              {"skipped", skipped},
              {"env", EnvToJson(r.env)},
              {"config", ConfigToJson(r.config)},
              {"evidence", EvidenceToJson(r.evidence)}};
  if (caveat.any()) out["measurement_caveat"] = caveat.banner;
  json result = json::object();
  json display = json::array();
  for (const auto& v : r.result) {
    std::visit(
        [&](const auto& value) {
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>)
            result[v.key] = NumberJson(value);
          else
            result[v.key] = value;
        },
        v.value);
    display.push_back({{"key", v.key}, {"label", v.label}, {"unit", v.unit}});
  }
  out["result"] = result;
  out["result_display"] = display;
  if (r.run_diagnostics > 0) out["run_diagnostics"] = r.run_diagnostics;
  json tables = json::array();
  for (const auto& t : r.tables) tables.push_back(TableToJson(t));
  out["tables"] = tables;
  if (!r.codes.codes.empty()) out["codes"] = CodesToJson(r.codes);
  if (!r.complete) out["complete"] = false;
  // Each section as the object its command wrote for scripts, under its key (never over a key
  // of the report's own).
  for (const auto& s : r.sections) {
    if (s.key.empty() || s.json.empty() || out.contains(s.key) || IsReportKey(s.key)) continue;
    json data = json::parse(s.json, nullptr, /*allow_exceptions=*/false);
    if (data.is_object()) out[s.key] = std::move(data);
  }
  return out;
}

bool ReportFromJson(const json& j, const std::string& file, Report* out, DiagnosticList* diags) {
  if (!j.is_object()) {
    diags->Add(Bad(file, "/", "not a feedcheck report: expected a JSON object"));
    return false;
  }
  bool is_report = j.contains("kind") && j["kind"] == kReportKind;
  if (!is_report) {
    // A bare facts.json still renders: evidence, facts and charts, without a verdict.
    if (j.contains("facts")) {
      out->title = "Facts";
      return EvidenceFromJson(j, file, &out->evidence, diags);
    }
    diags->Add(Bad(file, "/kind",
                   fmt::format("not a feedcheck report: expected \"kind\": \"{}\" (from "
                               "`feedcheck preflight|postmortem --json`) or a facts.json",
                               kReportKind)));
    return false;
  }
  if (!j.contains("schema_version") || !j["schema_version"].is_number_integer()) {
    diags->Add(Bad(file, "/schema_version", "missing or non-integer schema_version"));
    return false;
  }
  int version = j["schema_version"].get<int>();
  if (version > kReportSchemaVersion) {
    diags->Add(Bad(file, "/schema_version",
                   fmt::format("schema_version {} is newer than this build reads ({}); "
                               "reading what it can",
                               version, kReportSchemaVersion),
                   DiagnosticSeverity::kWarning));
  }
  out->title = Str(j, "title", file, "", diags);
  out->verdict = Str(j, "verdict", file, "", diags);
  std::string level = Str(j, "verdict_level", file, "", diags);
  out->verdict_level = VerdictLevelFromName(level).value_or(VerdictLevel::kUnknown);
  out->verdict_detail = Str(j, "verdict_detail", file, "", diags);
  ReadContext(j, file, &out->context, diags);
  ReadFindings(j, file, out, diags);
  ReadSkipped(j, file, out, diags);
  out->env = ReadEnv(j, "env", file, "", diags);
  out->config = ReadConfig(j, "config", file, "", diags);
  ReadSections(j, out);
  ReadResult(j, file, out, diags);
  ReadTables(j, file, out, diags);
  ReadCodes(j, file, out, diags);
  if (auto c = j.find("complete"); c != j.end() && c->is_boolean()) out->complete = c->get<bool>();
  if (j.contains("evidence")) {
    if (!EvidenceFromJson(j["evidence"], file, &out->evidence, diags)) return false;
  }
  if (auto n = j.find("run_diagnostics"); n != j.end() && n->is_number_unsigned())
    out->run_diagnostics = std::min(n->get<size_t>(), out->evidence.diagnostics.kept().size());
  return true;
}

json SectionJson(const Report& report, std::string_view key) {
  for (const auto& s : report.sections)
    if (s.key == key && !s.json.empty()) {
      json j = json::parse(s.json, nullptr, /*allow_exceptions=*/false);
      if (j.is_object()) return j;
    }
  return nullptr;
}

bool LoadReportFile(const std::string& path, Report* out, DiagnosticList* diags) {
  std::optional<json> j = ReadJsonFile(path, codes::kReportUnreadable, diags);
  return j && ReportFromJson(*j, path, out, diags);
}

}  // namespace feedcheck
