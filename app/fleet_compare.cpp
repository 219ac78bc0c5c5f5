#include "app/fleet_compare.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace feedcheck::app {
namespace {

double PerJob(const FleetSummary& f) {
  return f.with_gpu_samples > 0 ? f.gpu_lost_gpu_s / 3600 / f.with_gpu_samples : 0;
}

TableCell Hours(double gpu_s) { return {fmt::format("{:.1f}", gpu_s / 3600), gpu_s / 3600}; }

// "+12%", "-3%", "new", "gone".
TableCell Change(double a, double b) {
  if (a <= 0 && b <= 0) return {"-", std::nullopt};
  if (a <= 0) return {"new", std::nullopt};
  if (b <= 0) return {"gone", -1.0};
  const double r = (b - a) / a;
  return {fmt::format("{:+.0f}%", r * 100), r};
}

ReportTable Totals(const FleetSummary& a, const FleetSummary& b) {
  ReportTable t;
  t.title = "Fleet totals, A -> B";
  t.columns = {{"what", "", false}, {"a", "A", true}, {"b", "B", true}, {"change", "Change", true}};
  auto row = [&](const char* what, TableCell x, TableCell y) {
    TableCell change = Change(x.value.value_or(0), y.value.value_or(0));
    t.rows.push_back({{what, std::nullopt}, std::move(x), std::move(y), std::move(change)});
  };
  row("jobs", CountCell(a.jobs.size()), CountCell(b.jobs.size()));
  row("jobs diagnosed", CountCell(static_cast<size_t>(a.diagnosed)),
      CountCell(static_cast<size_t>(b.diagnosed)));
  row("GPU-hours lost", Hours(a.gpu_lost_gpu_s), Hours(b.gpu_lost_gpu_s));
  row("GPU-hours lost per job (with GPU samples)", {fmt::format("{:.2f}", PerJob(a)), PerJob(a)},
      {fmt::format("{:.2f}", PerJob(b)), PerJob(b)});
  row("GPU-hours the fixes win back", Hours(a.won_back_gpu_s), Hours(b.won_back_gpu_s));
  return t;
}

ReportTable Causes(const FleetSummary& a, const FleetSummary& b) {
  ReportTable t;
  t.title = "GPU time lost by cause, A -> B (GPU-hours)";
  t.columns = {{"cause", "Cause", false},  {"a", "A", true},           {"b", "B", true},
               {"change", "Change", true}, {"jobs_a", "Jobs A", true}, {"jobs_b", "Jobs B", true}};
  std::map<std::string, std::pair<const FleetCauseTotal*, const FleetCauseTotal*>> by;
  for (const auto& c : a.causes) by[c.cause].first = &c;
  for (const auto& c : b.causes) by[c.cause].second = &c;
  // B's order (most lost first), then causes only A had.
  std::vector<std::string> order;
  for (const auto& c : b.causes) order.push_back(c.cause);
  for (const auto& c : a.causes)
    if (!by[c.cause].second) order.push_back(c.cause);
  for (const auto& name : order) {
    const auto& [x, y] = by[name];
    const double xa = x ? x->gpu_lost_gpu_s : 0, yb = y ? y->gpu_lost_gpu_s : 0;
    t.rows.push_back({{name, std::nullopt},
                      Hours(xa),
                      Hours(yb),
                      Change(xa, yb),
                      CountCell(x ? x->jobs : 0),
                      CountCell(y ? y->jobs : 0)});
  }
  return t;
}

ReportTable Accounts(const FleetSummary& a, const FleetSummary& b) {
  ReportTable t;
  t.title = "Storage accounts that throttled jobs, A -> B";
  t.columns = {{"account", "Account", false},
               {"throttled_a", "Jobs A", true},
               {"throttled_b", "Jobs B", true},
               {"a", "GPU-h A", true},
               {"b", "GPU-h B", true}};
  std::map<std::string, std::pair<const FleetAccount*, const FleetAccount*>> by;
  for (const auto& x : a.accounts)
    if (!x.throttled_jobs.empty()) by[x.account].first = &x;
  for (const auto& y : b.accounts)
    if (!y.throttled_jobs.empty()) by[y.account].second = &y;
  for (const auto& [name, pair] : by) {
    const auto& [x, y] = pair;
    t.rows.push_back({{name, std::nullopt},
                      CountCell(x ? x->throttled_jobs.size() : 0),
                      CountCell(y ? y->throttled_jobs.size() : 0),
                      Hours(x ? x->throttled_gpu_s : 0),
                      Hours(y ? y->throttled_gpu_s : 0)});
  }
  return t;
}

}  // namespace

Outcome CompareFleets(const std::string& a_name, const FleetSummary& a, const std::string& b_name,
                      const FleetSummary& b, double tolerance, bool fail_on_worse) {
  Outcome out;
  Report& report = out.report;
  report.context = CurrentRunContext("compare");
  report.title = "Compare fleets";
  const double pa = PerJob(a), pb = PerJob(b);
  const bool known = a.with_gpu_samples > 0 && b.with_gpu_samples > 0;
  const double change = known && pa > 0 ? (pb - pa) / pa : 0;
  if (!known) {
    report.verdict = "not comparable";
    report.verdict_level = VerdictLevel::kUnknown;
  } else if (change > tolerance) {
    report.verdict = "worse";
    report.verdict_level = VerdictLevel::kBad;
  } else if (change < -tolerance) {
    report.verdict = "better";
    report.verdict_level = VerdictLevel::kGood;
  } else {
    report.verdict = "no change";
    report.verdict_level = VerdictLevel::kGood;
  }
  report.verdict_detail =
      known ? fmt::format(
                  "GPU-hours lost per job {:.2f} -> {:.2f} ({:+.0f}%); in all {:.1f} -> {:.1f} "
                  "GPU-hours over {} -> {} jobs. A fleet's figures are what its jobs lost, not "
                  "measurements with a noise band: judged per job, beyond {:.0f}%.",
                  pa, pb, change * 100, a.gpu_lost_gpu_s / 3600, b.gpu_lost_gpu_s / 3600,
                  a.jobs.size(), b.jobs.size(), tolerance * 100)
            : "One of the fleets has no job with GPU samples: no GPU time to compare.";
  report.result = {{"a", a_name, "", "A"},
                   {"b", b_name, "", "B"},
                   {"jobs_a", static_cast<double>(a.jobs.size()), "", "Jobs in A"},
                   {"jobs_b", static_cast<double>(b.jobs.size()), "", "Jobs in B"},
                   {"gpu_hours_lost_a", a.gpu_lost_gpu_s / 3600, "GPU-h", "GPU time lost, A"},
                   {"gpu_hours_lost_b", b.gpu_lost_gpu_s / 3600, "GPU-h", "GPU time lost, B"},
                   {"gpu_hours_lost_per_job_a", pa, "GPU-h", "Per job, A"},
                   {"gpu_hours_lost_per_job_b", pb, "GPU-h", "Per job, B"},
                   {"change_per_job", change, "", "Change per job"}};
  for (ReportTable t : {Totals(a, b), Causes(a, b), Accounts(a, b)})
    if (!t.rows.empty()) report.tables.push_back(std::move(t));
  out.has_report = true;
  out.status = fail_on_worse && report.verdict == "worse" ? ExitStatus::kFindings : ExitStatus::kOk;
  return out;
}

}  // namespace feedcheck::app
