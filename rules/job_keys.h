// The keys of the Azure ML job schemas (command, pipeline and sweep jobs, their inputs, outputs,
// resources and distribution), so that a key a letter or two from one of them (`paths:` for
// `path:`) is flagged with the key it most likely means instead of being dropped in silence.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/diagnostic.h"
#include "core/diagnostic_codes.h"
#include "rules/job_file.h"

namespace feedcheck::rules {

enum class KeySet {
  kCommandJob,  ///< a command job or command component's top level
  kPipelineJob,
  kPipelineStep,  ///< an entry of a pipeline's jobs:
  kSweepJob,
  kInput,
  kOutput,
  kResources,
  kDistribution,
};

/// Appends a KeyTypo for each key of `map` that the schema does not have but that is close to
/// one it does. Keys far from every schema key are left alone (extensions, newer fields).
/// A job file's problem at `file`:`line` (codes::kJobFile).
inline Diagnostic JobDiagnostic(const std::string& file, int line, std::string message,
                                DiagnosticSeverity severity = DiagnosticSeverity::kError) {
  return Diagnostic{codes::kJobFile, severity, std::move(message), {file, line, 0}, "", ""};
}

void CheckKeys(const YAML::Node& map, KeySet set, const std::string& where, const std::string& file,
               std::vector<KeyTypo>* out);

}  // namespace feedcheck::rules
