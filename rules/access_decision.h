// One decision about how a job reads its data, taken once from the workload's facts: the input
// mode, the settings that act on that mode, and the findings that judge it. `advise` judges the
// mode it recommends, `lint` the mode the job declares; the post-mortem's settings go through
// AdviceForMode. So no report advises a mode and judges another, or pastes a setting that lint
// would call without effect.
#pragma once

#include <string>
#include <vector>

#include "core/fact_set.h"
#include "core/finding.h"
#include "rules/advice.h"
#include "rules/rule_set.h"

namespace feedcheck::rules {

/// Which mode the findings judge.
enum class JudgedMode {
  kRecommended,  ///< advise: the mode the rules recommend (the declared one when none is)
  kDeclared,     ///< lint and the post-mortem: the mode the job has
};

/// What the job reads, where the facts alone do not say it.
struct WorkloadScope {
  /// The job reads data through an input (or the profile describes the data it reads). A job
  /// that reads none gets no storage finding: there is no read to limit.
  bool reads_data = true;
  /// The job writes outputs (an account's ingress limit can matter even without reads).
  bool writes_data = false;
  /// An output is mounted (rw_mount, an output's default): the mount settings act on it
  /// whatever mode the inputs are read in.
  bool mounts_output = false;
};

/// A setting a rule advised that does not act on the decided mode, and why it was not kept.
struct DroppedSetting {
  EnvSetting setting;
  std::string rule_id;
  std::string reason;
};

/// A finding left out because it is about something the job does not do.
struct DroppedFinding {
  std::string rule_id;
  std::string reason;
};

struct AccessDecision {
  std::string declared_mode;  ///< workload.mode as the facts give it; "" when none
  std::string mode;           ///< the mode the findings judge
  std::string mode_rule;      ///< the rule recommending a switch; "" when the mode is kept
  /// The findings (most severe first) and rules not evaluated, for `mode`.
  EvaluationResult result;
  /// The settings to paste, for `mode` only; advice.mode is the recommended mode ("" for none).
  Advice advice;
  std::vector<DroppedSetting> dropped_settings;
  std::vector<DroppedFinding> dropped_findings;
  /// Why the data runtime's settings are out of scope for this data ("" when they are not): it
  /// is not read through an Azure ML datastore (an Azure NetApp Files volume).
  std::string out_of_scope;
};

/// Why data in storage of `account_kind` is outside what the Azure ML data runtime reads ("" for
/// the datastores it reads: blob, ADLS Gen2, Azure Files).
std::string OutsideDatastores(const std::string& account_kind);

/// True for the modes the data runtime mounts (ro_mount, eval_mount, rw_mount).
bool IsMountMode(const std::string& mode);
/// True for the modes the data runtime downloads (download, eval_download).
bool IsDownloadMode(const std::string& mode);

/// Why `name` does not act on an input read in `mode` ("" when it does): DATASET_MOUNT_* and
/// DATASET_UNMOUNT_* act on mounts only, RSLEX_DOWNLOADER_THREADS on downloads only, and no data
/// runtime setting acts on mode direct (the job's own code reads the URI).
std::string SettingOutsideMode(const std::string& name, const std::string& mode);

/// Why an input at `path` is outside Azure ML's datastores ("" when it is in: azureml:// and
/// asset references, Azure storage URLs, local paths the job uploads to the workspace's
/// datastore): a web server, S3 or Google Cloud Storage. Their limits are not a storage
/// account's, and the advice about Azure storage is out of scope for them.
std::string SourceOutsideDatastores(const std::string& path);

/// True for findings about reading storage (egress, request rate, caches, reader threads, small
/// files, the access mode, access failures): they need a job that reads data.
bool IsStorageReadFinding(const Finding& finding);

/// The settings of `findings` (merged, most severe first) that act on an input read in `mode`;
/// the others go to `dropped` with the reason. What the post-mortem pastes for the mode the job
/// ran with goes through this, as `advise` and `lint` do through DecideAccess.
Advice AdviceForMode(const std::vector<Finding>& findings, const std::string& mode,
                     std::vector<DroppedSetting>* dropped);

/// Evaluates `rules` over `facts` and decides. With kRecommended, when the rules recommend
/// another mode than the declared one, the facts are evaluated again under that mode: the
/// findings are those of the mode advised, plus the findings that recommend it.
AccessDecision DecideAccess(const RuleSet& rules, const FactSet& facts, JudgedMode judged,
                            const WorkloadScope& scope = {});

}  // namespace feedcheck::rules
