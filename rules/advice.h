// Merges what the findings recommend into one set to paste: environment variables (the most
// severe finding wins a conflict, and the conflict is reported), the input mode, and BlobFuse2
// config fragments.
#pragma once

#include <string>
#include <vector>

#include "core/fact_set.h"
#include "core/finding.h"

namespace feedcheck::rules {

struct EnvConflict {
  std::string name;
  std::string kept_value;
  std::string kept_rule;
  std::string dropped_value;
  std::string dropped_rule;
};

struct Advice {
  std::vector<EnvSetting> env;
  std::vector<std::string> env_rules;  ///< env_rules[i]: the rule that set env[i]
  std::vector<EnvConflict> conflicts;
  std::string mode;  ///< recommended input mode ("" when no rule recommends one)
  std::string mode_rule;
  std::vector<ConfigFragment> config;  ///< BlobFuse2 fragments, each headed by its rule id
};

/// `findings` must be ordered most severe first (RuleSet::Evaluate does so).
Advice MergeAdvice(const std::vector<Finding>& findings);

/// Takes out of `advice` the settings the facts already show at the advised value
/// (runtime.setting.NAME, from the job file or the runtime's log): there is nothing to paste
/// for them. Returns them, each with its rule in `rules`.
std::vector<EnvSetting> TakeSettingsInPlace(const FactSet& facts, Advice* advice,
                                            std::vector<std::string>* rules);

/// Env values compare equal when they mean the same to the runtime: booleans ignoring case
/// ("True" == "true") and numerically equal plain numbers ("80" == "80.0"); anything else must
/// match exactly.
bool SameEnvValue(const std::string& a, const std::string& b);

/// The advised mode as an input in `input_mode` takes it: an input read through an evaluated
/// MLTable (eval_mount, eval_download) keeps the evaluation, so ro_mount is eval_mount for it
/// and download is eval_download.
std::string ModeForInput(const std::string& input_mode, const std::string& advised);

}  // namespace feedcheck::rules
