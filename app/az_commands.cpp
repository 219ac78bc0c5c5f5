#include "app/az_commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "core/diagnostic_codes.h"
#include "core/json_input.h"
#include "core/redact.h"

namespace feedcheck::app {
namespace {

using nlohmann::json;

void AddWorkspace(const AzWorkspace& ws, std::vector<std::string>* argv) {
  argv->insert(argv->end(),
               {"--workspace-name", ws.workspace, "--resource-group", ws.resource_group});
  if (!ws.subscription.empty()) argv->insert(argv->end(), {"--subscription", ws.subscription});
}

// az's answer, read the checked way (core/json_input): what it says about a wrong type or a
// number out of range is kept in `diagnostics`.
struct AzAnswer {
  DiagnosticList diagnostics;
  JsonSource source{"az", codes::kAzBadOutput, &diagnostics};
  std::optional<json> document;
  explicit AzAnswer(const std::string& text) : document(ParseJsonInput(text, source)) {}
  JsonField Root() const {
    static const json kNull;
    return JsonField::Root(document ? *document : kNull, source);
  }
  /// "not a JSON object" and the first reason met, if any.
  std::string NotAnObject() const {
    return diagnostics.kept().empty() ? "not a JSON object"
                                      : "not a JSON object: " + diagnostics.kept()[0].message;
  }
};

std::string Str(const JsonField& j, const char* key) { return j[key].StringOr(""); }

// The --subscription an argv names, for messages.
std::string SubscriptionOf(const std::vector<std::string>& argv) {
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == "--subscription") return "--subscription " + argv[i + 1];
  return "az's current subscription";
}

bool Contains(const std::string& text, const char* what) {
  return text.find(what) != std::string::npos;
}

// az's message, first lines only, secrets removed.
std::string Quote(const std::string& err) {
  std::string text = RedactText(err);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > 400) text = text.substr(0, 400) + " ...";
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text.empty() ? "no message" : text;
}

// "azureml://datastores/<ds>/paths/<p>" or
// "azureml://subscriptions/<s>/resourcegroups/<rg>/workspaces/<w>/datastores/<ds>/paths/<p>".
std::string DatastoreOf(const std::string& path) {
  if (path.rfind("azureml://", 0) != 0) return "";
  const std::string key = "/datastores/";
  size_t at = path.find(key);
  if (at == std::string::npos) {
    if (path.rfind("azureml://datastores/", 0) != 0) return "";
    at = std::string("azureml:/").size();
  }
  const size_t start = at + key.size();
  const size_t end = path.find('/', start);
  return path.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// "wasbs://<c>@<acct>.blob.core.windows.net/<p>", "abfss://<fs>@<acct>.dfs...", or
// "https://<acct>.blob.core.windows.net/<c>/<p>".
std::string AccountOf(const std::string& path) {
  size_t host = path.find('@');
  if (host == std::string::npos) {
    if (path.rfind("https://", 0) != 0) return "";
    host = std::string("https://").size() - 1;
  }
  const size_t dot = path.find('.', host + 1);
  if (dot == std::string::npos) return "";
  const std::string rest = path.substr(dot);
  if (rest.rfind(".blob.", 0) != 0 && rest.rfind(".dfs.", 0) != 0) return "";
  return path.substr(host + 1, dot - host - 1);
}

// "azureml:imagenet-train:3", "azureml:imagenet-train@latest" (a data asset by version or
// label), "azureml://subscriptions/.../data/imagenet-train/versions/3".
bool AssetOf(const std::string& path, AzJobInput* in) {
  const std::string prefix = "azureml:";
  if (path.rfind(prefix, 0) != 0) return false;
  std::string rest = path.substr(prefix.size());
  if (rest.rfind("//", 0) == 0) {
    const std::string key = "/data/";
    const size_t at = rest.find(key);
    if (at == std::string::npos) return false;
    rest = rest.substr(at + key.size());
    const size_t versions = rest.find("/versions/");
    if (versions == std::string::npos) return false;
    in->asset = rest.substr(0, versions);
    in->asset_version = rest.substr(versions + std::string("/versions/").size());
    while (!in->asset_version.empty() && in->asset_version.back() == '/')
      in->asset_version.pop_back();
    return !in->asset.empty() && !in->asset_version.empty();
  }
  if (const size_t at = rest.find('@'); at != std::string::npos) {
    in->asset = rest.substr(0, at);
    in->asset_label = rest.substr(at + 1);
  } else if (const size_t colon = rest.rfind(':'); colon != std::string::npos) {
    in->asset = rest.substr(0, colon);
    in->asset_version = rest.substr(colon + 1);
  } else {
    in->asset = rest;
    in->asset_label = "latest";
  }
  if (in->asset.empty() || in->asset.find('/') != std::string::npos) {
    in->asset.clear();
    return false;
  }
  return true;
}

}  // namespace

