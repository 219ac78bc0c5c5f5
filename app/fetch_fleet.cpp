#include "app/fetch_fleet.h"

#include <fmt/format.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/timestamp.h"
#include "core/diagnostic_codes.h"
#include "core/json_input.h"
#include "core/run_context.h"

namespace feedcheck::app {
namespace {

namespace fs = std::filesystem;

struct ListedJob {
  std::string name;
  std::string status;
  std::string created;
  double created_s = 0;
};

std::vector<std::string> AzJobListArgv(const AzWorkspace& ws, int max_results) {
  std::vector<std::string> argv = {"az",
                                   "ml",
                                   "job",
                                   "list",
                                   "--workspace-name",
                                   ws.workspace,
                                   "--resource-group",
                                   ws.resource_group};
  if (!ws.subscription.empty()) argv.insert(argv.end(), {"--subscription", ws.subscription});
  argv.insert(argv.end(), {"--max-results", std::to_string(max_results), "--output", "json"});
  return argv;
}

bool Finished(const std::string& status) {
  return status == "Completed" || status == "Failed" || status == "Canceled";
}

bool StopsAll(const std::string& code) {
  return code == codes::kAzNotLoggedIn || code == codes::kAzForbidden ||
         code == codes::kAzMissing || code == codes::kAzTimeout || code == codes::kAzNoMlExtension;
}

}  // namespace

std::optional<double> ParseSince(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  const char unit = text.back();
  const double scale = unit == 'd' ? 86400 : unit == 'h' ? 3600 : unit == 'm' ? 60 : 0;
  if (scale == 0) return std::nullopt;
  double n = 0;
  for (char c : text.substr(0, text.size() - 1)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    n = n * 10 + (c - '0');
    if (n > 1e6) return std::nullopt;
  }
  return n > 0 ? std::optional<double>(n * scale) : std::nullopt;
}

Outcome RunFetchFleet(const FetchFleetRequest& request, const ProcessRunner& run) {
  const FetchRequest& each = request.each;
  if (each.workspace.workspace.empty() || each.workspace.resource_group.empty() ||
      each.out_dir.empty() || request.since_s <= 0)
    return Stopped(ExitStatus::kUsage, codes::kMissingInput,
                   "give --jobs-since, --workspace, --resource-group and -o DIR");
  std::error_code ec;
  if (fs::exists(each.out_dir, ec) && !fs::is_empty(each.out_dir, ec))
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   fmt::format("-o {}: the folder holds files already; give a new or empty one "
                               "(a fetch never overwrites)",
                               each.out_dir));
  Outcome outcome;
  Report& report = outcome.report;
  report.context = CurrentRunContext("fetch");
  report.context.target = each.workspace.workspace;
  report.title = "Fetch of a fleet";
  outcome.has_report = true;
  const auto argv = AzJobListArgv(each.workspace, request.max_jobs);
  ProcessResult r = run(argv, each.command_timeout_s);
  if (auto failure = AzCommandFailure(argv, r)) {
    AddMessage(&outcome.diagnostics, failure->code.c_str(), failure->message);
    outcome.status = ExitStatus::kInputError;
    report.verdict_level = VerdictLevel::kBad;
    report.verdict = "fetch stopped: see the error";
    return outcome;
  }
  // Read the checked way (core/json_input): a name that is a number, a nesting bomb or 1e999
  // is a diagnostic, never an exception.
  const JsonSource source{"az ml job list", codes::kAzBadOutput, &outcome.diagnostics};
  const std::optional<nlohmann::json> parsed = ParseJsonInput(r.out, source);
  // A job with a field of the wrong type is skipped with a warning; the others are fetched.
  const JsonSource entries{"az ml job list", codes::kAzBadOutput, &outcome.diagnostics,
                           DiagnosticSeverity::kWarning};
  if (!parsed || !parsed->is_array()) {
    AddMessage(&outcome.diagnostics, codes::kAzBadOutput,
               "az ml job list: not a JSON list of jobs");
    outcome.status = ExitStatus::kInputError;
    return outcome;
  }
  const double now =
      request.now_epoch_s > 0
          ? request.now_epoch_s
          : std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
                .count();
  const double since = now - request.since_s;
  std::vector<ListedJob> jobs;
  std::set<std::string> listed_names;
  size_t listed = 0;
  for (const JsonField& j : JsonField::Root(*parsed, entries).Elements()) {
    if (!j.is_object()) continue;
    ++listed;
    ListedJob job;
    job.name = j["name"].StringOr("");
    job.status = j["status"].StringOr("");
    job.created = j["creation_context"]["created_at"].StringOr("");
    const auto t = analyzers::ParseTimestamp(job.created);
    if (!t || *t < since || !Finished(job.status)) continue;
    if (!IsAzName(job.name)) {
      AddMessage(
          &outcome.diagnostics, codes::kAzBadOutput,
          fmt::format("az ml job list: job name '{}' is not a folder name; skipped", job.name),
          DiagnosticSeverity::kWarning);
      continue;
    }
    // A job listed twice is fetched once: a second fetch into its folder would fail and
    // remove the first's.
    if (!listed_names.insert(job.name).second) continue;
    job.created_s = *t;
    jobs.push_back(std::move(job));
  }
  ReportTable t;
  t.title = "Jobs fetched";
  t.columns = {{"job", "Job"}, {"status", "Status"}, {"created", "Created"}, {"fetch", "Fetch"}};
  fs::create_directories(each.out_dir, ec);
  int fetched = 0;
  for (const auto& job : jobs) {
    FetchRequest one = each;
    one.job = job.name;
    one.out_dir = (fs::path(each.out_dir) / job.name).string();
    Outcome o = RunFetch(one, run);
    std::string what = "ok";
    bool stop = false;
    if (o.status != ExitStatus::kOk) {
      const auto kept = o.diagnostics.kept();
      const Diagnostic* first = kept.empty() ? nullptr : &kept.front();
      what = first ? first->code + ": " + first->message : "failed";
      stop = first && StopsAll(first->code);
      for (const auto& d : kept) {
        Diagnostic w = d;
        if (!stop) w.severity = DiagnosticSeverity::kWarning;
        outcome.diagnostics.Add(std::move(w));
      }
      fs::remove_all(one.out_dir, ec);  // a partial folder would be read as a job
    } else {
      ++fetched;
    }
    t.rows.push_back({{job.name, {}}, {job.status, {}}, {job.created, {}}, {what, {}}});
    if (stop) {
      outcome.status = ExitStatus::kInputError;
      report.tables.push_back(std::move(t));
      report.verdict_level = VerdictLevel::kBad;
      report.verdict = "fetch stopped: see the error";
      return outcome;
    }
  }
  report.tables.push_back(std::move(t));
  report.verdict_level = fetched > 0 ? VerdictLevel::kGood : VerdictLevel::kWarning;
  report.verdict = fmt::format("fetched {} of {} finished job{} since {}", fetched, jobs.size(),
                               jobs.size() == 1 ? "" : "s", IsoUtc(since));
  report.verdict_detail = fmt::format(
      "{} jobs listed (az ml job list --max-results {}); those finished and created "
      "since {} were fetched into {}. Next: feedcheck postmortem {}",
      listed, request.max_jobs, IsoUtc(since), each.out_dir, each.out_dir);
  report.result.push_back({"jobs_fetched", static_cast<double>(fetched), "", "Jobs fetched"});
  outcome.status = fetched > 0 || jobs.empty() ? ExitStatus::kOk : ExitStatus::kInputError;
  return outcome;
}

}  // namespace feedcheck::app
