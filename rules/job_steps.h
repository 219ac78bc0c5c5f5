// The command steps of an Azure ML job file, each read into a JobFile for lint: a command job is
// one; a pipeline job (`type: pipeline`) has one per command entry of `jobs:`, inline or from a
// referenced component file (`component: file:./train.yml`, relative to the job file) with its
// inputs bound from the pipeline's (`${{parent.inputs.x}}`); a sweep job (`type: sweep`) has its
// `trial:` with the sweep's inputs and limits.max_concurrent_trials copies running at once.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "rules/job_file.h"

namespace feedcheck::rules {

/// Something lint did not read and says so (a registered component, a spark step).
struct StepNote {
  SourceLocation location;
  std::string text;
};

struct JobSteps {
  std::string kind;  ///< "command", "pipeline" or "sweep"
  std::vector<JobFile> steps;
  std::vector<StepNote> notes;
  std::vector<KeyTypo> typos;  ///< of the pipeline's or sweep's own keys
};

/// Reads the job file and the component files it references. False (with a diagnostic at
/// file:line) when it is not a job lint reads, or a referenced component file cannot be read.
bool ReadJobSteps(const std::string& path, JobSteps* out, DiagnosticList* diagnostics);
bool ReadJobStepsText(const std::string& name, const std::string& content, JobSteps* out,
                      DiagnosticList* diagnostics);

}  // namespace feedcheck::rules
