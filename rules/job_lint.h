// Lint of an AzureML job file against the advice the rules give for it: the input mode, the
// environment variables (missing or contradicting), and more nodes than one storage account
// feeds. Each problem says what to change and where (file:line).
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/finding.h"
#include "rules/advice.h"
#include "rules/job_file.h"
#include "rules/rule_set.h"

namespace feedcheck::rules {

// Problem codes (stable; tests pin them).
inline constexpr const char* kLintWrongMode = "L001";
inline constexpr const char* kLintMissingEnv = "L002";
inline constexpr const char* kLintContradictingEnv = "L003";
inline constexpr const char* kLintEgress = "L004";
inline constexpr const char* kLintOther = "L005";
inline constexpr const char* kLintNoEffect = "L006";        ///< a setting for the other input mode
inline constexpr const char* kLintUnknownSetting = "L007";  ///< a misspelt data-runtime setting
inline constexpr const char* kLintBadValue = "L008";        ///< a value the guide does not allow
inline constexpr const char* kLintSecret = "L009";          ///< a credential in the job file

struct LintProblem {
  std::string code;
  Severity severity = Severity::kWarning;
  std::string message;  ///< what is wrong
  std::string change;   ///< what to write instead
  SourceLocation location;
  std::string rule_id;  ///< the rule behind the advice
  /// The environment variable the problem is about (for a misspelt one, the name it means).
  std::string setting;
};

/// Compares the job with the advice. Findings of severity warning or above that no problem
/// class covers are reported as kLintOther so nothing the rules say is lost. Problems come in
/// line order (the way a reader goes through the file), those about the whole file last.
/// Environment variables that cannot act on this job: DATASET_MOUNT_* / DATASET_UNMOUNT_* when
/// every data input is downloaded, RSLEX_DOWNLOADER_THREADS when every data input is mounted.
std::vector<LintProblem> NoEffectSettings(const JobFile& job);

/// Settings the data runtime does not know (a DATASET_MOUNT_, RSLEX_ or AZUREML_DATASET_ name, or
/// one a letter or two from a documented name: it is ignored, silently) with the documented name it
/// most likely means, and values outside the type or range the guide documents.
std::vector<LintProblem> SettingProblems(const JobFile& job, const Advice& advice);

/// Credentials written into the job's environment_variables (AZURE_STORAGE_KEY,
/// AZURE_STORAGE_SAS_TOKEN, any secret-named variable or a value with a SAS signature): one
/// problem each, at its line, naming the variable and never its value.
std::vector<LintProblem> SecretSettings(const JobFile& job);

std::vector<LintProblem> LintJob(const JobFile& job, const EvaluationResult& result,
                                 const Advice& advice);

}  // namespace feedcheck::rules