void ReadInputPath(AzJobInput* input) {
  input->datastore = DatastoreOf(input->path);
  input->account = AccountOf(input->path);
  if (input->datastore.empty() && input->account.empty()) AssetOf(input->path, input);
}

std::vector<std::string> AzDataShowArgv(const std::string& name, const std::string& version,
                                        const std::string& label, const AzWorkspace& ws) {
  std::vector<std::string> argv = {"az", "ml", "data", "show", "--name", name};
  if (!version.empty())
    argv.insert(argv.end(), {"--version", version});
  else
    argv.insert(argv.end(), {"--label", label.empty() ? "latest" : label});
  AddWorkspace(ws, &argv);
  argv.insert(argv.end(), {"--output", "json"});
  return argv;
}

bool ParseAzDataPath(const std::string& text, std::string* path, std::string* error) {
  const AzAnswer answer(text);
  if (!answer.Root().is_object()) {
    *error = answer.diagnostics.kept().empty() ? "not a JSON object"
                                               : answer.diagnostics.kept()[0].message;
    return false;
  }
  *path = Str(answer.Root(), "path");
  if (path->empty()) {
    *error = "no 'path'";
    return false;
  }
  return true;
}

bool IsAzName(const std::string& name) {
  if (name.empty() || name.size() > 255 || name[0] == '-' || name[0] == '.') return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  return true;
}

std::vector<std::string> AzJobShowArgv(const std::string& job, const AzWorkspace& ws) {
  std::vector<std::string> argv = {"az", "ml", "job", "show", "--name", job};
  AddWorkspace(ws, &argv);
  argv.insert(argv.end(), {"--output", "json"});
  return argv;
}

std::vector<std::string> AzJobDownloadArgv(const std::string& job, const AzWorkspace& ws,
                                           const std::string& download_path) {
  std::vector<std::string> argv = {
      "az", "ml", "job", "download", "--name", job, "--all", "--download-path", download_path};
  AddWorkspace(ws, &argv);
  return argv;
}

std::vector<std::string> AzDatastoreShowArgv(const std::string& datastore, const AzWorkspace& ws) {
  std::vector<std::string> argv = {"az", "ml", "datastore", "show", "--name", datastore};
  AddWorkspace(ws, &argv);
  argv.insert(argv.end(), {"--output", "json"});
  return argv;
}

std::vector<std::string> AzComputeShowArgv(const std::string& compute, const AzWorkspace& ws) {
  std::vector<std::string> argv = {"az", "ml", "compute", "show", "--name", compute};
  AddWorkspace(ws, &argv);
  argv.insert(argv.end(), {"--output", "json"});
  return argv;
}

