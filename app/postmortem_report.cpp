#include "app/postmortem_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "app/diagnosis_json.h"
#include "app/fleet_report.h"
#include "core/gpu_time_text.h"
#include "core/units.h"
#include "diagnosis/idle_state.h"
#include "diagnosis/ledger_text.h"
#include "reports/report_json.h"

namespace feedcheck::app {
namespace {

std::string NodeText(double value, const std::string& text) { return value >= 0 ? text : "-"; }

TableCell Cell(std::string text, double value) {
  return {std::move(text), value >= 0 ? std::optional<double>(value) : std::nullopt};
}

// What held a node's GPUs, from its ledger states: the largest and its share of the node's GPU
// time lost ("account egress 94%"), then the next when it holds a tenth or more ("own code 61%,
// latency 35%"); "" when the ledger was not kept per node or the node lost nothing.
std::string HeldBy(const NodeRow& n) {
  std::string out;
  if (n.states.empty() || !(n.gpu_lost_gpu_s > 0)) return out;
  for (size_t i = 0; i < n.states.size() && i < 2; ++i) {
    const double share = n.states[i].gpu_s / n.gpu_lost_gpu_s;
    auto state = diagnosis::IdleStateFromKey(n.states[i].state);
    if (!state || (i > 0 && share < 0.1)) break;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", diagnosis::StateLabel(*state),
                       diagnosis::SharePercent(share));
  }
  return out;
}

// One row per node; the straggler marked; every GPU time in the unit of the largest, so
// "0 GPU-seconds" never stands beside "63 GPU-minutes". A node's GPU time lost and what held it
// are its ledger's (NodeRow::states). A column nothing is known of for any node is left out
// rather than filled with dashes.
ReportTable NodesTable(const DiagnosisSummary& d) {
  ReportTable t;
  t.title = fmt::format("Nodes ({})", d.nodes.size());
  double most_lost_gpu_s = 0;
  bool any_download = false, any_util = false, any_lost = false, any_throttled = false,
       any_held = false;
  for (const auto& n : d.nodes) {
    most_lost_gpu_s = std::max(most_lost_gpu_s, n.gpu_lost_gpu_s);
    any_download |= n.download_s >= 0;
    any_util |= n.gpu_util_mean >= 0;
    any_lost |= n.gpu_lost_gpu_s >= 0;
    any_throttled |= n.throttled >= 0;
    any_held |= !HeldBy(n).empty();
  }
  t.columns = {{"node", "Node"}};
  if (any_download) t.columns.push_back({"download_s", "Download", true});
  if (any_util) t.columns.push_back({"gpu_util_mean", "GPU busy", true});
  if (any_lost) t.columns.push_back({"gpu_lost_gpu_s", "GPU time lost", true});
  if (any_held) t.columns.push_back({"held_by", "Held by"});
  if (any_throttled) t.columns.push_back({"throttled", "Throttled", true});
  for (const auto& n : d.nodes) {
    std::vector<TableCell> row{{n.straggler ? n.node + " (straggler)" : n.node, std::nullopt}};
    if (any_download)
      row.push_back(Cell(NodeText(n.download_s, FormatSeconds(n.download_s)), n.download_s));
    if (any_util)
      row.push_back(Cell(NodeText(n.gpu_util_mean, fmt::format("{:.0f}%", n.gpu_util_mean)),
                         n.gpu_util_mean));
    if (any_lost)
      row.push_back(Cell(NodeText(n.gpu_lost_gpu_s, GpuTimeText(n.gpu_lost_gpu_s, most_lost_gpu_s)),
                         n.gpu_lost_gpu_s));
    if (any_held) {
      std::string held = HeldBy(n);
      row.push_back({held.empty() ? "-" : held, std::nullopt});
    }
    if (any_throttled)
      row.push_back(Cell(NodeText(n.throttled, fmt::format("{:.0f}", n.throttled)), n.throttled));
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

void PutPostmortem(diagnosis::Postmortem postmortem, Report* report) {
  report->evidence = std::move(postmortem.evidence);
  report->verdict = std::move(postmortem.verdict);
  report->verdict_level = postmortem.verdict_level;
  report->verdict_detail = std::move(postmortem.verdict_detail);
  report->findings = std::move(postmortem.findings);
  report->skipped = std::move(postmortem.skipped);
  report->env = std::move(postmortem.env);
  report->config = std::move(postmortem.config);
  PutDiagnosis(postmortem.diagnosis, report);
}

void PutDiagnosis(const DiagnosisSummary& d, Report* report) {
  ReportSection s;
  s.key = kDiagnosisSection;
  s.title = "GPU time and cause";
  s.json = DiagnosisToJson(d).dump();
  // The action first: the change to make, then what the cause cost and what the fix buys.
  if (!d.fix.empty()) s.lines.push_back({"Fix", d.fix, {}});
  if (d.attributed_gpu_s >= 0 && d.gpu.known)
    s.lines.push_back({"GPU time attributed to the cause", GpuTimeText(d.attributed_gpu_s), {}});
  if (d.estimate.available) {
    SectionLine buys{"What the fix buys (estimate)", d.estimate.text, {}};
    for (const auto& a : d.estimate.assumptions) buys.details.push_back("assumes " + a);
    s.lines.push_back(std::move(buys));
  } else if (!d.estimate.text.empty()) {
    // Why no figure: said plainly rather than left out.
    s.lines.push_back({"What the fix buys", d.estimate.text, {}});
  }
  if (!d.nodes.empty()) {
    if (!d.straggler.empty()) s.lines.push_back({"Straggler", d.straggler, {}});
    for (const auto& n : d.not_storage_nodes) s.lines.push_back({"Not storage", n, {}});
    s.tables.push_back(NodesTable(d));
  }
  // A post-mortem leads with the GPU time lost, then why; its findings come in the order the
  // diagnosis ranked them (by the GPU time they cost, secondary ones last).
  report->headline = d.gpu.headline;
  report->findings_ranked = true;
  auto same = std::find_if(report->sections.begin(), report->sections.end(),
                           [](const ReportSection& r) { return r.key == kDiagnosisSection; });
  if (same != report->sections.end())
    *same = std::move(s);
  else
    report->sections.push_back(std::move(s));
}

DiagnosisSummary DiagnosisOf(const Report& report) {
  return DiagnosisFromJson(SectionJson(report, kDiagnosisSection));  // {} when not an object
}

void RestoreSections(Report* report) {
  DiagnosisSummary d = DiagnosisOf(*report);
  if (d.present) PutDiagnosis(d, report);
  FleetSummary fleet = FleetOf(*report);
  if (fleet.present) PutFleet(fleet, report);
}

}  // namespace feedcheck::app
