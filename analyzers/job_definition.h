// Which files in a job folder are the job's definition, not its logs: the CLI v2 job YAML that
// was submitted (job.yml, job.yaml) or `az ml job show -o json` saved as job.json. A folder walk
// sets them aside; `postmortem` reads their environment_variables (rules/job_spec.h) and the
// diagnosis counts the settings they give as the job's own record (diagnosis/evidence_sources.h).
#pragma once

#include <iterator>
#include <string_view>

namespace feedcheck::analyzers {

/// In the order they are preferred when a folder holds more than one.
inline constexpr const char* kJobDefinitionNames[] = {"job.yml", "job.yaml", "job.json"};

/// The rank of `path`'s file name in kJobDefinitionNames; std::size(kJobDefinitionNames) when it
/// is none of them.
inline size_t JobDefinitionRank(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t i = 0;
  while (i < std::size(kJobDefinitionNames) && name != kJobDefinitionNames[i]) ++i;
  return i;
}

/// Whether `path` names a job definition (by its file name).
inline bool IsJobDefinitionFile(std::string_view path) {
  return JobDefinitionRank(path) < std::size(kJobDefinitionNames);
}

}  // namespace feedcheck::analyzers
