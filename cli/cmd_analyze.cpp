// `feedcheck analyze PATH... [--format F] [--gpu-busy-threshold P]`: reads what a job left
// behind (data-runtime logs, storage metrics, GPU samples) and prints, per source, what was
// read, malformed lines with file:line, and the facts found; --json prints the evidence.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/analyze_paths.h"
#include "analyzers/job_folder_help.h"
#include "cli/command.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"

namespace feedcheck::cli {

namespace {

struct AnalyzeOptions {
  std::vector<std::string> paths;
  std::string format;
  double gpu_busy_threshold = 10;
};

constexpr size_t kFactsPerSource = 14;
constexpr size_t kDiagnosticsPerSource = 3;

std::string Plural(uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Provenance with the file's directory dropped: the summary lists the full paths above.
std::string ShortSource(const Provenance& p) {
  std::string s = p.source;
  for (const std::string& file : {p.file}) {
    if (file.empty()) continue;
    std::string base = std::filesystem::path(file).filename().string();
    for (size_t at = s.find(file); at != std::string::npos; at = s.find(file, at + base.size()))
      s.replace(at, file.size(), base);
  }
  return s;
}

std::string FactLine(const Fact& f) {
  return fmt::format("  {:<40} {:<14} {}", f.key, FormatFactValue(f), ShortSource(f.provenance));
}

void PrintSummary(const analyzers::AnalysisResult& r) {
  size_t files = 0;
  for (const auto& s : r.sources) files += s.files.size();
  fmt::print("feedcheck analyze: {} read from {}\n", Plural(files, "file"),
             Plural(r.sources.size(), "source"));
  // A key set by several sources (runtime.mode: rslex guesses, data-capability knows) is shown
  // under the last one, whose value won.
  std::map<std::string, size_t> owner;
  for (size_t i = 0; i < r.sources.size(); ++i)
    for (const auto& k : r.sources[i].fact_keys) owner[k] = i;
  std::set<std::string> printed;
  for (size_t si = 0; si < r.sources.size(); ++si) {
    const auto& s = r.sources[si];
    fmt::print("\n{}: {}, {}, {} malformed ({:.1f} MB)\n", s.format, Plural(s.files.size(), "file"),
               Plural(s.lines, "line"), s.malformed, static_cast<double>(s.bytes) / 1e6);
    for (const auto& f : s.files) fmt::print("  {}\n", f);
    std::set<std::string> source_files(s.files.begin(), s.files.end());
    size_t shown = 0, total = 0;
    for (const auto& d : r.evidence.diagnostics.kept()) {
      if (!source_files.count(d.location.file)) continue;
      ++total;
      if (shown++ < kDiagnosticsPerSource) {
        std::string text = FormatDiagnostic(d);
        for (size_t p = text.find('\n'); p != std::string::npos; p = text.find('\n', p + 1))
          text.insert(p + 1, "  ");
        fmt::print("  {}\n", text);
      }
    }
    if (total > kDiagnosticsPerSource)
      fmt::print("  ... {} more diagnostics (--json lists them)\n", total - kDiagnosticsPerSource);
    size_t n = 0;
    std::vector<std::string> keys;
    for (const auto& k : s.fact_keys)
      if (owner[k] == si && printed.insert(k).second) keys.push_back(k);
    for (const auto& k : keys) {
      const Fact* f = r.evidence.facts.Find(k);
      if (!f) continue;
      if (n++ < kFactsPerSource) fmt::print("{}\n", FactLine(*f));
    }
    if (n > kFactsPerSource)
      fmt::print("  ... {} more facts (--json lists them)\n", n - kFactsPerSource);
  }
  if (!r.correlation_keys.empty()) {
    fmt::print("\ncorrelation:\n");
    for (const auto& k : r.correlation_keys)
      if (const Fact* f = r.evidence.facts.Find(k)) fmt::print("{}\n", FactLine(*f));
  }
  if (!r.evidence.timeline.empty()) {
    std::map<std::string, size_t> lanes;
    for (const auto& iv : r.evidence.timeline) ++lanes[iv.lane];
    std::vector<std::string> parts;
    for (const auto& [lane, count] : lanes) parts.push_back(fmt::format("{} {}", lane, count));
    fmt::print("\ntimeline: {} intervals ({})\n", r.evidence.timeline.size(),
               fmt::join(parts, ", "));
  }
  if (!r.skipped.empty()) {
    fmt::print("\nnot read:\n");
    for (const auto& s : r.skipped) fmt::print("  {}: {}\n", s.path, s.reason);
  }
  for (const auto& d : r.evidence.diagnostics.kept())
    if (d.code == "A200") fmt::print(stderr, "{}\n", FormatDiagnostic(d));
}

}  // namespace

void SetupAnalyze(CLI::App& root, CommandTable& table) {
  auto opt = std::make_shared<AnalyzeOptions>();
  CLI::App* sub = root.add_subcommand(
      "analyze",
      "Read a job's data-runtime logs (data-capability.log, rslex.log.*), storage metrics and "
      "GPU samples; print facts and a timeline");
  sub->add_option("PATH", opt->paths, "Files or job log folders (system_logs/data_capability/)")
      ->required();
  std::vector<std::string> names;
  for (auto n : analyzers::FormatNames()) names.emplace_back(n);
  sub->add_option("--format", opt->format, "Read every file as this format (default: detect)")
      ->check(CLI::IsMember(names));
  sub->add_option("--gpu-busy-threshold", opt->gpu_busy_threshold,
                  "GPU utilisation (%) under which a sample counts as starved")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  table.Add(sub, [opt, &table] {
    analyzers::AnalyzeRequest req;
    req.paths = opt->paths;
    if (!opt->format.empty()) req.forced_format = analyzers::FormatFromName(opt->format);
    req.options.gpu_busy_threshold_percent = opt->gpu_busy_threshold;
    analyzers::AnalysisResult r = analyzers::AnalyzePaths(req);
    if (table.globals().json) {
      nlohmann::json j = EvidenceToJson(r.evidence);
      fmt::print("{}\n", JsonText(j, 2));
    } else {
      PrintSummary(r);
    }
    if (!r.anything_read) {
      fmt::print(stderr, "{}", analyzers::NothingReadableHelp("analyze", opt->paths, r));
      return ToInt(ExitStatus::kInputError);
    }
    return ToInt(ExitStatus::kOk);
  });
}

}  // namespace feedcheck::cli
