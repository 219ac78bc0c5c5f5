// What to say when a job folder held nothing feedcheck reads: the files it looks for, where
// Azure ML keeps them and how to fetch them, so an empty or wrong folder ends with a next step
// instead of "nothing readable".
#pragma once

#include <string>
#include <vector>

#include "analyzers/analyze_paths.h"

namespace feedcheck::analyzers {

/// Several lines, each ending in '\n': what was given and looked at, the formats read (by file
/// name or content), where an Azure ML job keeps them ("Outputs + logs", system_logs/
/// data_capability/, user_logs/, azureml-logs/), the download command and the public pages
/// that say so. `command` names the subcommand ("postmortem", "analyze").
std::string NothingReadableHelp(const std::string& command, const std::vector<std::string>& paths,
                                const AnalysisResult& result);

}  // namespace feedcheck::analyzers
