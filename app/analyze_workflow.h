// `analyze`: what a job left behind (data-runtime logs, storage metrics, GPU samples) read into
// facts, series and a timeline, with what each source held and the malformed lines at
// file:line. No rules: `advise` and `postmortem` judge.
#pragma once

#include <string>
#include <vector>

#include "app/outcome.h"

namespace feedcheck::app {

struct AnalyzeRequest {
  std::vector<std::string> paths;  ///< files or job log folders
  std::string input_format;  ///< read every file as this format (InputFormatNames); "" detects
  double gpu_busy_threshold_percent = 10;
  /// The zone nvidia-smi's clock was in ("+05:30"); "" reads UTC unless the samples miss the
  /// logs by hours (then guessed, with a note).
  std::string gpu_utc_offset;
};

/// The input formats the analyzers read, by name ("data-capability", "rslex", ...).
std::vector<std::string> InputFormatNames();
/// True when `name` is one of InputFormatNames().
bool IsInputFormatName(const std::string& name);

/// The Report's evidence holds everything read; its "Sources" table what each analyzer read;
/// `result` the counts (files, sources, lines, malformed, facts, timeline_intervals). Status
/// kInputError when nothing could be read; kUsage for an unknown input format.
Outcome RunAnalyze(const AnalyzeRequest& request);

}  // namespace feedcheck::app
