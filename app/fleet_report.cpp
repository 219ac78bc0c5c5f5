#include "app/fleet_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "app/fleet_json.h"
#include "app/fleet_text.h"
#include "reports/report_charts.h"
#include "reports/report_json.h"

namespace feedcheck::app {
namespace {

// The sections a fleet adds besides its own: laid out again from its JSON, never saved.
constexpr const char* kNotDiagnosedSection = "fleet.not_diagnosed";
constexpr const char* kReadSection = "fleet.read";

// A figure's cell: the number behind it when known (< 0 is unknown).
TableCell NumberCell(std::string text, double value) {
  return {std::move(text), value >= 0 ? std::optional<double>(value) : std::nullopt};
}

std::string Est(double usd) { return usd >= 0 ? FleetUsdText(usd) + " (est.)" : "-"; }

// Each job's place in the order of a sortable column, by the row it is shown on.
void SetRanks(const FleetSummary& f, ReportTable* t) {
  t->sortable = true;
  t->sort_ranks.assign(t->columns.size(), {});
  for (size_t c = 0; c < t->columns.size(); ++c)
    for (const auto& column : f.sort_columns) {
      // The "N×GPU" column sorts by the job's GPUs.
      const std::string& key = t->columns[c].key == "nodes_gpus" ? "gpus" : t->columns[c].key;
      if (column.key != key) continue;
      for (size_t job : f.by_gpu_lost)
        t->sort_ranks[c].push_back(job < column.rank.size() ? column.rank[job] : 0);
    }
}

ReportTable JobsTable(const FleetSummary& f) {
  const bool priced = f.priced();
  ReportTable t;
  t.title = fmt::format("Jobs ({}, most GPU time lost first)", f.jobs.size());
  t.columns = {{"job", "Job"},
               {"nodes_gpus", "N×GPU"},
               {"duration_s", "Ran", true},
               {"gpu_lost_gpu_s", "Lost", true},
               {"cause", "Cause"},
               {"confidence", "Confidence"},
               {"fix", "Fix"},
               {"fix_buys", "What the fix buys"},
               {"won_back_gpu_s", "Won", true}};
  // Job names whole: they are pasted back into commands (postmortem DIR/JOB); how long each
  // ran, its fix and what the fix buys are detail (-v on the terminal, whole in the others).
  t.columns[2].detail = true;
  t.columns[6].detail = true;
  t.columns[7].detail = true;
  if (priced) t.columns.push_back({"lost_usd", "$ lost", true});
  // Where some job's profiler traces were read: the share its loop waited for data, and why.
  const bool traced = std::any_of(f.jobs.begin(), f.jobs.end(),
                                  [](const FleetJob& j) { return j.loader_wait_fraction >= 0; });
  if (traced) t.columns.push_back({"loader_wait_fraction", "Waited for data", true});
  for (size_t i : f.by_gpu_lost) {
    const FleetJob& j = f.jobs[i];
    std::vector<TableCell> row{
        TextCell(j.job),
        NumberCell(FleetNodesGpusText(j), j.gpus),
        NumberCell(FleetDurationText(j.duration_s), j.duration_s),
        NumberCell(FleetGpuHoursText(j.gpu_lost_gpu_s),
                   j.gpu_lost_gpu_s < 0 ? -1 : j.gpu_lost_gpu_s / 3600),
        TextCell(FleetCauseText(j)),
        TextCell(FleetConfidenceText(j)),
        TextCell(j.fix_title.empty() ? "-" : j.fix_title),
        TextCell(j.fix_buys.empty() ? "-" : j.fix_buys),
        NumberCell(FleetWonBackText(j), j.won_back_gpu_s < 0 ? -1 : j.won_back_gpu_s / 3600)};
    if (priced) row.push_back(NumberCell(FleetUsdText(j.lost_usd), j.lost_usd));
    if (traced)
      row.push_back(NumberCell(FleetDataWaitText(j),
                               j.loader_wait_fraction < 0 ? -1 : 100 * j.loader_wait_fraction));
    t.rows.push_back(std::move(row));
    t.row_levels.push_back(VerdictLevelFromName(j.verdict_level).value_or(VerdictLevel::kUnknown));
  }
  t.notes.push_back(
      "Lost, Won: GPU-hours lost and won back by the fix (≤: at most). N×GPU: nodes × GPUs each.");
  if (traced)
    t.notes.push_back(
        "Waited for data: where the job's PyTorch profiler traces were read, the share of its "
        "steps' time the training loop spent in the DataLoader's __next__, and why (the "
        "evidence beside the trace: the data runtime's reads, the node's CPU).");
  SetRanks(f, &t);
  return t;
}

ReportTable CausesTable(const FleetSummary& f) {
  const bool priced = f.priced();
  ReportTable t;
  t.title = "GPU time lost by cause";
  t.columns = {{"cause", "Cause"}, {"jobs", "Jobs", true}, {"gpu_hours", "GPU-hours", true}};
  if (priced) t.columns.push_back({"lost_usd", "Lost (est.)", true});
  for (const auto& c : f.causes) {
    std::vector<TableCell> row{
        TextCell(c.cause), NumberCell(std::to_string(c.jobs), c.jobs),
        NumberCell(FleetGpuHoursText(c.gpu_lost_gpu_s), c.gpu_lost_gpu_s / 3600)};
    if (priced) row.push_back(NumberCell(FleetUsdText(c.lost_usd), c.lost_usd));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// The same figures as bars, for the formats that draw: each bar's length its GPU time.
ReportBarChart CausesChart(const FleetSummary& f) {
  ReportBarChart chart;
  chart.title = "GPU-hours lost by cause";
  chart.caption = "GPU-hours lost, summed over the jobs' GPUs.";
  for (const auto& c : f.causes)
    chart.bars.push_back(
        {c.cause, c.gpu_lost_gpu_s,
         fmt::format("{} GPU-h · {}{}", FleetGpuHoursText(c.gpu_lost_gpu_s),
                     FleetJobsText(static_cast<size_t>(std::max(0, c.jobs))),
                     c.lost_usd >= 0 ? fmt::format(" · {} est.", FleetUsdText(c.lost_usd)) : "")});
  return chart;
}

ReportTable FixesTable(const FleetSummary& f) {
  const bool priced = f.priced();
  ReportTable t;
  t.title = fmt::format("Fixes, ranked by the GPU time they win back ({} GPU-hours in all)",
                        FleetGpuHoursText(f.won_back_gpu_s));
  t.columns = {{"rank", "", true},
               {"fix", "Fix"},
               {"jobs", "Jobs", true},
               {"won_back_gpu_hours", "Won back GPU-h", true}};
  if (priced) t.columns.push_back({"won_back_usd", "Won back (est.)", true});
  t.columns.push_back({"advice", "Advice"});
  t.columns.back().detail = true;
  t.columns.push_back({"job_names", "Its jobs"});
  t.columns.back().detail = true;
  size_t n = 0;
  for (const auto& x : f.fixes) {
    ++n;
    std::vector<TableCell> row{
        NumberCell(fmt::format("{}.", n), static_cast<double>(n)), TextCell(x.title),
        NumberCell(std::to_string(x.jobs.size()), static_cast<double>(x.jobs.size())),
        NumberCell(FleetFixWonBackText(x), x.won_back_gpu_s / 3600)};
    if (priced) row.push_back(NumberCell(FleetUsdText(x.won_back_usd), x.won_back_usd));
    row.push_back(TextCell(x.fix.empty() ? "-" : x.fix));
    row.push_back(TextCell(fmt::format("{}", fmt::join(x.jobs, ", "))));
    t.rows.push_back(std::move(row));
  }
  return t;
}

ReportTable AccountsTable(const FleetSummary& f) {
  ReportTable t;
  t.title = "Storage accounts";
  // Which account throttled which jobs: detail under the answer (-v on the terminal).
  t.folded = true;
  t.columns = {{"account", "Account"},
               {"jobs", "Jobs", true},
               {"throttled_jobs", "Throttled", true},
               {"finding", "Finding"}};
  for (const auto& a : f.accounts)
    t.rows.push_back(
        {TextCell(a.account),
         NumberCell(std::to_string(a.jobs.size()), static_cast<double>(a.jobs.size())),
         NumberCell(std::to_string(a.throttled_jobs.size()),
                    static_cast<double>(a.throttled_jobs.size())),
         TextCell(a.finding +
                  (a.lost_usd >= 0 ? fmt::format(" ({} est.)", FleetUsdText(a.lost_usd)) : ""))});
  return t;
}

// The totals, then the chart and the tables.
ReportSection FleetSection(const FleetSummary& f) {
  const bool priced = f.priced();
  ReportSection s;
  s.key = kFleetSection;
  s.title = "Totals";
  s.json = FleetToJson(f).dump();
  std::string how = f.not_diagnosed > 0
                        ? fmt::format("{} diagnosed, {} not", f.diagnosed, f.not_diagnosed)
                        : "all diagnosed";
  const int without = f.diagnosed - f.with_gpu_samples;
  if (without > 0) how += fmt::format(", {} without GPU samples", without);
  if (f.with_gpu_samples > 0) {
    // The answer first: how much of the GPU time lost was storage's.
    const StorageSplit split = SplitByStorage(f);
    const double pct = f.gpu_lost_gpu_s > 0 ? 100 * split.storage_gpu_s / f.gpu_lost_gpu_s : 0;
    s.lines.push_back(
        {"Storage cost",
         fmt::format("{} of the {} GPU-hours lost ({:.0f}%); not storage {}, not known {}",
                     FleetGpuHoursText(split.storage_gpu_s), FleetGpuHoursText(f.gpu_lost_gpu_s),
                     pct, FleetGpuHoursText(split.not_storage_gpu_s),
                     FleetGpuHoursText(split.unknown_gpu_s)),
         {}});
    if (!split.top_storage_cause.empty())
      s.lines.back().details.push_back(
          fmt::format("Largest storage cause: {} ({} GPU-hours, {})", split.top_storage_cause,
                      FleetGpuHoursText(split.top_storage_gpu_s),
                      FleetJobsText(static_cast<size_t>(std::max(0, split.top_storage_jobs)))));
    if (priced)
      s.lines.push_back({"GPU time lost",
                         fmt::format("{} GPU-hours, {}; the fixes win back {} GPU-hours, {}",
                                     FleetGpuHoursText(f.gpu_lost_gpu_s), Est(f.lost_usd),
                                     FleetGpuHoursText(f.won_back_gpu_s), Est(f.won_back_usd)),
                         {}});
  }
  // The action: the fix that wins back most, as the change to make; its reasoning under it (-v,
  // and whole in the other formats), the rest of the ranking in the fixes table.
  if (!f.fixes.empty() && !f.fixes.front().fix.empty()) {
    const FleetFixTotal& top = f.fixes.front();
    // Won back: the supply model's estimate, or at most the time lost when none was estimated.
    s.lines.push_back(
        {"Fix first",
         fmt::format("{} ({}, {}{} GPU-hours back).", FleetActionText(top.fix),
                     FleetJobsText(top.jobs.size()), top.estimated_jobs == 0 ? "up to " : "",
                     FleetGpuHoursText(top.won_back_gpu_s)),
         {top.title + ": " + top.fix}});
  }
  // How the folder was read, on the same line; why it is a fleet and what was not read go
  // under it (-v).
  SectionLine jobs{
      "Jobs",
      fmt::format("{} ({}), {} worker{}", f.jobs.size(), how, f.workers, f.workers == 1 ? "" : "s"),
      {}};
  jobs.details.push_back(f.layout);
  if (!f.skipped.empty()) {
    jobs.text += fmt::format("; {} subfolder{} not jobs", f.skipped.size(),
                             f.skipped.size() == 1 ? "" : "s");
    for (const auto& skipped : f.skipped) jobs.details.push_back("Not a job: " + skipped);
  }
  s.lines.push_back(std::move(jobs));
  // One cause, or causes of equal weight: the bars would compare nothing the table does not say.
  if (ReportBarChart chart = CausesChart(f); BarsSaySomething(chart))
    s.charts.push_back(std::move(chart));
  s.tables.push_back(JobsTable(f));
  for (ReportTable t : {CausesTable(f), FixesTable(f), AccountsTable(f)})
    if (!t.rows.empty()) s.tables.push_back(std::move(t));
  return s;
}

// The money's basis: said once, after the figures.
ReportSection ReadSection(const FleetSummary& f) {
  ReportSection s;
  s.key = kReadSection;
  s.title = "Money";
  if (!f.price_note.empty()) s.lines.push_back({"", f.price_note + ".", {}});
  return s;
}

}  // namespace

void PutFleet(const FleetSummary& fleet, Report* report) {
  auto& sections = report->sections;
  sections.erase(std::remove_if(sections.begin(), sections.end(),
                                [](const ReportSection& s) {
                                  return s.key == kFleetSection || s.key == kNotDiagnosedSection ||
                                         s.key == kReadSection;
                                }),
                 sections.end());
  sections.push_back(FleetSection(fleet));
  if (fleet.not_diagnosed > 0) {
    ReportSection s;
    s.key = kNotDiagnosedSection;
    s.title = fmt::format("Not diagnosed ({})", fleet.not_diagnosed);
    for (const auto& j : fleet.jobs)
      if (!j.diagnosed) s.lines.push_back({"", j.problem, {}});
    sections.push_back(std::move(s));
  }
  if (fleet.priced()) sections.push_back(ReadSection(fleet));
}

FleetSummary FleetOf(const Report& report) {
  return FleetFromJson(SectionJson(report, kFleetSection));  // {} when not an object
}

}  // namespace feedcheck::app
