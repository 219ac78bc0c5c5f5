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

struct LintProblem {
  std::string code;
  Severity severity = Severity::kWarning;
  std::string message;  ///< what is wrong
  std::string change;   ///< what to write instead
  SourceLocation location;
  std::string rule_id;  ///< the rule behind the advice
  /// The environment variable the problem is about (for a misspelt one, the name it means).
  std::string setting;
  /// The pipeline steps (or sweep trial) the problem is in; empty for a command job.
  std::vector<std::string> steps;
};

/// Compares the job with the advice. Findings of severity warning or above that no problem
/// class covers are reported as codes::kLintOther so nothing the rules say is lost. Problems come
/// in line order (the way a reader goes through the file), those about the whole file last.
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

/// Settings whose size does not fit the node: DATASET_MOUNT_MEMORY_CACHE_SIZE or
/// DATASET_MOUNT_BLOCK_FILE_CACHE_MAX_QUEUE_SIZE above its RAM, DATASET_MOUNT_CACHE_SIZE (to
/// use, or to leave free) above its local disk. `ram_bytes` / `disk_bytes` 0 when unknown.
std::vector<LintProblem> NodeLimitProblems(const JobFile& job, const std::string& sku,
                                           double ram_bytes, double disk_bytes);

/// Keys that are schema keys misspelt (`paths:` for `path:`), each with the likely key.
std::vector<LintProblem> KeyProblems(const std::vector<KeyTypo>& typos);

/// Data inputs in mode `direct`: the job's own code reads storage, without the data runtime's
/// prefetch, cache and retries the guide's advice is about.
std::vector<LintProblem> DirectInputs(const JobFile& job);

/// Training data read through an output: the command hands an rw_mount output to an argument
/// named for data (`--data ${{outputs.x}}`, `--train_dir`), or the job reads no data input
/// while `dataset_declared` (the profile describes the data it trains on). A read-write mount
/// is for results; the guide reads data through ro_mount or download inputs.
std::vector<LintProblem> OutputReads(const JobFile& job, bool dataset_declared);

/// Problems of several steps as one list: the same problem (a component shared by two steps)
/// once, naming every step it is in; then in line order per file.
std::vector<LintProblem> MergeStepProblems(std::vector<LintProblem> problems);

/// Line order, as a reader goes through the file; whole-file problems (line 0) last; on one
/// line the more severe first.
void SortProblems(std::vector<LintProblem>* problems);

std::vector<LintProblem> LintJob(const JobFile& job, const EvaluationResult& result,
                                 const Advice& advice);

}  // namespace feedcheck::rules
