// The settings a finished job ran with, from its definition saved in the job folder: `job.yml`
// / `job.yaml` (the Azure ML CLI v2 command job YAML that was submitted, read by the same reader
// as lint, rules/job_file.h) or `job.json` (`az ml job show -o json`, whose
// `environment_variables` map holds them). Each variable becomes a runtime.setting.<VAR> fact
// naming the file and line (YAML) or the key (JSON).
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"
#include "rules/job_file.h"

namespace feedcheck::rules {

/// At most this many variables are kept (a job sets a handful); values are cut at 256 bytes.
inline constexpr size_t kMaxJobSpecSettings = 512;
inline constexpr size_t kMaxJobSpecValueBytes = 256;

struct JobSpec {
  std::string path;  ///< the file read; "" when the folder has none
  /// name, value ("REDACTED" for a credential), file, line (0 for JSON: `key` says where).
  std::vector<JobEnv> env;
  std::vector<std::string> keys;  ///< per env entry: "environment_variables.<VAR>" (JSON)
  /// Outputs written through storage (rw_mount, the default, or upload), with the line of each.
  std::vector<std::pair<std::string, int>> writing_outputs;
  /// Of those, the ones written through a mount while the job runs (rw_mount, the default): a
  /// save to them waits on storage; an upload output is copied after the job's code ends.
  std::vector<std::pair<std::string, int>> rw_mount_outputs;
};

/// Reads a job's definition (which files are one: analyzers/job_definition.h). False, with an
/// error naming file:line, when it cannot be read (past 16 MiB, malformed YAML or JSON, not a
/// command job; in JSON, environment_variables not an object); a YAML environment_variables that
/// is not a mapping is a warning, as lint says it, and gives no settings.
bool ReadJobSpecFile(const std::string& path, JobSpec* out, DiagnosticList* diagnostics);

/// Reads one job definition: JSON when `name` ends in .json, else the CLI v2 YAML. Content past
/// 16 MiB (core/input_file.h kMaxConfigFileBytes) is refused unread.
bool ReadJobSpecText(const std::string& name, const std::string& content, JobSpec* out,
                     DiagnosticList* diagnostics);

/// runtime.setting.<VAR> for each variable, declared by the job's definition: provenance
/// "<file>:<line>" (YAML) or "<file> environment_variables.<VAR>" (JSON); and
/// runtime.writing_outputs when it writes outputs through storage, runtime.rw_mount_outputs
/// when through a mount while it runs.
FactSet JobSpecFacts(const JobSpec& spec);

}  // namespace feedcheck::rules
