// `feedcheck compare A.json B.json`: what changed between two saved results (probe, pre-flight
// or post-mortem `--json`, or facts files), by how much, and whether it is outside the noise the
// results carry. Reading is report_json's, deciding result_compare's, formatting compare_report's.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli/command.h"
#include "core/exit_status.h"
#include "core/result_compare.h"
#include "core/units.h"
#include "reports/compare_report.h"
#include "reports/report_json.h"
#include "reports/reporter.h"

namespace feedcheck::cli {
namespace {

struct CompareOptions {
  std::string a, b;
  std::string format;  // "" : from -o's extension, else term
  std::string output;
  std::string tolerance = "2%";
  bool fail_on_worse = false;
};

std::string FormatFromExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".html" || ext == ".htm") return "html";
  if (ext == ".md") return "md";
  if (ext == ".json") return "json";
  return "term";
}

// Writes to a temporary file beside `path` and renames it: the file is whole or absent.
bool WriteWhole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".feedcheck-tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) {
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

int RunCompare(const CompareOptions& opts, const GlobalOptions& globals) {
  std::string format = opts.format;
  if (globals.json) {
    if (!format.empty() && format != "json") {
      fmt::print(stderr, "feedcheck compare: --json and --format {} disagree; give one\n", format);
      return ToInt(ExitStatus::kUsage);
    }
    format = "json";
  }
  if (format.empty()) format = opts.output.empty() ? "term" : FormatFromExtension(opts.output);

  std::string error;
  auto tolerance = ParseQuantity(opts.tolerance, &error);
  double fraction = -1;
  if (tolerance && tolerance->unit == Unit::kPercent) fraction = tolerance->value / 100;
  if (tolerance && tolerance->unit == Unit::kCount) fraction = tolerance->value;
  if (fraction < 0 || fraction >= 1) {
    fmt::print(stderr, "feedcheck compare: --tolerance '{}': give a share such as 2% or 0.02\n",
               opts.tolerance);
    return ToInt(ExitStatus::kUsage);
  }

  Report a, b;
  DiagnosticList diags;
  bool ok_a = LoadReportFile(opts.a, &a, &diags);
  bool ok_b = LoadReportFile(opts.b, &b, &diags);
  for (const auto& d : diags.kept()) fmt::print(stderr, "{}\n", FormatDiagnostic(d));
  if (!ok_a || !ok_b) {
    fmt::print(stderr, "feedcheck compare: cannot read {}\n", !ok_a ? opts.a : opts.b);
    return ToInt(ExitStatus::kInputError);
  }
  Comparison cmp = CompareResults({opts.a, a.verdict, &a.evidence.facts},
                                  {opts.b, b.verdict, &b.evidence.facts}, fraction);

  std::ostringstream text;
  const bool to_terminal = opts.output.empty() || opts.output == "-";
  const bool color =
      to_terminal && format == "term" &&
      ColorWanted(globals.no_color, isatty(fileno(stdout)) != 0, std::getenv("NO_COLOR"));
  RenderComparison(cmp, format, color, text);
  if (to_terminal) {
    fmt::print("{}", text.str());
  } else if (!WriteWhole(opts.output, text.str())) {
    fmt::print(stderr, "feedcheck compare: cannot write {}\n", opts.output);
    return ToInt(ExitStatus::kInputError);
  } else {
    fmt::print(stderr, "compare: wrote {} ({})\n", opts.output, format);
  }
  return ToInt(opts.fail_on_worse && cmp.worse > 0 ? ExitStatus::kFindings : ExitStatus::kOk);
}

}  // namespace

void SetupCompare(CLI::App& root, CommandTable& table) {
  auto opts = std::make_shared<CompareOptions>();
  CLI::App* sub = root.add_subcommand(
      "compare", "What changed between two saved results (probe, preflight or postmortem --json)");
  sub->add_option("A", opts->a, "The result before (JSON)")->required();
  sub->add_option("B", opts->b, "The result after (JSON)")->required();
  sub->add_option("-f,--format", opts->format,
                  "term|json|md|html (default: from -o's extension, else term)")
      ->check(CLI::IsMember({"term", "json", "md", "html"}));
  sub->add_option("-o,--output", opts->output, "Write to FILE (whole or not at all)");
  sub->add_option("--tolerance", opts->tolerance,
                  "Relative change below which a fact with no noise band is the same (2%)");
  sub->add_flag("--fail-on-worse", opts->fail_on_worse,
                "Exit 1 when a result got worse beyond its noise band (a CI gate)");
  table.Add(sub, [opts, &table] { return RunCompare(*opts, table.globals()); });
}

}  // namespace feedcheck::cli