std::string ComputeName(const std::string& compute) {
  std::string name = compute;
  if (name.rfind("azureml:", 0) == 0) name.erase(0, std::string("azureml:").size());
  if (const size_t slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
  return name;
}

std::string ParseAzComputeSize(const std::string& text) {
  const AzAnswer answer(text);
  return Str(answer.Root(), "size");
}

std::vector<std::string> AzStorageAccountShowArgv(const std::string& account,
                                                  const AzWorkspace& ws) {
  std::vector<std::string> argv = {"az", "storage", "account", "show", "--name", account};
  const std::string& subscription =
      ws.storage_subscription.empty() ? ws.subscription : ws.storage_subscription;
  if (!subscription.empty()) argv.insert(argv.end(), {"--subscription", subscription});
  argv.insert(argv.end(), {"--output", "json"});
  return argv;
}

std::vector<std::string> AzMetricsArgv(const std::string& account_id,
                                       const std::vector<std::string>& metrics,
                                       const std::string& start_utc, const std::string& end_utc,
                                       const std::string& dimension,
                                       const std::vector<std::string>& aggregations, int top) {
  std::vector<std::string> argv = {"az",      "monitor",    "metrics",
                                   "list",    "--resource", account_id + "/blobServices/default",
                                   "--metric"};
  argv.insert(argv.end(), metrics.begin(), metrics.end());
  argv.insert(argv.end(), {"--interval", "PT1M", "--aggregation"});
  argv.insert(argv.end(), aggregations.begin(), aggregations.end());
  argv.insert(argv.end(), {"--start-time", start_utc, "--end-time", end_utc});
  if (!dimension.empty()) argv.insert(argv.end(), {"--dimension", dimension});
  if (!dimension.empty() && top > 0) argv.insert(argv.end(), {"--top", std::to_string(top)});
  argv.insert(argv.end(), {"--output", "json"});
  return argv;
}

namespace {

// A workspace metric of Azure ML for one job: 1-minute averages, `filter` naming the job's RunId
// and the dimensions to split by, up to `top` series.
std::vector<std::string> AzWorkspaceMetricsArgv(const std::string& workspace_id, const char* metric,
                                                const std::string& filter,
                                                const std::string& start_utc,
                                                const std::string& end_utc, int top) {
  return {"az",           "monitor",    "metrics",       "list",
          "--resource",   workspace_id, "--metric",      metric,
          "--interval",   "PT1M",       "--aggregation", "Average",
          "--filter",     filter,       "--top",         std::to_string(top),
          "--start-time", start_utc,    "--end-time",    end_utc,
          "--output",     "json"};
}

}  // namespace

std::vector<std::string> AzGpuMetricsArgv(const std::string& workspace_id, const std::string& job,
                                          const std::string& start_utc, const std::string& end_utc,
                                          int top) {
  return AzWorkspaceMetricsArgv(workspace_id, "GpuUtilization",
                                "RunId eq '" + job + "' and NodeId eq '*' and DeviceId eq '*'",
                                start_utc, end_utc, top);
}

std::vector<std::string> AzCpuMetricsArgv(const std::string& workspace_id, const std::string& job,
                                          const std::string& start_utc, const std::string& end_utc,
                                          int top) {
  return AzWorkspaceMetricsArgv(workspace_id, "CpuUtilization",
                                "RunId eq '" + job + "' and NodeId eq '*'", start_utc, end_utc,
                                top);
}

bool AzMetricsHaveData(const std::string& text) {
  const AzAnswer answer(text);
  for (const JsonField& metric : answer.Root()["value"].Elements())
    for (const JsonField& series : metric["timeseries"].Elements())
      if (series["data"].is_array() && series["data"].size() > 0) return true;
  return false;
}

int AzMetricsMostSeries(const std::string& text) {
  const AzAnswer answer(text);
  int most = 0;
  for (const JsonField& metric : answer.Root()["value"].Elements())
    most = std::max(most, static_cast<int>(metric["timeseries"].size()));
  return most;
}

std::string AzMetricsNotAResponse(const std::string& text) {
  const AzAnswer answer(text);
  if (!answer.document)
    return answer.diagnostics.kept().empty() ? "not JSON"
                                             : "not JSON: " + answer.diagnostics.kept()[0].message;
  if (!answer.document->is_object()) return answer.NotAnObject();
  const auto value = answer.document->find("value");
  if (value == answer.document->end() || !value->is_array())
    return "no `value` list of metrics (field /value)";
  return "";
}

std::string AzCommandText(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t'\"$`\\") == std::string::npos;
    out += plain ? a : "'" + a + "'";
  }
  return RedactText(out);
}

std::optional<AzFailure> AzCommandFailure(const std::vector<std::string>& argv,
                                          const ProcessResult& r) {
  const std::string cmd = AzCommandText(argv);
  if (!r.started)
    return AzFailure{codes::kAzMissing,
                     fmt::format("cannot run `{}`: {} (the Azure CLI is not on PATH?)", cmd,
                                 r.start_error.empty() ? "not started" : r.start_error)};
  if (r.timed_out)
    return AzFailure{codes::kAzTimeout, fmt::format("`{}` did not finish in time and was "
                                                    "stopped",
                                                    cmd)};
  if (r.exit_code == 0) return std::nullopt;
  const std::string& e = r.err;
  // az's parser: "'ml' is misspelled or not recognized by the system." (az 2.x; older:
  // "'ml' is not in the 'az' command group").
  if (Contains(e, "'ml' is misspelled") || Contains(e, "'ml' is not in the 'az' command group"))
    return AzFailure{codes::kAzNoMlExtension,
                     fmt::format("`{}` failed: the Azure CLI has no 'ml' extension: run `az "
                                 "extension add -n ml` (az says: {})",
                                 cmd, Quote(e))};
  // `az storage account show --name X` looks in one subscription only.
  if (argv.size() > 3 && argv[1] == "storage" && argv[2] == "account" &&
      Contains(e, "Storage account '") && Contains(e, "' not found"))
    return AzFailure{
        codes::kAzAccountElsewhere,
        fmt::format("`{}` failed: the storage account is not in the subscription az searched "
                    "({}): it is in another one. Give the account's subscription with "
                    "--storage-subscription SUBSCRIPTION (`az account list -o table` lists those "
                    "you can use) (az says: {})",
                    cmd, SubscriptionOf(argv), Quote(e))};
  if (Contains(e, "az login") || Contains(e, "Please run 'az login'") || Contains(e, "AADSTS") ||
      Contains(e, "No subscription found"))
    return AzFailure{codes::kAzNotLoggedIn,
                     fmt::format("`{}` failed: the Azure CLI is not logged in: run 'az login' "
                                 "(az says: {})",
                                 cmd, Quote(e))};
  if (Contains(e, "AuthorizationFailed") || Contains(e, "does not have authorization") ||
      Contains(e, "Forbidden"))
    return AzFailure{codes::kAzForbidden,
                     fmt::format("`{}` failed: no permission (AuthorizationFailed; az says: {})",
                                 cmd, Quote(e))};
  if (Contains(e, "ResourceNotFound") || Contains(e, "could not be found") ||
      Contains(e, "NotFound"))
    return AzFailure{
        codes::kAzNotFound,
        fmt::format("`{}` failed: not found (ResourceNotFound; az says: {})", cmd, Quote(e))};
  return AzFailure{codes::kAzFailed, fmt::format("`{}` failed with exit code {} (az says: {})", cmd,
                                                 r.exit_code, Quote(e))};
}

