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
  /// The storage accounts' subscription when it is not the workspace's
  /// (--storage-subscription; "" for the same).
  std::string storage_subscription;
};

/// A name az may be given as a value (a job, datastore, compute or account name): letters,
/// digits, '-', '_' and '.', at most 255, not starting with '-' (az would read it as a flag) or
/// '.' ("..", "../x" never become a folder). Every name passed to az is checked with it.
bool IsAzName(const std::string& name);

std::vector<std::string> AzJobShowArgv(const std::string& job, const AzWorkspace& ws);
std::vector<std::string> AzJobDownloadArgv(const std::string& job, const AzWorkspace& ws,
                                           const std::string& download_path);
std::vector<std::string> AzDatastoreShowArgv(const std::string& datastore, const AzWorkspace& ws);
/// `az ml data show` of a data asset, by version ("3") or, when `version` is "", by `label`
/// ("latest").
std::vector<std::string> AzDataShowArgv(const std::string& name, const std::string& version,
                                        const std::string& label, const AzWorkspace& ws);
/// `az ml data show -o json`: the asset's `path` (azureml://.../datastores/<ds>/paths/<p>,
/// https://<account>.blob.core.windows.net/..., wasbs://...).
bool ParseAzDataPath(const std::string& json, std::string* path, std::string* error);
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
/// "Average". A split asks for `top` series (`--top`: az, like the REST API's `top`, returns
/// 10 unless told).
std::vector<std::string> AzMetricsArgv(const std::string& account_id,
                                       const std::vector<std::string>& metrics,
                                       const std::string& start_utc, const std::string& end_utc,
                                       const std::string& dimension,
                                       const std::vector<std::string>& aggregations, int top = 0);

/// `az monitor metrics list` of Azure ML's GpuUtilization for one job (the workspace metric,
/// filtered to the job's RunId, split by NodeId and DeviceId), 1-minute averages, up to `top`
/// series (one per GPU).
std::vector<std::string> AzGpuMetricsArgv(const std::string& workspace_id, const std::string& job,
                                          const std::string& start_utc, const std::string& end_utc,
                                          int top);
/// The same for Azure ML's CpuUtilization: one series per node (filtered to the job's RunId,
/// split by NodeId; the metric has no DeviceId), 1-minute averages, up to `top` series.
std::vector<std::string> AzCpuMetricsArgv(const std::string& workspace_id, const std::string& job,
                                          const std::string& start_utc, const std::string& end_utc,
                                          int top);

/// True when an `az monitor metrics list` response holds at least one data point.
bool AzMetricsHaveData(const std::string& json);
/// The most series any one metric of an `az monitor metrics list` response has: at the `--top`
/// asked for, some may have been cut.
int AzMetricsMostSeries(const std::string& json);
/// Why an `az monitor metrics list` answer is not a metrics response ("" when it is one): not
/// JSON (az's output cut or garbled), or no `value` list. The reason names the field.
std::string AzMetricsNotAResponse(const std::string& json);

/// The command as a person would type it, secrets redacted: for messages.
std::string AzCommandText(const std::vector<std::string>& argv);

/// Why an az command failed, as a diagnostic code and a message naming the command, the
/// cause and the next command to run (not logged in: az login; no ml extension: az extension
/// add -n ml; AuthorizationFailed; ResourceNotFound; a storage account az cannot find in its
/// subscription; a time-out; not on PATH); nullopt when it succeeded. az's own words are
/// quoted with secrets redacted.
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
  /// A data asset ("azureml:imagenet-train:3", "azureml:imagenet-train@latest"): its name and
  /// version or label; its storage is what `az ml data show` says.
  std::string asset;
  std::string asset_version;
  std::string asset_label;
};

/// Fills `input`'s datastore, account or asset from its path.
void ReadInputPath(AzJobInput* input);

/// What `az ml job show -o json` says the post-mortem needs.
struct AzJob {
  std::string name;
  std::string status;
  std::string compute;
  std::string workspace_id;  ///< from `id` (azureml:/subscriptions/.../workspaces/W/jobs/J)
  std::string start_utc;     ///< properties.StartTimeUtc, else creation_context.created_at
  std::string end_utc;       ///< properties.EndTimeUtc, else creation_context.last_modified_at
  int instance_count = 1;    ///< resources.instance_count
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
