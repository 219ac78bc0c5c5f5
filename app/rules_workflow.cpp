#include "app/rules_workflow.h"

#include <fmt/format.h>

#include <set>

#include "app/fact_gathering.h"
#include "core/plural.h"
#include "core/run_context.h"
#include "rules/rule_set.h"

namespace feedcheck::app {
namespace {

void AddCount(Report* report, const char* key, size_t n, const char* label) {
  report->result.push_back({key, static_cast<double>(n), "", label});
}

}  // namespace

Outcome RunRulesList(const RulesListRequest& request) {
  Outcome out;
  rules::RuleSet set;
  const bool ok = LoadRules(request.knowledge, &set, &out.diagnostics);
  ReportTable table;
  table.title = "Rules";
  table.columns = {{"id", "Id"},
                   {"severity", "Severity"},
                   {"title", "Title"},
                   {"file", "File"},
                   {"line", "Line", true}};
  ReportTable sources;
  sources.title = "Sources";
  sources.columns = {{"id", "Id"}, {"source", "Source"}};
  sources.folded = true;
  size_t by_severity[3] = {0, 0, 0};
  std::set<std::string> files;
  for (const auto& r : set.rules()) {
    table.rows.push_back({TextCell(r.id), TextCell(std::string(SeverityName(r.severity))),
                          TextCell(r.title), TextCell(r.location.file),
                          CountCell(static_cast<size_t>(r.location.line))});
    sources.rows.push_back({TextCell(r.id), TextCell(r.source)});
    ++by_severity[r.severity == Severity::kCritical ? 0 : r.severity == Severity::kWarning ? 1 : 2];
    files.insert(r.location.file);
  }
  Report& report = out.report;
  report.context = CurrentRunContext("rules list");
  report.title = "Rule set";
  report.verdict_detail = fmt::format("{} from {}", Counted(double(set.rules().size()), "rule"),
                                      Counted(double(files.size()), "file"));
  AddCount(&report, "rules", set.rules().size(), "Rules");
  AddCount(&report, "critical", by_severity[0], "Critical");
  AddCount(&report, "warnings", by_severity[1], "Warnings");
  AddCount(&report, "info", by_severity[2], "Info");
  AddCount(&report, "files", files.size(), "Rule files");
  report.tables.push_back(std::move(table));
  report.tables.push_back(std::move(sources));
  out.has_report = true;
  out.status = ok ? ExitStatus::kOk : ExitStatus::kInputError;
  return out;
}

Outcome RunRulesValidate(const RulesValidateRequest& request) {
  Outcome out;
  out.diagnostics = DiagnosticList(1000);
  ReportTable table;
  table.title = "Files";
  table.columns = {{"file", "File"},
                   {"status", "Status"},
                   {"rules", "Rules", true},
                   {"errors", "Errors", true},
                   {"warnings", "Warnings", true}};
  size_t invalid = 0, with_warnings = 0, rules_total = 0, errors = 0, warnings = 0;
  for (const auto& path : request.files) {
    rules::RuleSet set;
    DiagnosticList diagnostics(1000);
    const bool ok = set.LoadFile(path, &diagnostics);
    const size_t file_warnings = diagnostics.total() - diagnostics.errors();
    std::string status = !ok ? "Invalid" : (diagnostics.total() > 0 ? "Ok, with warnings" : "Ok");
    invalid += ok ? 0 : 1;
    with_warnings += ok && diagnostics.total() > 0 ? 1 : 0;
    rules_total += set.rules().size();
    errors += diagnostics.errors();
    warnings += file_warnings;
    table.rows.push_back({TextCell(path), TextCell(status), CountCell(set.rules().size()),
                          CountCell(diagnostics.errors()), CountCell(file_warnings)});
    out.diagnostics.Append(diagnostics);
  }
  Report& report = out.report;
  report.context = CurrentRunContext("rules validate");
  report.title = "Rules validation";
  const size_t files = request.files.size();
  if (invalid > 0) {
    report.verdict = "invalid";
    report.verdict_level = VerdictLevel::kBad;
    report.verdict_detail =
        fmt::format("{} of {} {} invalid", invalid, files, files == 1 ? "file" : "files");
  } else if (with_warnings > 0) {
    report.verdict = "valid, with warnings";
    report.verdict_level = VerdictLevel::kWarning;
    report.verdict_detail = fmt::format("{} of {} {} with warnings", with_warnings, files,
                                        files == 1 ? "file" : "files");
  } else {
    report.verdict = "valid";
    report.verdict_level = VerdictLevel::kGood;
    report.verdict_detail = fmt::format("{} {} Ok", files, files == 1 ? "file" : "files");
  }
  AddCount(&report, "files", files, "Files");
  report.result.push_back({"valid", invalid == 0, "", "Valid"});
  AddCount(&report, "invalid", invalid, "Invalid");
  AddCount(&report, "with_warnings", with_warnings, "Ok, with warnings");
  AddCount(&report, "rules", rules_total, "Rules");
  AddCount(&report, "errors", errors, "Errors");
  AddCount(&report, "warnings", warnings, "Warnings");
  report.tables.push_back(std::move(table));
  out.has_report = true;
  out.status = invalid == 0 ? ExitStatus::kOk : ExitStatus::kInputError;
  return out;
}

}  // namespace feedcheck::app
