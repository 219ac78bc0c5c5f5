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
#include "core/json_input.h"
#include "core/json_text.h"
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

// Reads go through core/json_input: a wrong type is a diagnostic naming the field, and the
// default is kept.
std::string Str(const JsonField& j, const char* key) { return j[key].StringOr(""); }

std::vector<EnvSetting> ReadEnv(const JsonField& j, const char* key) {
  std::vector<EnvSetting> out;
  for (const JsonField& e : j[key].Elements()) {
    if (!e.is_object()) {
      e.Complain("an env setting should be an object with 'name' and 'value'");
      continue;
    }
    out.push_back({Str(e, "name"), Str(e, "value")});
  }
  return out;
}

std::vector<ConfigFragment> ReadConfig(const JsonField& j, const char* key) {
  std::vector<ConfigFragment> out;
  for (const JsonField& c : j[key].Elements()) {
    if (!c.is_object()) {
      c.Complain("a config fragment should be an object with 'kind' and 'text'");
      continue;
    }
    out.push_back({Str(c, "kind"), Str(c, "text")});
  }
  return out;
}

std::vector<std::string> Strings(const JsonField& list) {
  std::vector<std::string> out;
  for (const JsonField& s : list.Elements())
    if (s.is_string()) out.push_back(*s.String());
  return out;
}

void ReadFindings(const JsonField& j, const std::string& file, Report* out, DiagnosticList* diags) {
  for (const JsonField& fj : j["findings"].Elements()) {
    if (!fj.is_object()) {
      fj.Complain("a finding should be an object");
      continue;
    }
    Finding f;
    f.rule_id = Str(fj, "rule_id");
    std::string severity = Str(fj, "severity");
    auto sev = SeverityFromName(severity);
    if (!sev) {
      diags->Add(Bad(
          file, JsonPointer(fj["severity"].path()),
          fmt::format("unknown severity '{}' (critical, warning or info); read as info", severity),
          DiagnosticSeverity::kWarning));
    }
    f.severity = sev.value_or(Severity::kInfo);
    f.title = Str(fj, "title");
    f.message = Str(fj, "message");
    f.source = Str(fj, "source");
    f.rule_file = Str(fj, "rule_file");
    if (fj["rule_line"].is_number())
      f.rule_line = static_cast<int>(fj["rule_line"].WholeOr(0, 0, kMaxWholeInt));
    if (fj["excess"].is_number()) f.excess = fj["excess"].Number();
    if (const JsonField g = fj["gauge"]; g.is_object()) {
      // Read only whole: a gauge with a number missing or an unknown unit is dropped, not
      // drawn against a guessed scale.
      auto unit = g["unit"].is_string() ? UnitFromName(*g["unit"].String()) : std::nullopt;
      auto demand = g["demand"].is_number() ? g["demand"].Number() : std::nullopt;
      auto limit = g["limit"].is_number() ? g["limit"].Number() : std::nullopt;
      if (unit && demand && limit)
        f.gauge = FindingGauge{*demand, *limit, *unit};
      else
        diags->Add(Bad(file, JsonPointer(g.path()),
                       "a gauge needs demand, limit and a known unit; ignored",
                       DiagnosticSeverity::kWarning));
    }
    if (fj["escalated"].is_bool()) f.escalated = *fj["escalated"].Bool();
    // Evidence facts share the facts.json layout: read them through core's reader.
    // One at a time, so the rule's order of evidence is kept.
    for (const JsonField& fact : fj["evidence"].Elements()) {
      Evidence one;
      EvidenceFromJson(
          json{{"schema_version", kEvidenceSchemaVersion}, {"facts", json::array({*fact.raw()})}},
          file, &one, diags);
      for (const auto& [key, fact_read] : one.facts) f.evidence.push_back(fact_read);
    }
    // class, basis and the post-mortem's marks came later: absent in older reports.
    if (fj["class"].is_string())
      f.bottleneck = BottleneckFromName(*fj["class"].String()).value_or(Bottleneck::kNone);
    if (fj["basis"].is_string())
      f.basis = FindingBasisFromName(*fj["basis"].String()).value_or(FindingBasis::kObserved);
    if (fj["impact_gpu_s"].is_number()) f.impact_gpu_s = fj["impact_gpu_s"].NumberOr(-1);
    if (fj["impact"].is_string()) f.impact = *fj["impact"].String();
    if (fj["secondary"].is_bool()) f.secondary = *fj["secondary"].Bool();
    if (fj["secondary_note"].is_string()) f.secondary_note = *fj["secondary_note"].String();
    f.env = ReadEnv(fj, "env");
    f.config = ReadConfig(fj, "config");
    out->findings.push_back(std::move(f));
  }
}

