#include "rules/lint_codes.h"

namespace feedcheck::rules {

const std::vector<LintCode>& LintCodes() {
  static const std::vector<LintCode> kCodes = {
      {kLintWrongMode, "InputMode", "An input's mode differs from the one the advice recommends",
       "Change the input's mode: to the one the rule names (download when the data fits the "
       "node's disk and is read more than once, ro_mount otherwise), as the guide's \"Modes\" "
       "and \"Download\" sections describe.",
       "warning"},
      {kLintMissingEnv, "MissingSetting", "A recommended data-runtime setting is not set",
       "Add the environment variable under environment_variables: with the value the rule gives "
       "(the guide's \"Available mount settings\" and its recipes).",
       "warning"},
      {kLintContradictingEnv, "ContradictingSetting",
       "A data-runtime setting differs from the recommended value",
       "Set the environment variable to the value the rule gives, or remove it for the "
       "runtime's default.",
       "warning"},
      {kLintEgress, "NodesBeyondAccount",
       "More nodes than one storage account feeds at full NIC rate",
       "Replicate or stripe the data across the storage accounts the plan names, or ask for a "
       "higher account limit (the guide's \"Storage load\" and \"Scaling across multiple storage "
       "accounts\").",
       "warning"},
      {kLintOther, "Finding", "A finding of the rules about this job",
       "Follow the change the finding gives; feedcheck's docs/rules.md lists every rule.",
       "warning"},
      {kLintNoEffect, "SettingWithoutEffect",
       "A setting for another input mode, which does nothing here",
       "Remove the setting, or change the mode it is meant for (DATASET_MOUNT_* act on mounts, "
       "including rw_mount outputs; RSLEX_DOWNLOADER_THREADS on downloads).",
       "warning"},
      {kLintUnknownSetting, "UnknownSetting",
       "A data-runtime setting name the guide does not document: the runtime ignores it",
       "Rename it to the documented setting it most likely means (\"Available download "
       "settings\", \"Available mount settings\").",
       "warning"},
      {kLintBadValue, "SettingValue", "A setting's value is outside what the guide allows",
       "Give a value of the documented type and range, or remove it for the default.", "warning"},
      {kLintUnknownKey, "UnknownKey", "A job key that is a schema key misspelt",
       "Rename the key to the schema key it most likely means (`path:` for `paths:`): Azure ML "
       "refuses the job, or what the key sets is lost.",
       "warning"},
      {kLintNodeSize, "NodeSizeUnknown",
       "No VM size: the checks that need the node's NIC, disk and cores were not run",
       "Give the compute cluster's VM size with --sku, or add resources.instance_type to the "
       "job.",
       "note"},
      {kLintDirect, "DirectRead",
       "A data input in mode direct: the job's own code reads storage, outside the data "
       "runtime",
       "Keep direct for Spark or a loader that reads URIs; for training data read as files, "
       "mount (ro_mount) or download it through the data runtime.",
       "note"},
      {kLintSecret, "CredentialInJobFile",
       "A credential (account key, SAS token, secret) written into the job file",
       "Remove it from the job file and rotate it; read it in the job from Azure Key Vault, or "
       "give the compute a managed identity with a storage data role. Source: \"Use "
       "authentication credential secrets in Azure Machine Learning jobs\", "
       "https://learn.microsoft.com/azure/machine-learning/how-to-use-secrets-in-runs",
       "warning"},
  };
  return kCodes;
}

}  // namespace feedcheck::rules
