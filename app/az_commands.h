// The Azure CLI commands `fetch` runs, as argv vectors (never a shell string), what their
// failures mean, and the few fields read from their JSON. Shapes: the CLI references of
// `az ml job show|download`, `az ml datastore show`, `az storage account show` and
// `az monitor metrics list` (cited in tests/data/az-standin/README.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/process_runner.h"

namespace feedcheck::app {

/// Where the job lives: --workspace, --resource-group, --subscription ("" for az's default).
struct AzWorkspace {
  std::string workspace;
  std::string resource_group;
  std::string subscription;
};

/// A name az may be given as a value (a job, datastore, compute or account name): letters,
/// digits, '-', '_' and '.', at most 255, not starting with '-' (az would read it as a flag) or
/// '.' ("..", "../x" never become a folder). Every name passed to az is checked with it.
bool IsAzName(const std::string& name);

std::vector<std::string> AzJobShowArgv(const std::string& job, const AzWorkspace& ws);
std::vector<std::string> AzJobDownloadArgv(const std::string& job, const AzWorkspace& ws,
                                           const std::string& download_path);
std::vector<std::string> AzDatastoreShowArgv(const std::string& datastore, const AzWorkspace& ws);
/// `az ml compute show`: the compute the job ran on, for its VM size.
std::vector<std::string> AzComputeShowArgv(const std::string& compute, const AzWorkspace& ws);
/// "azureml:gpu-cluster" (or an ARM id ending .../computes/gpu-cluster) -> "gpu-cluster".
std::string ComputeName(const std::string& compute);
/// `az ml compute show -o json`: its `size` ("STANDARD_ND96ASR_V4"), "" when it has none.
std::string ParseAzComputeSize(const std::string& json);

std::vector<std::string> AzStorageAccountShowArgv(const std::string& account,
                                                  const AzWorkspace& ws);
/// `az monitor metrics list` of the blob service of `account_id` at 1-minute grain, totals;
/// `dimension` ("ResponseType") splits the series, "" for none; `aggregations`: "Total",
/// "Average".
std::vector<std::string> AzMetricsArgv(const std::string& account_id,
                                       const std::vector<std::string>& metrics,
                                       const std::string& start_utc, const std::string& end_utc,
                                       const std::string& dimension,
                                       const std::vector<std::string>& aggregations);

/// `az monitor metrics list` of Azure ML's GpuUtilization for one job (the workspace metric,
/// filtered to the job's RunId, split by NodeId and DeviceId), 1-minute averages.
std::vector<std::string> AzGpuMetricsArgv(const std::string& workspace_id, const std::string& job,
                                          const std::string& start_utc, const std::string& end_utc);

/// True when an `az monitor metrics list` response holds at least one data point.
bool AzMetricsHaveData(const std::string& json);

/// The command as a person would type it, secrets redacted: for messages.
std::string AzCommandText(const std::vector<std::string>& argv);

/// Why an az command failed, as a diagnostic code and a message naming the command and the
/// cause (not logged in, AuthorizationFailed, ResourceNotFound, a time-out, not on PATH);
/// nullopt when it succeeded. az's own words are quoted with secrets redacted.
struct AzFailure {
  std::string code;
  std::string message;
};
std::optional<AzFailure> AzCommandFailure(const std::vector<std::string>& argv,
                                          const ProcessResult& result);

/// One input of the job: its name, its path (azureml://datastores/<ds>/paths/<p>, https,
/// wasbs://...) and the datastore or account it names.
struct AzJobInput {
  std::string name;
  std::string path;
  std::string mode;
  std::string datastore;  ///< from an azureml://.../datastores/<ds>/paths/... path
  std::string account;    ///< from a wasbs/abfss/https blob path
};

/// What `az ml job show -o json` says the post-mortem needs.
struct AzJob {
  std::string name;
  std::string status;
  std::string compute;
  std::string workspace_id;  ///< from `id` (azureml:/subscriptions/.../workspaces/W/jobs/J)
  std::string start_utc;     ///< properties.StartTimeUtc, else creation_context.created_at
  std::string end_utc;       ///< properties.EndTimeUtc, else creation_context.last_modified_at
  std::vector<AzJobInput> inputs;
};
bool ParseAzJob(const std::string& json, AzJob* job, std::string* error);

/// `az ml datastore show -o json` of a blob datastore: type, account_name, container_name.
struct AzDatastore {
  std::string name;
  std::string type;
  std::string account_name;
  std::string container_name;
};
bool ParseAzDatastore(const std::string& json, AzDatastore* datastore, std::string* error);

/// `az storage account show -o json`: the account's resource id.
bool ParseAzResourceId(const std::string& json, std::string* id, std::string* error);

}  // namespace feedcheck::app