void ReadSkipped(const JsonField& j, Report* out) {
  for (const JsonField& sj : j["skipped"].Elements()) {
    if (!sj.is_object()) {
      sj.Complain("a skipped rule should be an object");
      continue;
    }
    SkippedRule s;
    s.rule_id = Str(sj, "rule_id");
    s.title = Str(sj, "title");
    s.missing_facts = Strings(sj["missing_facts"]);
    out->skipped.push_back(std::move(s));
  }
}

void ReadContext(const JsonField& j, RunContext* c) {
  const JsonField cj = j["context"];
  if (!cj.present()) return;
  if (!cj.is_object()) {
    cj.Complain("'context' should be an object");
    return;
  }
  c->tool_version = Str(cj, "tool_version");
  c->command = Str(cj, "command");
  c->host = Str(cj, "host");
  c->started_at_utc = Str(cj, "started_at_utc");
  c->target = Str(cj, "target");
  c->build_type = Str(cj, "build_type");
  c->warnings = Strings(cj["warnings"]);
}

// The "result" object read back (for `report` and `compare`). JSON objects are unordered, so
// "result_display" keeps the order, labels and units the run showed (reports written before it
// existed list the values by key, with no labels).
void ReadResult(const JsonField& j, Report* out) {
  const JsonField rj = j["result"];
  if (!rj.present()) return;
  if (!rj.is_object()) {
    rj.Complain("'result' should be an object");
    return;
  }
  auto read = [&](const std::string& key, ResultValue* v) {
    const JsonField value = rj[key];
    v->key = key;
    if (value.is_bool()) {
      v->value = *value.Bool();
    } else if (value.is_number()) {
      auto number = value.Number();
      if (!number) return false;
      v->value = *number;
    } else if (value.is_string()) {
      v->value = *value.String();
    } else {
      return false;
    }
    return true;
  };
  std::set<std::string> shown;
  for (const JsonField& d : j["result_display"].Elements()) {
    if (!d.is_object()) {
      d.Complain("a result_display entry should be an object with 'key'");
      continue;
    }
    ResultValue v;
    const std::string key = Str(d, "key");
    if (shown.count(key) != 0 || !read(key, &v)) continue;
    v.label = Str(d, "label");
    v.unit = Str(d, "unit");
    shown.insert(key);
    out->result.push_back(std::move(v));
  }
  for (const auto& [key, value] : rj.Members()) {
    ResultValue v;
    if (shown.count(key) == 0 && read(key, &v)) out->result.push_back(std::move(v));
  }
}

// Tables: columns with key and label, each row as an object (key -> the number, or the text
// when the cell has none) for scripts, and the texts as shown, for re-rendering.
json TableToJson(const ReportTable& t) {
  json columns = json::array();
  for (const auto& c : t.columns) {
    json column = {{"key", c.key}, {"label", c.label}, {"numeric", c.numeric}};
    // How a terminal lays the column out, kept so a saved report renders as its run did.
    if (c.detail) column["detail"] = true;
    if (c.shortenable) column["shortenable"] = true;
    columns.push_back(std::move(column));
  }
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
  // Only a table whose notes have short forms carries them (read back for the terminal).
  if (std::any_of(t.note_briefs.begin(), t.note_briefs.end(),
                  [](const std::string& b) { return !b.empty(); }))
    out["note_briefs"] = t.note_briefs;
  return out;
}

