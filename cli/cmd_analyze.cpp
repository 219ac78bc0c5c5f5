// `feedcheck analyze PATH... [--input-format F] [--gpu-busy-threshold P] [-f term|json|md|html]
// [-o FILE]`: flags for app::RunAnalyze, which reads what a job left behind into facts, series
// and a timeline.
#include <fmt/format.h>

#include <memory>

#include "app/analyze_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupAnalyze(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::AnalyzeRequest>();
  auto output = std::make_shared<OutputFlags>();
  auto input_format = std::make_shared<std::string>();
  CLI::App* sub = root.add_subcommand(
      "analyze",
      "Read a job's data-runtime logs (data-capability.log, rslex.log.*), storage metrics and "
      "GPU samples; print facts and a timeline");
  sub->add_option("PATH", request->paths, "Files or job log folders (system_logs/data_capability/)")
      ->required();
  const std::vector<std::string> names = app::InputFormatNames();
  sub->add_option("--input-format", *input_format,
                  "Read every file as this format (default: detect)")
      ->check(CLI::IsMember(names));
  sub->add_option("--gpu-utc-offset", request->gpu_utc_offset,
                  "The zone nvidia-smi's clock was in, as +HH:MM or -HH:MM (its timestamps carry "
                  "none; default: UTC, guessed when they miss the logs by hours)");
  sub->add_option("--gpu-busy-threshold", request->gpu_busy_threshold_percent,
                  "GPU utilisation (%) under which a sample counts as starved")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  // --format once named the input format here; an input format's name is still read as one.
  AddOutputFlags(sub, output.get(), names);
  table.Add(sub, [request, output, input_format, &table] {
    std::string input = *input_format;
    OutputFlags out = *output;
    if (app::IsInputFormatName(out.format)) {
      fmt::print(stderr,
                 "feedcheck analyze: --format {0} reads the input as {0}; "
                 "--input-format {0} says so\n",
                 out.format);
      if (input.empty()) input = out.format;
      out.format.clear();
    }
    request->input_format = input;
    return Render(app::RunAnalyze(*request), out, table.globals(), "analyze");
  });
}

}  // namespace feedcheck::cli
