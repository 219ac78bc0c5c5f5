#include "app/mpi_probe_workflow.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/fact_gathering.h"
#include "app/mpi_cluster_report.h"
#include "app/mpi_cluster_result.h"
#include "app/rule_evaluation.h"
#include "core/diagnostic_codes.h"
#include "core/plural.h"
#include "core/redact.h"
#include "core/units.h"
#include "mpi/coordinator.h"
#include "rules/advice.h"
#include "rules/rule_set.h"

namespace feedcheck::app {
namespace {

std::string Replace(std::string text, const std::string& what, const std::string& with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
  return text;
}

// What every rank will spend, said once by rank 0 before the first request.
std::string BudgetLine(const MpiProbeRequest& f, const RankProbe& s, int n) {
  const ProbeBudget& b = s.env.budget;
  if (f.command == "throughput")
    return fmt::format(
        "feedcheck-mpi probe throughput: {}; {} ranks x {} connections; {} s per {}; each rank "
        "at most {} requests and {} per {}",
        RedactUrl(s.env.target.Display()), n, f.concurrency, b.duration_s,
        f.ramp ? "ramp step" : "run", b.max_requests, FormatBytes(double(b.max_bytes)),
        f.ramp ? "step" : "run");
  if (f.command == "latency")
    return fmt::format(
        "feedcheck-mpi probe latency: {}; {} ranks, each {} GETs of {}, {} HEADs, {} new "
        "connections; at most {} s",
        RedactUrl(s.env.target.Display()), n, s.latency.requests,
        FormatBytes(double(s.latency.range_bytes)), s.latency.head_requests,
        s.latency.new_connections, b.duration_s);
  std::string target =
      s.local_dir.empty() ? RedactUrl(s.env.target.Display()) : s.local_dir + " (local path)";
  return fmt::format(
      "feedcheck-mpi probe smallfiles: {}; {} ranks, each {} sizes at concurrency {}, up to {} "
      "reads per size; each rank at most {} s, {} requests, {}",
      target, n, s.smallfiles.sizes.size(), s.smallfiles.concurrency,
      s.smallfiles.requests_per_size, b.duration_s, b.max_requests,
      FormatBytes(double(b.max_bytes)));
}

// A rank whose probe did not end ok, once per step it happened in.
void AddRankMessages(const std::vector<RankReport>& reports, const std::string& step,
                     DiagnosticList* d) {
  for (const RankReport& r : reports) {
    if (!r.active || r.message.empty()) continue;
    auto severity =
        r.status == "partial" ? DiagnosticSeverity::kWarning : DiagnosticSeverity::kError;
    AddMessage(d, codes::kRankProbeStatus,
               fmt::format("rank {} ({}){}: {}: {}", r.rank, r.host, step, r.status, r.message),
               severity);
  }
}

Report MergeOnRoot(const MpiProbeRequest& f, const RankProbe& s, int n,
                   const std::vector<std::vector<RankReport>>& steps, int* exit_status,
                   DiagnosticList* d) {
  for (size_t i = 0; i < steps.size(); ++i)
    AddRankMessages(
        steps[i], steps.size() > 1 ? " at " + Counted(static_cast<double>(i + 1), "node") : "", d);
  const std::vector<RankReport>& last = steps.back();
  if (f.command == "throughput") {
    std::vector<ClusterThroughput> merged;
    for (const auto& step : steps) merged.push_back(MergeThroughput(step));
    ClusterThroughputResult result = AssembleThroughput(f, s, n, merged, last);
    *exit_status = result.exit_status;
    return ThroughputClusterReport(f, s, n, merged, result);
  }
  if (f.command == "smallfiles") {
    ClusterSmallFilesResult result = AssembleSmallFiles(s, n, last);
    *exit_status = result.exit_status;
    return SmallFilesClusterReport(s, n, result);
  }
  ClusterLatencyResult result = AssembleLatency(s, n, last);
  *exit_status = result.exit_status;
  return LatencyClusterReport(s, n, result);
}

// The rules over the cluster's facts: findings (a throttled account, a knee below the
// prediction), the rules that lacked facts, the settings they advise.
void Judge(const rules::RuleSet& rule_set, Report* report) {
  rules::EvaluationResult result = rule_set.Evaluate(report->evidence.facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);
  report->findings = std::move(result.findings);
  report->skipped = std::move(result.skipped);
  report->env = advice.env;
  report->config = advice.config;
}

}  // namespace

Outcome RunMpiProbe(const MpiWorld& w, const MpiProbeRequest& f, const ProbeCallbacks& callbacks) {
  Outcome out;
  RankProbe s;
  std::string error;
  int status = 0;
  if (!f.netns.empty()) {
    std::string ns = Replace(f.netns, "{rank}", std::to_string(w.rank()));
    if (!EnterNetworkNamespace(ns, &error)) {
      error = "--netns: " + error;
      status = ToInt(ExitStatus::kInputError);
    }
  }
  if (status == 0) status = PrepareRankProbe(f, &s, &error);
  // Rank 0 judges the merged result: a broken rules file stops every rank before they measure.
  rules::RuleSet rule_set;
  if (status == 0 && w.root() && !LoadRules(f.knowledge, &rule_set, &out.diagnostics)) {
    error = "the rules did not load (the diagnostics above say where)";
    status = ToInt(ExitStatus::kInputError);
  }
  std::vector<std::string> failures;
  status = AgreeToStart(w, status, RedactText(error), &failures);
  for (const std::string& line : failures)
    AddMessage(&out.diagnostics, codes::kRankNotStarted, line);
  if (status != 0) {
    out.status = static_cast<ExitStatus>(status);
    return out;
  }
  if (w.root()) callbacks.Notice(BudgetLine(f, s, w.size()));
  std::vector<std::string> unreadable;
  std::vector<std::vector<RankReport>> steps = RunSteps(
      w, f.command == "throughput" && f.ramp, s.env.budget.duration_s,
      [&s](double start) { return MeasureRank(s, start); }, &unreadable);
  if (!w.root()) return out;
  for (const std::string& e : unreadable)
    AddMessage(&out.diagnostics, codes::kRankReportUnreadable, e);
  int probe_status = 0;
  out.report = MergeOnRoot(f, s, w.size(), steps, &probe_status, &out.diagnostics);
  Judge(rule_set, &out.report);
  out.has_report = true;
  out.status = std::max(static_cast<ExitStatus>(probe_status),
                        FindingsExitStatus(out.report.findings, f.fail_on));
  return out;
}

}  // namespace feedcheck::app
