#include "app/analyze_workflow.h"

#include <fmt/format.h>

#include <map>

#include "analyzers/analyze_paths.h"
#include "analyzers/clock_offset.h"
#include "analyzers/format_detect.h"
#include "analyzers/job_folder_help.h"
#include "core/diagnostic_codes.h"

namespace feedcheck::app {
namespace {

// A file under the one folder given is named from that folder, as the user sees it there: the
// full path repeats what the report's target already says and outgrows the terminal.
std::string ShownPath(const std::string& file, const std::vector<std::string>& roots) {
  if (roots.size() != 1) return file;
  std::string root = roots[0];
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (file.size() > root.size() + 1 && file.compare(0, root.size(), root) == 0 &&
      file[root.size()] == '/')
    return file.substr(root.size() + 1);
  return file;
}

ReportTable SourcesTable(const analyzers::AnalysisResult& r,
                         const std::vector<std::string>& roots) {
  ReportTable t;
  t.title = "Sources";
  t.columns = {{"format", "Format"},
               {"files", "Files", true},
               {"lines", "Lines", true},
               {"malformed", "Malformed", true},
               {"megabytes", "MB", true}};
  for (const auto& s : r.sources) {
    const double mb = static_cast<double>(s.bytes) / 1e6;
    t.rows.push_back({{s.format, std::nullopt},
                      CountCell(s.files.size()),
                      CountCell(s.lines),
                      CountCell(s.malformed),
                      {fmt::format("{:.1f}", mb), mb}});
    for (const auto& f : s.files)
      t.notes.push_back(fmt::format("{}: {}", s.format, ShownPath(f, roots)));
  }
  if (r.sources.empty()) t.notes.push_back("nothing read");
  return t;
}

// Facts two sources agree or disagree on (GPU idle while the download ran, ...).
ReportTable CorrelationTable(const analyzers::AnalysisResult& r) {
  ReportTable t;
  t.title = "Correlation";
  t.columns = {{"key", "Fact"}, {"value", "Value"}, {"source", "Source"}};
  for (const auto& k : r.correlation_keys)
    if (const Fact* f = r.evidence.facts.Find(k))
      t.rows.push_back(
          {{f->key, std::nullopt},
           {FormatFactValue(*f), f->is_number() ? std::optional(f->number()) : std::nullopt},
           {f->provenance.source, std::nullopt}});
  return t;
}

void AddResults(const analyzers::AnalysisResult& r, Report* report) {
  uint64_t files = 0, lines = 0, malformed = 0;
  for (const auto& s : r.sources) {
    files += s.files.size();
    lines += s.lines;
    malformed += s.malformed;
  }
  std::map<std::string, size_t> lanes;
  for (const auto& iv : r.evidence.timeline) ++lanes[iv.lane];
  auto count = [&](const char* key, double n, const char* label) {
    report->result.push_back({key, n, "", label});
  };
  count("files", static_cast<double>(files), "Files read");
  count("sources", static_cast<double>(r.sources.size()), "Sources");
  count("lines", static_cast<double>(lines), "Lines");
  count("malformed", static_cast<double>(malformed), "Malformed lines");
  count("not_read", static_cast<double>(r.skipped.size()), "Files not read");
  count("facts", static_cast<double>(r.evidence.facts.size()), "Facts");
  count("series", static_cast<double>(r.evidence.series.size()), "Series");
  count("timeline_intervals", static_cast<double>(r.evidence.timeline.size()),
        "Timeline intervals");
}

}  // namespace

std::vector<std::string> InputFormatNames() {
  std::vector<std::string> names;
  for (std::string_view name : analyzers::FormatNames()) names.emplace_back(name);
  return names;
}

bool IsInputFormatName(const std::string& name) {
  return analyzers::FormatFromName(name).has_value();
}

Outcome RunAnalyze(const AnalyzeRequest& request) {
  analyzers::AnalyzeRequest analyze;
  analyze.paths = request.paths;
  if (!request.input_format.empty()) {
    analyze.forced_format = analyzers::FormatFromName(request.input_format);
    if (!analyze.forced_format)
      return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                     fmt::format("--input-format: unknown format '{}' ({})", request.input_format,
                                 fmt::join(InputFormatNames(), ", ")));
  }
  analyze.options.gpu_busy_threshold_percent = request.gpu_busy_threshold_percent;
  if (!request.gpu_utc_offset.empty()) {
    std::string error;
    analyze.options.gpu_utc_offset_s = analyzers::ParseUtcOffsetS(request.gpu_utc_offset, &error);
    if (!analyze.options.gpu_utc_offset_s)
      return Stopped(ExitStatus::kUsage, codes::kBadFlag, "--gpu-utc-offset: " + error);
  }
  analyzers::AnalysisResult r = analyzers::AnalyzePaths(analyze);

  Outcome outcome;
  Report& report = outcome.report;
  report.context = CurrentRunContext("analyze");
  report.context.target = fmt::format("{}", fmt::join(request.paths, " "));
  report.title = "Analysis";
  AddResults(r, &report);
  report.tables.push_back(SourcesTable(r, request.paths));
  if (!r.correlation_keys.empty()) report.tables.push_back(CorrelationTable(r));
  for (const auto& s : r.skipped)
    AddMessage(&outcome.diagnostics, codes::kNotRead,
               fmt::format("not read: {}: {}", s.path, s.reason), DiagnosticSeverity::kWarning);
  outcome.has_report = true;
  if (!r.anything_read) {
    // The help lists what was looked for and where Azure ML keeps it: a next step.
    std::string help = analyzers::NothingReadableHelp("analyze", request.paths, r);
    if (!help.empty() && help.back() == '\n') help.pop_back();
    const std::string prefix = "feedcheck analyze: ";  // the CLI names the command itself
    if (help.rfind(prefix, 0) == 0) help.erase(0, prefix.size());
    AddMessage(&outcome.diagnostics, codes::kNothingReadable, std::move(help));
    outcome.status = ExitStatus::kInputError;
  }
  report.evidence = std::move(r.evidence);
  return outcome;
}

}  // namespace feedcheck::app
