#include "app/fetch_workflow.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <functional>
#include <set>
#include <variant>

#include "analyzers/timestamp.h"
#include "core/atomic_file.h"
#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "core/run_context.h"

namespace feedcheck::app {
namespace {

namespace fs = std::filesystem;

// What one run of the plan has done so far, for the report.
struct FetchLog {
  ReportTable commands;
  std::vector<std::string> written;
};

// Runs one az command; on failure adds the diagnostic naming it and returns false.
// With `not_found_skips`, a ResourceNotFound is a warning (the caller skips that part: a
// datastore deleted since the job ran) and the status is left as it was.
bool Run(const ProcessRunner& run, const std::vector<std::string>& argv, double timeout_s,
         FetchLog* log, Outcome* outcome, ProcessResult* result, bool not_found_skips = false) {
  *result = run(argv, timeout_s);
  const auto failure = AzCommandFailure(argv, *result);
  log->commands.rows.push_back(
      {{AzCommandText(argv), std::nullopt}, {failure ? "failed" : "ok", std::nullopt}});
  if (!failure) return true;
  if (not_found_skips && failure->code == codes::kAzNotFound) {
    AddMessage(&outcome->diagnostics, failure->code.c_str(),
               failure->message + "; its storage metrics are not fetched",
               DiagnosticSeverity::kWarning);
    return false;
  }
  AddMessage(&outcome->diagnostics, failure->code.c_str(), failure->message);
  outcome->status = ExitStatus::kInputError;
  return false;
}

// Runs the az command `argv_for(top)` asks for; logs it. When it holds as many series as it
// asked for (az, like the REST API, cuts a split at --top, 10 by default), asks again for four
// times as many, up to kMaxAsks times; still at the cap, a warning names the command. The
// failure, if any, is returned for the caller to judge.
std::optional<AzFailure> RunMetrics(const ProcessRunner& run,
                                    const std::function<std::vector<std::string>(int)>& argv_for,
                                    int top, double timeout_s, FetchLog* log, Outcome* outcome,
                                    ProcessResult* result) {
  constexpr int kMaxAsks = 3;
  for (int ask = 1;; ++ask, top *= 4) {
    const auto argv = argv_for(top);
    *result = run(argv, timeout_s);
    auto failure = AzCommandFailure(argv, *result);
    const int series = failure ? 0 : AzMetricsMostSeries(result->out);
    const bool capped = top > 0 && series >= top;
    log->commands.rows.push_back({{AzCommandText(argv), std::nullopt},
                                  {failure  ? "failed"
                                   : capped ? fmt::format("ok, {} series: at --top", series)
                                            : "ok",
                                   std::nullopt}});
    if (failure || !capped) return failure;
    if (ask == kMaxAsks) {
      AddMessage(&outcome->diagnostics, codes::kAzSeriesCapped,
                 fmt::format("`{}` returned {} series, as many as --top asked for: some may be "
                             "missing (ask with --top {} to see)",
                             AzCommandText(argv), series, top * 4),
                 DiagnosticSeverity::kWarning);
      return std::nullopt;
    }
  }
}

// Through the one writer: under -o DIR, never through a link the download left there.
bool WriteFile(const std::string& dir, const std::string& relative, const std::string& text,
               Outcome* outcome) {
  std::string error;
  if (!WriteFileUnder(dir, relative, text, &error)) {
    AddMessage(&outcome->diagnostics, codes::kBadFlag, "-o: cannot write " + error);
    outcome->status = ExitStatus::kInputError;
    return false;
  }
  return true;
}

// An account name safe as a file name part (Azure: 3-24 lower-case letters and digits).
std::string FileSafe(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  return out;
}

}  // namespace

Outcome RunFetch(const FetchRequest& request, const ProcessRunner& run) {
  if (request.job.empty() || request.workspace.workspace.empty() ||
      request.workspace.resource_group.empty() || request.out_dir.empty())
    return Stopped(ExitStatus::kUsage, codes::kMissingInput,
                   "give the job's name, --workspace, --resource-group and -o DIR");
  if (!IsAzName(request.job))
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   fmt::format("job name '{}': an Azure ML job name is letters, digits, '-', '_' "
                               "and '.', not starting with '-' or '.'",
                               request.job));
  std::error_code ec;
  if (fs::exists(request.out_dir, ec) && !fs::is_empty(request.out_dir, ec))
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   fmt::format("-o {}: the folder holds files already; give a new or empty one "
                               "(a fetch never overwrites)",
                               request.out_dir));
  Outcome outcome;
  Report& report = outcome.report;
  report.context = CurrentRunContext("fetch");
  report.context.target = request.job;
  report.title = "Fetch";
  FetchLog log;
  log.commands.title = "az commands run";
  log.commands.columns = {{"command", "Command"}, {"result", "Result"}};
  auto finish = [&](Outcome o) {
    o.report.tables.push_back(std::move(log.commands));
    o.has_report = true;
    if (o.status != ExitStatus::kOk) {
      o.report.verdict_level = VerdictLevel::kBad;
      o.report.verdict = "fetch stopped: see the error";
    }
    return o;
  };
  const double t = request.command_timeout_s;

  // 1. The job: its window and its inputs.
  ProcessResult r;
  if (!Run(run, AzJobShowArgv(request.job, request.workspace), t, &log, &outcome, &r))
    return finish(std::move(outcome));
  AzJob job;
  std::string error;
  const std::string r_job_show = r.out;
  if (!ParseAzJob(r.out, &job, &error)) {
    AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
               fmt::format("az ml job show --name {}: {}", request.job, error));
    outcome.status = ExitStatus::kInputError;
    return finish(std::move(outcome));
  }
  const auto start = analyzers::ParseTimestamp(job.start_utc);
  const auto end = analyzers::ParseTimestamp(job.end_utc);
  if (!start || !end || *end < *start) {
    AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
               fmt::format("az ml job show --name {}: start '{}' or end '{}' is not a time",
                           request.job, job.start_utc, job.end_utc));
    outcome.status = ExitStatus::kInputError;
    return finish(std::move(outcome));
  }
  const std::string from = IsoUtc(*start - request.margin_min * 60);
  const std::string to = IsoUtc(*end + request.margin_min * 60);

  // 1b. The VM size of its compute (optional: serverless jobs and deleted clusters have none).
  std::string vm_size;
  if (const std::string compute = ComputeName(job.compute); IsAzName(compute)) {
    const auto argv = AzComputeShowArgv(compute, request.workspace);
    r = run(argv, t);
    const auto failure = AzCommandFailure(argv, r);
    log.commands.rows.push_back(
        {{AzCommandText(argv), std::nullopt}, {failure ? "failed" : "ok", std::nullopt}});
    if (failure)
      AddMessage(&outcome.diagnostics, failure->code.c_str(),
                 failure->message + "; the VM size is not known: give --sku to the post-mortem",
                 DiagnosticSeverity::kWarning);
    else
      vm_size = ParseAzComputeSize(r.out);
  }

  // 2. Its logs, where postmortem reads them.
  if (std::string made; !MakeFolderUnder(request.out_dir, "", &made)) {
    AddMessage(&outcome.diagnostics, codes::kBadFlag, "-o: " + made);
    outcome.status = ExitStatus::kInputError;
    return finish(std::move(outcome));
  }
  if (!Run(run, AzJobDownloadArgv(request.job, request.workspace, request.out_dir), t, &log,
           &outcome, &r))
    return finish(std::move(outcome));

  // The job's definition as az printed it: the post-mortem reads its environment variables
  // and instance count (analyzers/job_definition.h). An input's SAS signature is not kept.
  if (!WriteFile(request.out_dir, "job.json", RedactText(r_job_show), &outcome))
    return finish(std::move(outcome));

  // 3. The storage account behind each input, and its metrics for the window.
  ReportTable accounts;
  accounts.title = "Inputs and their storage accounts";
  accounts.columns = {
      {"input", "Input"}, {"path", "Path"}, {"account", "Account"}, {"metrics", "Metrics written"}};
  std::set<std::string> fetched, elsewhere;
  for (auto in : job.inputs) {
    if (!in.asset.empty()) {
      // A data asset: its storage is the path `az ml data show` gives.
      if (!Run(run, AzDataShowArgv(in.asset, in.asset_version, in.asset_label, request.workspace),
               t, &log, &outcome, &r, /*not_found_skips=*/true)) {
        if (outcome.status == ExitStatus::kInputError) return finish(std::move(outcome));
        accounts.rows.push_back({{in.name, {}},
                                 {RedactUrl(in.path), {}},
                                 {"-", {}},
                                 {"none: data asset not found", {}}});
        continue;
      }
      std::string path;
      if (!ParseAzDataPath(r.out, &path, &error)) {
        AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
                   fmt::format("data asset {} of input {}: {}; its metrics are not fetched",
                               in.asset, in.name, error),
                   DiagnosticSeverity::kWarning);
        accounts.rows.push_back(
            {{in.name, {}}, {RedactUrl(in.path), {}}, {"-", {}}, {"none: " + error, {}}});
        continue;
      }
      in.path = in.path + " = " + path;
      AzJobInput resolved;
      resolved.path = path;
      ReadInputPath(&resolved);
      in.datastore = resolved.datastore;
      in.account = resolved.account;
    }
    std::string account = in.account;
    if ((!account.empty() && !IsAzName(account)) ||
        (!in.datastore.empty() && !IsAzName(in.datastore))) {
      AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
                 fmt::format("input {}: its datastore or account is not a name az takes; its "
                             "metrics are not fetched",
                             in.name),
                 DiagnosticSeverity::kWarning);
      accounts.rows.push_back(
          {{in.name, {}}, {RedactUrl(in.path), {}}, {"-", {}}, {"none: not a name", {}}});
      continue;
    }
    if (account.empty() && !in.datastore.empty()) {
      if (!Run(run, AzDatastoreShowArgv(in.datastore, request.workspace), t, &log, &outcome, &r,
               /*not_found_skips=*/true)) {
        if (outcome.status == ExitStatus::kInputError) return finish(std::move(outcome));
        accounts.rows.push_back({{in.name, {}},
                                 {RedactUrl(in.path), {}},
                                 {"-", {}},
                                 {"none: datastore not found", {}}});
        continue;
      }
      AzDatastore ds;
      if (!ParseAzDatastore(r.out, &ds, &error)) {
        AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
                   fmt::format("datastore {} of input {}: {}; its metrics are not fetched",
                               in.datastore, in.name, error),
                   DiagnosticSeverity::kWarning);
        accounts.rows.push_back(
            {{in.name, {}}, {RedactUrl(in.path), {}}, {"-", {}}, {"none: " + error, {}}});
        continue;
      }
      account = IsAzName(ds.account_name) ? ds.account_name : "";
    }
    if (account.empty()) {
      accounts.rows.push_back(
          {{in.name, {}}, {RedactUrl(in.path), {}}, {"-", {}}, {"none: no account", {}}});
      continue;
    }
    std::string written = "(as above)";
    if (elsewhere.count(account)) {
      accounts.rows.push_back({{in.name, {}},
                               {RedactUrl(in.path), {}},
                               {account, {}},
                               {"none: account in another subscription", {}}});
      continue;
    }
    if (fetched.insert(account).second) {
      const auto show = AzStorageAccountShowArgv(account, request.workspace);
      r = run(show, t);
      if (const auto failure = AzCommandFailure(show, r)) {
        log.commands.rows.push_back(
            {{AzCommandText(show), std::nullopt}, {"failed", std::nullopt}});
        if (failure->code != codes::kAzAccountElsewhere) {
          AddMessage(&outcome.diagnostics, failure->code.c_str(), failure->message);
          outcome.status = ExitStatus::kInputError;
          return finish(std::move(outcome));
        }
        // In another subscription: the logs are fetched; this account's metrics are not.
        AddMessage(&outcome.diagnostics, failure->code.c_str(), failure->message,
                   DiagnosticSeverity::kWarning);
        fetched.erase(account);
        elsewhere.insert(account);
        accounts.rows.push_back({{in.name, {}},
                                 {RedactUrl(in.path), {}},
                                 {account, {}},
                                 {"none: account in another subscription", {}}});
        continue;
      }
      log.commands.rows.push_back({{AzCommandText(show), std::nullopt}, {"ok", std::nullopt}});
      std::string id;
      if (!ParseAzResourceId(r.out, &id, &error)) {
        AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
                   fmt::format("az storage account show --name {}: {}", account, error));
        outcome.status = ExitStatus::kInputError;
        return finish(std::move(outcome));
      }
      const std::string base = FileSafe(account);
      // Bytes and latency, one series each; Transactions split by ResponseType (what names
      // a throttling limit), whose some forty values are all asked for.
      constexpr int kResponseTypesTop = 100;
      auto fetch_into = [&](const std::function<std::vector<std::string>(int)>& argv_for, int top,
                            const std::string& file) {
        if (const auto failure = RunMetrics(run, argv_for, top, t, &log, &outcome, &r)) {
          AddMessage(&outcome.diagnostics, failure->code.c_str(), failure->message);
          outcome.status = ExitStatus::kInputError;
          return false;
        }
        return WriteFile(request.out_dir, "metrics/" + file, r.out, &outcome);
      };
      if (!fetch_into(
              [&](int) {
                return AzMetricsArgv(
                    id, {"Egress", "Ingress", "SuccessE2ELatency", "SuccessServerLatency"}, from,
                    to, "", {"Total", "Average"});
              },
              0, base + "-egress.json") ||
          !fetch_into(
              [&](int top) {
                return AzMetricsArgv(id, {"Transactions"}, from, to, "ResponseType", {"Total"},
                                     top);
              },
              kResponseTypesTop, base + "-transactions.json"))
        return finish(std::move(outcome));
      written = fmt::format("metrics/{0}-egress.json, metrics/{0}-transactions.json", base);
      log.written.push_back(written);
    }
    accounts.rows.push_back(
        {{in.name, {}}, {RedactUrl(in.path), {}}, {account, {}}, {written, {}}});
  }
  if (job.inputs.empty())
    accounts.notes.push_back("The job has no inputs with a path: no storage metrics fetched.");

  // 4. Where it can: Azure ML's own GPU and CPU utilisation for the job. Optional: a workspace
  // without the metric, or a filter az refuses, leaves the GPU samples to the job's own files
  // and the nodes' CPU unrecorded. Both asked for, judged and written the same way.
  auto fetch_workspace = [&](const char* metric,
                             const std::function<std::vector<std::string>(int)>& argv_for, int top,
                             const std::string& file, const char* without) {
    if (job.workspace_id.empty())
      return std::string("not fetched: the job's id names no workspace");
    const auto failure = RunMetrics(run, argv_for, top, t, &log, &outcome, &r);
    if (failure) {
      AddMessage(&outcome.diagnostics, failure->code.c_str(), failure->message + "; " + without,
                 DiagnosticSeverity::kWarning);
      return "not fetched: " + failure->code;
    }
    // A cut or garbled answer is said, naming the command and the field; never kept as if it
    // were the metric, never taken for "the workspace has none".
    if (const std::string why = AzMetricsNotAResponse(r.out); !why.empty()) {
      AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
                 fmt::format("`{}`: {}; {}", AzCommandText(argv_for(top)), why, without),
                 DiagnosticSeverity::kWarning);
      return std::string("not fetched: ") + codes::kAzBadOutput;
    }
    if (!AzMetricsHaveData(r.out))
      return fmt::format("none: the workspace has no {} samples for the job", metric);
    if (!WriteFile(request.out_dir, file, r.out, &outcome)) return std::string();  // said
    return file;
  };
  // One series per GPU: the job's nodes of up to eight GPUs, twice over for MIG or a guess
  // short of the truth; more asked for when the answer fills it.
  const std::string gpu = fetch_workspace(
      "GpuUtilization",
      [&](int n) { return AzGpuMetricsArgv(job.workspace_id, job.name, from, to, n); },
      std::max(100, job.instance_count * 16), "metrics/workspace-gpu.json",
      "GPU samples are read from the job's own files only");
  if (gpu.empty()) return finish(std::move(outcome));
  accounts.notes.push_back("Azure ML GpuUtilization: " + gpu + ".");
  // One series per node (the metric has no DeviceId), twice over.
  const std::string cpu = fetch_workspace(
      "CpuUtilization",
      [&](int n) { return AzCpuMetricsArgv(job.workspace_id, job.name, from, to, n); },
      std::max(100, job.instance_count * 2), "metrics/workspace-cpu.json",
      "the nodes' CPU is not recorded: an input-pipeline wait cannot be told from storage");
  if (cpu.empty()) return finish(std::move(outcome));
  accounts.notes.push_back("Azure ML CpuUtilization: " + cpu + ".");
  report.tables.push_back(std::move(accounts));
  report.verdict_level = VerdictLevel::kGood;
  report.verdict = fmt::format("fetched {} into {}", request.job, request.out_dir);
  report.verdict_detail = fmt::format(
      "Job {} ({}, compute {}{}), {} to {}; metrics from {} to {} for {} account{}. Next: "
      "feedcheck postmortem {}{}",
      job.name, job.status.empty() ? "status unknown" : job.status,
      job.compute.empty() ? "unknown" : job.compute, vm_size.empty() ? "" : ", " + vm_size,
      job.start_utc, job.end_utc, from, to, fetched.size(), fetched.size() == 1 ? "" : "s",
      request.out_dir, vm_size.empty() ? "" : " --sku " + vm_size);
  report.result.push_back({"job", job.name, "", "Job"});
  report.result.push_back({"accounts", static_cast<double>(fetched.size()), "", "Accounts"});
  if (!vm_size.empty()) report.result.push_back({"vm_size", vm_size, "", "VM size"});
  report.result.push_back({"folder", request.out_dir, "", "Folder"});
  outcome.status = ExitStatus::kOk;
  return finish(std::move(outcome));
}

}  // namespace feedcheck::app

