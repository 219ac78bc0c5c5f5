#include "app/fleet_workflow.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

#include "app/fact_gathering.h"
#include "app/fleet_job.h"
#include "app/fleet_report.h"
#include "app/fleet_totals.h"
#include "app/money_tables.h"
#include "app/postmortem_report.h"
#include "core/diagnostic_codes.h"

namespace feedcheck::app {
namespace {

// What one worker keeps of one job: its row, its exit status and its first errors.
struct JobResult {
  FleetJob row;
  ExitStatus status = ExitStatus::kOk;
  DiagnosticList errors{5};
  size_t warnings = 0;
};

JobResult DiagnoseOne(const FleetRequest& request, const std::string& job) {
  PostmortemRequest each = request.each;
  each.job_dir = (std::filesystem::path(request.each.job_dir) / job).string();
  // The call goes through the post-mortem's own entry point: the fleet knows nothing of how a
  // job is read or diagnosed.
  Outcome outcome = RunPostmortem(each);
  JobResult r;
  r.row = FleetJobFromOutcome(job, each.job_dir, outcome);
  r.status = outcome.status;
  for (const auto& d : outcome.diagnostics.kept()) {
    if (d.severity == DiagnosticSeverity::kError)
      r.errors.Add(d);
    else if (d.severity == DiagnosticSeverity::kWarning)
      ++r.warnings;
  }
  r.warnings += outcome.report.evidence.diagnostics.total() > 0 ? 1 : 0;
  return r;
}

unsigned WorkerCount(unsigned asked, size_t jobs) {
  unsigned n = asked > 0 ? asked : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(n, jobs)));
}

// A fleet counts in GPU-hours, whatever the size of one job's loss.
std::string GpuHours(double gpu_s) { return fmt::format("{:.1f} GPU-hours", gpu_s / 3600); }

VerdictLevel FleetLevel(const FleetSummary& f) {
  VerdictLevel level = f.jobs.empty() ? VerdictLevel::kUnknown : VerdictLevel::kGood;
  for (const auto& j : f.jobs) {
    if (j.verdict_level == "bad") return VerdictLevel::kBad;
    if (j.verdict_level == "warning" || !j.diagnosed) level = VerdictLevel::kWarning;
  }
  return level;
}

void AddVerdict(const FleetSummary& f, Report* report) {
  report->verdict_level = FleetLevel(f);
  // The first question of whoever pays: how much of the GPU time lost was storage's.
  const StorageSplit split = SplitByStorage(f);
  std::string lost = "no GPU samples, GPU time lost not known";
  if (f.with_gpu_samples > 0)
    lost = fmt::format("storage cost {:.1f} of the {} lost", split.storage_gpu_s / 3600,
                       GpuHours(f.gpu_lost_gpu_s));
  report->verdict = fmt::format("{} job{}: {}", f.jobs.size(), f.jobs.size() == 1 ? "" : "s", lost);
  // The split (storage, not storage, not known) and the action are the Totals' first lines; the
  // largest storage cause heads the causes table.
  std::string detail;
  if (f.not_diagnosed > 0)
    detail += fmt::format(" {} job folder{} could not be diagnosed (see below).", f.not_diagnosed,
                          f.not_diagnosed == 1 ? "" : "s");
  report->verdict_detail = detail.empty() ? detail : detail.substr(detail[0] == ' ' ? 1 : 0);
}