void ReadTables(const JsonField& j, Report* out) {
  for (const JsonField& tj : j["tables"].Elements()) {
    if (!tj.is_object()) {
      tj.Complain("a table should be an object");
      continue;
    }
    ReportTable t;
    t.title = Str(tj, "title");
    t.folded = tj["folded"].is_bool() && *tj["folded"].Bool();
    for (const JsonField& c : tj["columns"].Elements()) {
      if (!c.is_object()) continue;
      TableColumn column{Str(c, "key"), Str(c, "label")};
      column.numeric = c["numeric"].is_bool() && *c["numeric"].Bool();
      column.detail = c["detail"].is_bool() && *c["detail"].Bool();
      column.shortenable = c["shortenable"].is_bool() && *c["shortenable"].Bool();
      t.columns.push_back(std::move(column));
    }
    const JsonField rows = tj["rows"];
    if (rows.present() && !rows.is_array()) rows.Complain("expected an array");
    const std::vector<JsonField> text = tj["text"].Elements();
    for (size_t r = 0; r < text.size(); ++r) {
      const JsonField& cells = text[r];
      if (!cells.is_array()) continue;
      std::vector<TableCell> row;
      for (size_t c = 0; c < cells.size(); ++c) {
        TableCell cell{cells[c].is_string() ? *cells[c].String() : "", std::nullopt};
        if (c < t.columns.size()) {
          if (const JsonField v = rows[r][t.columns[c].key]; v.is_number()) cell.value = v.Number();
        }
        row.push_back(std::move(cell));
      }
      t.rows.push_back(std::move(row));
    }
    t.notes = Strings(tj["notes"]);
    t.note_briefs = Strings(tj["note_briefs"]);
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

void ReadCodes(const JsonField& j, Report* out) {
  const JsonField codes = j["codes"];
  if (!codes.present()) return;
  if (!codes.is_object()) {
    codes.Complain("'codes' should be an object");
    return;
  }
  out->codes.uri = Str(codes, "uri");
  for (const JsonField& c : codes["codes"].Elements()) {
    if (!c.is_object()) {
      c.Complain("a code should be an object");
      continue;
    }
    out->codes.codes.push_back(
        {Str(c, "code"), Str(c, "name"), Str(c, "summary"), Str(c, "help"), Str(c, "level")});
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
void ReadSections(const JsonField& j, Report* out) {
  for (const auto& [key, value] : j.Members())
    if (value.is_object() && !IsReportKey(key)) {
      ReportSection s;
      s.key = key;
      s.json = JsonText(*value.raw(), -1);
      out->sections.push_back(std::move(s));
    }
}

// A section's text (written by this build, or read from a checked file and dumped) parsed back.
json ParseSection(const std::string& text) {
  const JsonSource quiet{"section", codes::kReportInvalid, nullptr};
  std::optional<json> j = ParseJsonInput(text, quiet);
  return j && j->is_object() ? std::move(*j) : json(nullptr);
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
    json data = ParseSection(s.json);
    if (data.is_object()) out[s.key] = std::move(data);
  }
  return out;
}

bool ReportFromJson(const json& document, const std::string& file, Report* out,
                    DiagnosticList* diags) {
  const JsonSource source{file, codes::kReportInvalid, diags};
  const JsonField j = JsonField::Root(document, source);
  if (!j.is_object()) {
    diags->Add(Bad(file, "/", "not a feedcheck report: expected a JSON object"));
    return false;
  }
  const JsonField kind = j["kind"];
  const bool is_report = kind.is_string() && *kind.String() == kReportKind;
  if (!is_report) {
    // A bare facts.json still renders: evidence, facts and charts, without a verdict.
    if (j["facts"].raw() != nullptr) {
      out->title = "Facts";
      return EvidenceFromJson(document, file, &out->evidence, diags);
    }
    diags->Add(Bad(file, "/kind",
                   fmt::format("not a feedcheck report: expected \"kind\": \"{}\" (from "
                               "`feedcheck preflight|postmortem --json`) or a facts.json",
                               kReportKind)));
    return false;
  }
  const auto version = j["schema_version"].Whole(0, kMaxWholeInt);
  if (!version) {
    diags->Add(Bad(file, "/schema_version", "missing or non-integer schema_version"));
    return false;
  }
  if (*version > kReportSchemaVersion) {
    diags->Add(Bad(file, "/schema_version",
                   fmt::format("schema_version {} is newer than this build reads ({}); "
                               "reading what it can",
                               *version, kReportSchemaVersion),
                   DiagnosticSeverity::kWarning));
  }
  out->title = Str(j, "title");
  out->verdict = Str(j, "verdict");
  std::string level = Str(j, "verdict_level");
  out->verdict_level = VerdictLevelFromName(level).value_or(VerdictLevel::kUnknown);
  out->verdict_detail = Str(j, "verdict_detail");
  ReadContext(j, &out->context);
  ReadFindings(j, file, out, diags);
  ReadSkipped(j, out);
  out->env = ReadEnv(j, "env");
  out->config = ReadConfig(j, "config");
  ReadSections(j, out);
  ReadResult(j, out);
  ReadTables(j, out);
  ReadCodes(j, out);
  if (j["complete"].is_bool()) out->complete = *j["complete"].Bool();
  if (const JsonField evidence = j["evidence"]; evidence.raw() != nullptr) {
    if (!EvidenceFromJson(*evidence.raw(), file, &out->evidence, diags)) return false;
  }
  if (const JsonField n = j["run_diagnostics"]; n.is_number())
    out->run_diagnostics = std::min(static_cast<size_t>(n.WholeOr(0, 0, kMaxWholeCount)),
                                    out->evidence.diagnostics.kept().size());
  return true;
}

json SectionJson(const Report& report, std::string_view key) {
  for (const auto& s : report.sections)
    if (s.key == key && !s.json.empty()) {
      json j = ParseSection(s.json);
      if (j.is_object()) return j;
    }
  return nullptr;
}

bool LoadReportFile(const std::string& path, Report* out, DiagnosticList* diags) {
  std::optional<json> j = ReadJsonFile(path, codes::kReportUnreadable, diags);
  return j && ReportFromJson(*j, path, out, diags);
}

}  // namespace feedcheck