namespace feedcheck::app {

Outcome RunFetchAndPostmortem(const FetchRequest& fetch, FleetRequest postmortem,
                              const ProcessRunner& run) {
  Outcome fetched = RunFetch(fetch, run);
  if (fetched.status != ExitStatus::kOk) return fetched;
  postmortem.each.job_dir = fetch.out_dir;
  // The compute's VM size prices the GPU time and sizes the nodes, unless --sku said otherwise.
  bool sized = false;
  if (postmortem.each.cluster.sku.empty())
    for (const auto& v : fetched.report.result)
      if (v.key == "vm_size")
        if (const auto* size = std::get_if<std::string>(&v.value)) {
          postmortem.each.cluster.sku = *size;
          sized = true;
        }
  Outcome outcome = RunPostmortemCommand(postmortem);
  for (const auto& d : fetched.diagnostics.kept()) outcome.diagnostics.Add(d);
  if (outcome.has_report && sized)
    outcome.report.context.warnings.push_back(
        fmt::format("--sku {}: the VM size of the job's compute (az ml compute show)",
                    postmortem.each.cluster.sku));
  if (outcome.has_report)
    outcome.report.context.warnings.push_back(fmt::format(
        "fetched from Azure ML: {} (feedcheck postmortem {} runs it again without az)",
        fetched.report.verdict_detail.substr(0, fetched.report.verdict_detail.find(". Next")),
        fetch.out_dir));
  return outcome;
}

}  // namespace feedcheck::app