// The headline numbers, where scripts and `compare` look.
void AddResults(const FleetSummary& f, Report* report) {
  auto& r = report->result;
  r.push_back({"jobs", static_cast<double>(f.jobs.size()), "", "Jobs"});
  r.push_back({"jobs_diagnosed", static_cast<double>(f.diagnosed), "", "Jobs diagnosed"});
  r.push_back({"gpu_hours_lost", f.gpu_lost_gpu_s / 3600, "GPU-h", "GPU time lost"});
  r.push_back(
      {"gpu_hours_won_back", f.won_back_gpu_s / 3600, "GPU-h", "GPU time the fixes win back"});
  const StorageSplit split = SplitByStorage(f);
  r.push_back(
      {"storage_gpu_hours_lost", split.storage_gpu_s / 3600, "GPU-h", "GPU time lost to storage"});
  r.push_back({"not_storage_gpu_hours_lost", split.not_storage_gpu_s / 3600, "GPU-h",
               "GPU time lost, not to storage"});
  r.push_back({"unknown_gpu_hours_lost", split.unknown_gpu_s / 3600, "GPU-h",
               "GPU time lost, cause not known"});
  if (!f.causes.empty()) r.push_back({"top_cause", f.causes.front().cause, "", "Top cause"});
  if (f.gpu_hour_price_usd >= 0) {
    r.push_back({"lost_usd_estimate", f.lost_usd, "USD", "GPU time lost, priced (estimate)"});
    r.push_back({"won_back_usd_estimate", f.won_back_usd, "USD", "Won back, priced (estimate)"});
  }
}

// The job folder `dir` lies inside, written as the user wrote `dir` (a relative path stays
// relative: "job/system_logs/data_capability" -> "job"); "" when `dir` is not inside a job.
std::string JobOfFolder(const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string job = EnclosingJobFolder(dir);
  if (job.empty()) return "";
  std::error_code ec;
  fs::path given = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  fs::path typed = fs::path(dir).lexically_normal();
  if (typed.filename().empty()) typed = typed.parent_path();  // "a/b/" -> "a/b"
  while (!given.empty() && given != fs::path(job) && given.has_relative_path()) {
    given = given.parent_path();
    const bool climb = typed.empty() || typed == "." || typed.filename() == "..";
    typed = climb ? typed / ".." : typed.parent_path();
  }
  if (given != fs::path(job)) return job;
  return typed.empty() ? "." : typed.lexically_normal().string();
}

}  // namespace

