#include "reports/fleet_markdown.h"

#include <fmt/format.h>

#include "reports/fleet_text.h"
#include "reports/markdown_reporter.h"

namespace feedcheck {
namespace {

std::string M(std::string_view text) { return MarkdownCell(text); }

void Jobs(const FleetSummary& f, std::ostream& out) {
  const bool priced = f.priced();
  out << fmt::format("\n## Jobs ({}, most GPU time lost first)\n\n", f.jobs.size());
  out << "| Job | Nodes x GPUs | Duration | GPU-hours lost | Cause | Confidence | Fix | What the "
         "fix buys | Fix wins back (GPU-h) |"
      << (priced ? " Lost (USD, est.) |" : "") << "\n";
  out << "|---|---|--:|--:|---|---|---|---|--:|" << (priced ? "--:|" : "") << "\n";
  for (size_t i : f.by_gpu_lost) {
    const FleetJob& j = f.jobs[i];
    out << fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} |", M(j.job), FleetNodesGpusText(j),
        FleetDurationText(j.duration_s), FleetGpuHoursText(j.gpu_lost_gpu_s), M(FleetCauseText(j)),
        M(j.confidence.empty() ? "-" : j.confidence), M(j.fix_title.empty() ? "-" : j.fix_title),
        M(j.fix_buys.empty() ? "-" : j.fix_buys), M(FleetWonBackText(j)));
    if (priced) out << " " << FleetUsdText(j.lost_usd) << " |";
    out << "\n";
  }
  out << "\nFix wins back: GPU-hours, the supply model's estimate; ≤: the time lost to the "
         "cause, the most its fix can win back.\n";
}

void Totals(const FleetSummary& f, std::ostream& out) {
  const bool priced = f.priced();
  if (!f.causes.empty()) {
    out << "\n## GPU time lost by cause\n\n| Cause | Jobs | GPU-hours |"
        << (priced ? " USD (est.) |" : "") << "\n|---|--:|--:|" << (priced ? "--:|" : "") << "\n";
    for (const auto& c : f.causes)
      out << fmt::format("| {} | {} | {} |", M(c.cause), c.jobs,
                         FleetGpuHoursText(c.gpu_lost_gpu_s))
          << (priced ? " " + FleetUsdText(c.lost_usd) + " |" : "") << "\n";
  }
  if (!f.fixes.empty()) {
    out << "\n## Fixes, ranked by the GPU time they win back\n\n";
    size_t n = 0;
    for (const auto& x : f.fixes) {
      out << fmt::format("{}. **{}** ({}): {} GPU-hours{}{}", ++n, M(x.title),
                         FleetJobsText(x.jobs.size()), FleetGpuHoursText(x.won_back_gpu_s),
                         FleetFixCountText(x).empty() ? "" : " (" + FleetFixCountText(x) + ")",
                         priced ? fmt::format(", {} (estimate)", FleetUsdText(x.won_back_usd)) : "")
          << "\n";
      if (!x.fix.empty()) out << "   " << M(x.fix) << "\n";
    }
  }
  if (!f.accounts.empty()) {
    out << "\n## Storage accounts\n\n| Account | Jobs | Throttled | Finding |\n|---|--:|--:|---|\n";
    for (const auto& a : f.accounts)
      out << fmt::format(
          "| {} | {} | {} | {}{} |\n", M(a.account), a.jobs.size(), a.throttled_jobs.size(),
          M(a.finding), a.lost_usd >= 0 ? fmt::format(" ({} est.)", FleetUsdText(a.lost_usd)) : "");
  }
}

}  // namespace

void RenderFleetMarkdown(const Report& r, std::ostream& out) {
  const FleetSummary& f = r.fleet;
  out << "# feedcheck " << M(r.title) << "\n\n";
  out << "**Verdict: " << M(r.verdict) << "**\n\n";
  if (!r.verdict_detail.empty()) out << M(r.verdict_detail) << "\n";
  Jobs(f, out);
  Totals(f, out);
  if (f.not_diagnosed > 0) {
    out << fmt::format("\n## Not diagnosed ({})\n\n", f.not_diagnosed);
    for (const auto& j : f.jobs)
      if (!j.diagnosed) out << "- " << M(j.problem) << "\n";
  }
  out << "\n## How it was read\n\n";
  out << "- Fleet folder " << M(f.root) << ": " << M(f.layout) << "; " << f.workers << " worker"
      << (f.workers == 1 ? "" : "s") << ".\n";
  for (const auto& s : f.skipped) out << "- Not a job: " << M(s) << "\n";
  if (!f.price_note.empty()) out << "- Money: " << M(f.price_note) << ".\n";
  const RunContext& c = r.context;
  out << fmt::format("\n---\nfeedcheck {} · {} · {}\n", M(c.tool_version), M(c.host),
                     M(c.started_at_utc));
}

}  // namespace feedcheck
