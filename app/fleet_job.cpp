#include "app/fleet_job.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>
#include <variant>

#include "app/postmortem_report.h"
#include "core/bottleneck.h"

namespace feedcheck::app {
namespace {

// "stimg01, stlabels02" -> each name.
void AddNames(const FactSet& facts, const char* key, std::set<std::string>* out) {
  const Fact* f = facts.Find(key);
  if (!f || !f->is_text()) return;
  std::string_view rest = f->text();
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) out->insert(std::string(name));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

// Nodes: the node folders read, else the GPU files per node, else one when anything was read.
int NodeCount(const Report& r, const DiagnosisSummary& d) {
  if (!d.nodes.empty()) return static_cast<int>(d.nodes.size());
  int gpu_nodes = 0;
  for (const auto& [key, fact] : r.evidence.facts)
    if (key.rfind("gpu.node_gpus.", 0) == 0) ++gpu_nodes;
  return gpu_nodes > 0 ? gpu_nodes : 1;
}

// Wall clock from the first to the last thing the job's logs and samples saw.
double DurationS(const Report& r, const DiagnosisSummary& d) {
  double from = 0, to = 0;
  bool any = false;
  for (const auto& t : r.evidence.timeline) {
    if (t.end_epoch_s < t.start_epoch_s || t.start_epoch_s <= 0) continue;
    from = any ? std::min(from, t.start_epoch_s) : t.start_epoch_s;
    to = any ? std::max(to, t.end_epoch_s) : t.end_epoch_s;
    any = true;
  }
  double span = any ? to - from : -1;
  if (d.gpu.known) span = std::max(span, d.gpu.span_s);
  return span;
}

// The first error's first line (with its file:line when it has one): a row's problem is one
// line; `feedcheck postmortem JOB` on the folder gives the whole message.
std::string FirstError(const DiagnosticList& diagnostics) {
  for (const auto& d : diagnostics.kept()) {
    if (d.severity != DiagnosticSeverity::kError) continue;
    std::string line = d.message.substr(0, d.message.find('\n'));
    if (d.location.file.empty()) return line;
    return d.location.line > 0 ? fmt::format("{}:{}: {}", d.location.file, d.location.line, line)
                               : fmt::format("{}: {}", d.location.file, line);
  }
  return "its post-mortem gave no report";
}

}  // namespace

bool IsAccountThrottle(const std::string& cause) {
  if (cause == "throttled, limit unknown" || cause == "blob or partition target") return true;
  std::optional<Bottleneck> b = BottleneckFromName(cause);
  return b && (IsAccountLimit(*b) || *b == Bottleneck::kAccountIngress);
}

FleetJob FleetJobFromOutcome(const std::string& job, const std::string& path,
                             const Outcome& outcome) {
  FleetJob row;
  row.job = job;
  row.path = path;
  const Report& r = outcome.report;
  const DiagnosisSummary d = DiagnosisOf(r);
  if (!outcome.has_report || !d.present) {
    row.problem = fmt::format("{}: not diagnosed: {}", path, FirstError(outcome.diagnostics));
    row.verdict_level = "unknown";
    return row;
  }
  row.diagnosed = true;
  row.nodes = NodeCount(r, d);
  row.duration_s = DurationS(r, d);
  if (d.gpu.known) {
    row.gpus = d.gpu.gpus;
    row.gpu_lost_gpu_s = d.gpu.lost_gpu_s;
  }
  row.cause = d.cause;
  row.confidence = d.confidence;
  row.gpu_time_measured = d.gpu.known;
  row.verdict_level = std::string(VerdictLevelName(r.verdict_level));
  row.cause_gpu_s = d.attributed_gpu_s;
  row.fix = d.fix;
  row.fix_buys = d.estimate.text;
  // The finding that decided the cause is the one whose advice the diagnosis took.
  for (const auto& f : r.findings)
    if (!f.secondary && !d.fix.empty() && f.message == d.fix) {
      row.fix_id = f.rule_id;
      row.fix_title = f.title;
      break;
    }
  const bool actionable = d.cause != "none found" && d.cause != "inconclusive" && !d.fix.empty();
  if (row.fix_id.empty() && actionable) {
    row.fix_id = d.cause;  // decided without one finding (a partition, an unnamed limit)
    row.fix_title = d.cause;
  }
  if (actionable && d.gpu.known) {
    if (d.estimate.available && d.gpu.sampled_gpu_s > 0) {
      row.won_back_gpu_s =
          std::max(0.0, (d.estimate.idle_fraction_before - d.estimate.idle_fraction_after) *
                            d.gpu.sampled_gpu_s);
      row.won_back_estimated = true;
    } else {
      row.won_back_gpu_s = row.cause_gpu_s >= 0 ? row.cause_gpu_s : d.gpu.lost_gpu_s;
    }
  }
  std::set<std::string> accounts;
  AddNames(r.evidence.facts, "runtime.accounts", &accounts);
  AddNames(r.evidence.facts, "metrics.account", &accounts);
  row.accounts.assign(accounts.begin(), accounts.end());
  row.sku = r.evidence.facts.Text("node.sku").value_or("");
  // The training loop's own clock, where its profiler traces were read.
  for (const auto& v : r.result) {
    if (v.key == "loader_wait_fraction" && std::holds_alternative<double>(v.value))
      row.loader_wait_fraction = std::get<double>(v.value);
    if (v.key == "data_wait_cause" && std::holds_alternative<std::string>(v.value))
      row.data_wait_cause = std::get<std::string>(v.value);
  }
  return row;
}

}  // namespace feedcheck::app