Outcome RunFleet(const FleetRequest& request, const FleetLayout& layout) {
  Outcome outcome;
  Report& report = outcome.report;
  report.context = CurrentRunContext("postmortem");
  report.context.target = request.each.job_dir;
  report.title = "Fleet post-mortem";
  FleetSummary fleet;
  fleet.present = true;
  fleet.root = request.each.job_dir;
  fleet.layout = layout.why;
  fleet.skipped = layout.skipped;
  for (const auto& s : layout.skipped)
    AddMessage(&outcome.diagnostics, codes::kNotAJob,
               fmt::format("{}/{}: not read as a job", request.each.job_dir, s),
               DiagnosticSeverity::kNote);

  // A bounded pool: each worker takes the next job, keeps its row and drops its evidence.
  std::vector<JobResult> results(layout.jobs.size());
  std::atomic<size_t> next{0};
  fleet.workers = WorkerCount(request.workers, layout.jobs.size());
  auto work = [&] {
    for (size_t i = next++; i < layout.jobs.size(); i = next++)
      results[i] = DiagnoseOne(request, layout.jobs[i]);
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < fleet.workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();

  bool findings = false;
  size_t jobs_with_warnings = 0;
  for (auto& r : results) {
    if (r.row.diagnosed) {
      findings = findings || r.status == ExitStatus::kFindings;
      jobs_with_warnings += r.warnings > 0 ? 1 : 0;
    } else {
      AddMessage(&outcome.diagnostics, codes::kJobNotDiagnosed,
                 fmt::format("{} (feedcheck postmortem {} says more)", r.row.problem, r.row.path),
                 DiagnosticSeverity::kWarning);
      // Errors at a file's line are kept as they were (the fleet goes on: as warnings).
      for (const auto& d : r.errors.kept()) {
        if (d.location.file.empty()) continue;
        Diagnostic as_warning = d;
        as_warning.severity = DiagnosticSeverity::kWarning;
        outcome.diagnostics.Add(std::move(as_warning));
      }
    }
    fleet.jobs.push_back(std::move(r.row));
  }
  if (jobs_with_warnings > 0)
    AddMessage(
        &outcome.diagnostics, codes::kJobWarnings,
        fmt::format("{} job{} had warnings (lines not parsed, files not read): "
                    "`feedcheck postmortem {}/JOB -v` lists them",
                    jobs_with_warnings, jobs_with_warnings == 1 ? "" : "s", request.each.job_dir),
        DiagnosticSeverity::kNote);
  AddFleetTotals(&fleet);
  KnowledgeBase kb;
  DiagnosticList kb_problems;  // already reported by each job's own load
  LoadKnowledgeBase(request.each.knowledge, &kb, &kb_problems);
  for (const auto& why : PriceFleet(request.gpu_hour_price_usd, kb, &fleet))
    AddMessage(&outcome.diagnostics, codes::kNoPublicPrice, why, DiagnosticSeverity::kNote);
  SetFleetOrders(&fleet);
  AddVerdict(fleet, &report);
  AddResults(fleet, &report);
  PutFleet(fleet, &report);
  outcome.has_report = true;
  outcome.status = findings          ? ExitStatus::kFindings
                   : fleet.diagnosed ? ExitStatus::kOk
                                     : ExitStatus::kInputError;
  return outcome;
}

namespace {

Outcome RunLaidOut(const FleetRequest& request, FleetLayoutChoice choice) {
  FleetLayout layout = DetectFleetLayout(request.each.job_dir, choice);
  if (layout.fleet) {
    // A fleet reads each job's metrics and GPU samples from its own folder.
    if (!request.each.metrics.empty() || !request.each.gpu.empty() || !request.each.with.empty())
      return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                     fmt::format("--metrics, --gpu and --with name one job's files, and {} holds "
                                 "several jobs: put each job's files in its own folder "
                                 "(JOB/metrics/, JOB/gpu/), or give one job's folder",
                                 request.each.job_dir));
    if (layout.jobs.empty())
      return Stopped(ExitStatus::kInputError, codes::kNothingReadable,
                     fmt::format("{}: no subfolder holds a job's logs (system_logs/, "
                                 "azureml-logs/, user_logs/ or data_capability/)",
                                 request.each.job_dir));
    return RunFleet(request, layout);
  }
  Outcome outcome = RunPostmortem(request.each);
  if (outcome.has_report && DiagnosisOf(outcome.report).present) {
    KnowledgeBase kb;
    DiagnosticList kb_problems;  // already reported by the post-mortem's own load
    LoadKnowledgeBase(request.each.knowledge, &kb, &kb_problems);
    const GpuHourPrice price =
        JobGpuHourPrice(request.gpu_hour_price_usd, outcome.report.evidence.facts, kb);
    // Without a price and without a size named, nothing is claimed: no money table.
    if (price.known() || !price.sku.empty()) AddGpuMoneyTable(price, &outcome.report);
  }
  return outcome;
}

}  // namespace

Outcome RunPostmortemCommand(const FleetRequest& request) {
  if (!(request.gpu_hour_price_usd >= 0) && request.gpu_hour_price_usd != -1)
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   "--gpu-hour-price: a price in USD per GPU-hour, 0 or more");
  FleetLayoutChoice choice = FleetLayoutChoice::kAuto;
  if (request.layout == "job")
    choice = FleetLayoutChoice::kJob;
  else if (request.layout == "fleet")
    choice = FleetLayoutChoice::kFleet;
  else if (request.layout != "auto" && !request.layout.empty())
    return Stopped(ExitStatus::kUsage, codes::kBadFlag,
                   fmt::format("--layout {}: auto, job or fleet", request.layout));
  // A folder inside a job (JOB/system_logs/data_capability, the one --help names) is read as
  // the job it belongs to: its GPU samples and metrics sit beside the logs, not inside them.
  FleetRequest whole = request;
  DiagnosticList notes;
  if (choice == FleetLayoutChoice::kAuto) {
    const std::string job = JobOfFolder(request.each.job_dir);
    if (!job.empty()) {
      AddMessage(&notes, codes::kInsideAJob,
                 fmt::format("{} is inside the job folder {}: reading the job (give {} to say "
                             "it directly)",
                             request.each.job_dir, job, job),
                 DiagnosticSeverity::kNote);
      whole.each.job_dir = job;
    }
  }
  Outcome outcome = RunLaidOut(whole, choice);
  notes.Append(outcome.diagnostics);
  outcome.diagnostics = std::move(notes);
  return outcome;
}

}  // namespace feedcheck::app
