// `advise`: facts from probes and analyzers and/or a workload profile -> findings (most severe
// first, with evidence), rules not evaluated, the env vars to paste and BlobFuse2 fragments.
#pragma once

#include <string>
#include <vector>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"

namespace feedcheck::app {

struct AdviseRequest {
  KnowledgeInputs knowledge;
  std::vector<std::string> facts_files;  ///< facts.json / saved results of probe and analyze
  std::string profile;                   ///< workload profile YAML, "" for none
  std::string env_format = "yaml";       ///< yaml | shell | python | json
  std::string fail_on = "critical";
};

/// The Report has the findings, rules not evaluated, the merged settings (report.env, and the
/// env block in `env_format` as a config fragment), the facts; `result` counts them (findings,
/// critical, warnings, info, not_evaluated, settings, input_mode). kUsage for a bad request,
/// kInputError for broken inputs or rules, kFindings at or above fail_on.
Outcome RunAdvise(const AdviseRequest& request);

/// The merged settings alone, in `env_format` (yaml, shell, python, json): what
/// `advise --env-format F` prints for a person, ready to paste and nothing else.
std::string AdviceEnvText(const Report& report, const std::string& env_format);

}  // namespace feedcheck::app