bool ParseAzJob(const std::string& text, AzJob* job, std::string* error) {
  const AzAnswer answer(text);
  const JsonField j = answer.Root();
  if (!j.is_object()) {
    *error = answer.NotAnObject();
    return false;
  }
  job->name = Str(j, "name");
  job->status = Str(j, "status");
  job->compute = Str(j, "compute");
  // "azureml:/subscriptions/<s>/resourceGroups/<rg>/providers/Microsoft.MachineLearningServices/
  // workspaces/<w>/jobs/<j>": the workspace's resource id is what precedes "/jobs/".
  std::string id = Str(j, "id");
  if (id.rfind("azureml:", 0) == 0) id.erase(0, std::string("azureml:").size());
  if (const size_t jobs = id.rfind("/jobs/"); jobs != std::string::npos && id.rfind("/", 0) == 0)
    job->workspace_id = id.substr(0, jobs);
  if (job->name.empty()) {
    *error = answer.diagnostics.kept().empty() ? "no 'name'" : answer.diagnostics.kept()[0].message;
    return false;
  }
  const JsonField props = j["properties"];
  const JsonField created = j["creation_context"];
  job->start_utc = Str(props, "StartTimeUtc");
  job->end_utc = Str(props, "EndTimeUtc");
  if (job->start_utc.empty()) job->start_utc = Str(created, "created_at");
  if (job->end_utc.empty()) job->end_utc = Str(created, "last_modified_at");
  if (auto n = j["resources"]["instance_count"].Whole(1, 1 << 20))
    job->instance_count = static_cast<int>(*n);
  if (job->start_utc.empty() || job->end_utc.empty()) {
    *error = "no start or end time (properties.StartTimeUtc/EndTimeUtc, creation_context)";
    return false;
  }
  if (const JsonField inputs = j["inputs"]; inputs.is_object())
    for (const auto& [name, in] : inputs.Members()) {
      if (!in.is_object()) continue;  // a literal input (a number, a string)
      AzJobInput input;
      input.name = name;
      input.path = Str(in, "path");
      input.mode = Str(in, "mode");
      ReadInputPath(&input);
      if (!input.path.empty()) job->inputs.push_back(std::move(input));
    }
  return true;
}

bool ParseAzDatastore(const std::string& text, AzDatastore* ds, std::string* error) {
  const AzAnswer answer(text);
  const JsonField j = answer.Root();
  if (!j.is_object()) {
    *error = answer.NotAnObject();
    return false;
  }
  ds->name = Str(j, "name");
  ds->type = Str(j, "type");
  ds->account_name = Str(j, "account_name");
  ds->container_name = Str(j, "container_name");
  if (ds->account_name.empty()) {
    *error = fmt::format(
        "no 'account_name' (type '{}': only blob and ADLS Gen2 datastores "
        "name a storage account)",
        ds->type);
    return false;
  }
  return true;
}

bool ParseAzResourceId(const std::string& text, std::string* id, std::string* error) {
  const AzAnswer answer(text);
  const JsonField j = answer.Root();
  if (!j.is_object()) {
    *error = answer.NotAnObject();
    return false;
  }
  *id = Str(j, "id");
  if (id->find("/providers/Microsoft.Storage/storageAccounts/") == std::string::npos) {
    *error = "no storage account 'id'";
    return false;
  }
  return true;
}

}  // namespace feedcheck::app
