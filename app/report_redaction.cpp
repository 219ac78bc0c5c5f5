#include "app/report_redaction.h"

#include <nlohmann/json.hpp>
#include <string>

#include "app/postmortem_report.h"
#include "app/postmortem_traces.h"
#include "core/redact.h"
#include "reports/report_json.h"

namespace feedcheck::app {
namespace {

using nlohmann::json;

// The last word of a fact key or a setting name: "runtime.setting.AZURE_STORAGE_KEY" ->
// "AZURE_STORAGE_KEY".
std::string_view LastSegment(std::string_view name) {
  size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

bool NamesSecret(const json& object) {
  for (const char* field : {"key", "name"}) {
    auto it = object.find(field);
    const auto* text = it != object.end() ? it->get_ptr<const std::string*>() : nullptr;
    if (text != nullptr && LooksLikeSecretName(LastSegment(*text))) return true;
  }
  return false;
}

// Redacts in place; true when anything changed.
bool Walk(json* j) {
  bool changed = false;
  if (const auto* string = j->get_ptr<const std::string*>()) {
    const std::string& text = *string;
    std::string redacted = RedactText(text);
    if (redacted != text) {
      *j = redacted;
      changed = true;
    }
  } else if (j->is_array()) {
    for (json& item : *j) changed |= Walk(&item);
  } else if (j->is_object()) {
    if (NamesSecret(*j)) {
      auto value = j->find("value");
      if (value != j->end() && value->is_string() && *value != std::string(kRedacted)) {
        *value = std::string(kRedacted);
        changed = true;
      }
    }
    for (auto& [key, item] : j->items()) changed |= Walk(&item);
  }
  return changed;
}

}  // namespace

Report RedactReport(const Report& report) {
  // Diagnostics carry what their JSON form leaves out (the quoted source line), so they are
  // redacted in the model, field by field, and kept through the JSON walk below.
  Report out = report;
  bool changed = false;
  auto redact = [&changed](std::string* text) {
    std::string redacted = RedactText(*text);
    if (redacted == *text) return;
    *text = std::move(redacted);
    changed = true;
  };
  out.evidence.diagnostics.ForEachKept([&](Diagnostic& d) {
    redact(&d.message);
    redact(&d.snippet);
    redact(&d.context);
    redact(&d.location.file);
  });
  json j = ReportToJson(out);
  if (!Walk(&j)) return changed ? out : report;
  Report redacted;
  DiagnosticList ignored;
  if (!ReportFromJson(j, "", &redacted, &ignored)) {
    // Cannot happen for a report's own JSON; if it did, show nothing rather than the secret.
    Report empty;
    empty.context = report.context;
    empty.title = RedactText(report.title);
    return empty;
  }
  // The sections' lines come back from their (redacted) JSON, as a saved report's do.
  RestoreSections(&redacted);
  RestoreDataWait(&redacted);
  redacted.evidence.diagnostics = out.evidence.diagnostics;
  return redacted;
}

}  // namespace feedcheck::app
