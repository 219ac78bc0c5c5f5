#include "app/compare_workflow.h"

#include <fmt/format.h>

#include "app/fleet_compare.h"
#include "app/fleet_report.h"
#include "core/diagnostic_codes.h"
#include "core/result_compare.h"
#include "core/run_context.h"
#include "core/units.h"
#include "reports/report_json.h"

namespace feedcheck::app {
namespace {

// --tolerance as a share: "2%" or "0.02"; nullopt when it is not one below 1.
std::optional<double> ParseTolerance(const std::string& text) {
  std::string error;
  auto q = ParseQuantity(text, &error);
  double fraction = -1;
  if (q && q->unit == Unit::kPercent) fraction = q->value / 100;
  if (q && q->unit == Unit::kCount) fraction = q->value;
  if (fraction < 0 || fraction >= 1) return std::nullopt;
  return fraction;
}

const char* BetterName(Better b) {
  return b == Better::kHigher ? "higher" : b == Better::kLower ? "lower" : "neither";
}

TableCell Side(const std::optional<double>& value, const std::string& display) {
  return {display.empty() ? "-" : display, value};
}

std::vector<TableCell> ChangeRow(const FactChange& c) {
  TableCell relative{"", c.relative};
  if (c.relative) relative.text = fmt::format("{:+.1f}%", *c.relative * 100);
  TableCell noise{"", c.noise};
  if (c.noise) noise.text = "±" + FormatValue(*c.noise, c.unit);
  // The fact first: a row read alone (a record on a narrow terminal) still names it.
  return {{c.key, std::nullopt},
          {std::string(ChangeName(c.change)), std::nullopt},
          Side(c.a, c.a_display),
          Side(c.b, c.b_display),
          relative,
          noise,
          {std::string(UnitName(c.unit)), std::nullopt},
          {BetterName(c.better), std::nullopt},
          {c.description, std::nullopt}};
}

// The rows of one table: the facts `pick` selects, in the comparison's order.
template <typename Pick>
ReportTable ChangeTable(const Comparison& cmp, std::string title, bool folded, Pick pick) {
  ReportTable t;
  t.title = std::move(title);
  TableColumn meaning{"description", "Meaning"};
  meaning.detail = true;  // the terminal shows it with -v; Markdown, JSON and HTML always
  t.columns = {{"key", "Fact"},  {"change", "Change"},           {"a", "A", true},
               {"b", "B", true}, {"relative", "Relative", true}, {"noise", "Noise band", true},
               {"unit", "Unit"}, {"better", "Better"},           meaning};
  for (const FactChange& c : cmp.changes)
    if (pick(c)) t.rows.push_back(ChangeRow(c));
  t.folded = folded;
  return t;
}

std::string VerdictsLine(const Comparison& cmp) {
  if (cmp.a_verdict.empty() && cmp.b_verdict.empty()) return "";
  if (cmp.a_verdict == cmp.b_verdict) return "The results' verdict, unchanged: " + cmp.a_verdict;
  return fmt::format("The results' verdicts: {} -> {}",
                     cmp.a_verdict.empty() ? "(none)" : cmp.a_verdict,
                     cmp.b_verdict.empty() ? "(none)" : cmp.b_verdict);
}

std::string FloorText(const Comparison& cmp) {
  if (!cmp.floor) return "not judged; --floor 50% judges changes beyond 50%";
  return fmt::format("under the {:g}% floor", *cmp.floor * 100);
}

void SetVerdict(const Comparison& cmp, Report* report) {
  if (cmp.worse > 0 && cmp.better > 0) {
    report->verdict = "mixed";
    report->verdict_level = VerdictLevel::kWarning;
  } else if (cmp.worse > 0) {
    report->verdict = "worse";
    report->verdict_level = VerdictLevel::kBad;
  } else if (cmp.better > 0) {
    report->verdict = "better";
    report->verdict_level = VerdictLevel::kGood;
  } else if (cmp.within_noise > 0 || cmp.no_band > 0 || cmp.per_item > 0) {
    report->verdict = "within noise";
    report->verdict_level = VerdictLevel::kGood;
  } else {
    report->verdict = "no change";
    report->verdict_level = VerdictLevel::kGood;
  }
  std::string detail = fmt::format("A  {}\nB  {}\n", cmp.a_name, cmp.b_name);
  if (std::string v = VerdictsLine(cmp); !v.empty()) detail += v + "\n";
  detail += fmt::format(
      "Results: {} better, {} worse, {} within their noise band, {} changed with no noise band "
      "known ({}), {} the same (within {:g}%), {} in one result only",
      cmp.better, cmp.worse, cmp.within_noise, cmp.no_band, FloorText(cmp), cmp.same,
      cmp.tolerance * 100, cmp.one_side);
  if (cmp.per_item > 0)
    detail += fmt::format(
        "\n{} per-GPU, per-node or per-rank {} changed (folded; their totals "
        "above are judged)",
        cmp.per_item, cmp.per_item == 1 ? "figure" : "figures");
  report->verdict_detail = detail;
}

void AddCount(Report* report, const char* key, size_t n, const char* label) {
  report->result.push_back({key, static_cast<double>(n), "", label});
}

}  // namespace

Outcome RunCompare(const CompareRequest& request) {
  std::optional<double> tolerance = ParseTolerance(request.tolerance);
  if (!tolerance)
    return Stopped(
        ExitStatus::kUsage, codes::kBadFlag,
        fmt::format("--tolerance '{}': give a share such as 2% or 0.02", request.tolerance));
  Outcome out;
  Report a, b;
  const bool ok_a = LoadReportFile(request.a, &a, &out.diagnostics);
  const bool ok_b = LoadReportFile(request.b, &b, &out.diagnostics);
  if (!ok_a || !ok_b) {
    out.status = ExitStatus::kInputError;
    AddMessage(&out.diagnostics, codes::kUnreadableResult,
               fmt::format("cannot read {} as a saved result", !ok_a ? request.a : request.b));
    return out;
  }
  // Two fleets (last week's jobs, this week's): their totals and causes, side by side.
  if (FleetSummary fa = FleetOf(a), fb = FleetOf(b); fa.present && fb.present) {
    Outcome fleets = CompareFleets(request.a, fa, request.b, fb, *tolerance, request.fail_on_worse);
    fleets.diagnostics.Append(out.diagnostics);
    return fleets;
  }
  CompareLimits limits;
  limits.tolerance = *tolerance;
  if (!request.floor.empty()) {
    std::optional<double> floor = ParseTolerance(request.floor);
    if (!floor || *floor <= 0) {
      AddMessage(&out.diagnostics, codes::kBadFlag,
                 fmt::format("--floor '{}': give a share such as 50% or 0.5", request.floor));
      out.status = ExitStatus::kUsage;
      return out;
    }
    limits.floor = floor;
  }
  const Comparison cmp = CompareResults({request.a, a.verdict, &a.evidence.facts},
                                        {request.b, b.verdict, &b.evidence.facts}, limits);
  Report& report = out.report;
  report.context = CurrentRunContext("compare");
  report.title = "Compare";
  SetVerdict(cmp, &report);
  report.result.push_back({"a", cmp.a_name, "", "A"});
  report.result.push_back({"b", cmp.b_name, "", "B"});
  report.result.push_back({"a_verdict", cmp.a_verdict, "", "A's verdict"});
  report.result.push_back({"b_verdict", cmp.b_verdict, "", "B's verdict"});
  report.result.push_back(
      {"verdict_changed", cmp.a_verdict != cmp.b_verdict, "", "Verdict changed"});
  AddCount(&report, "better", cmp.better, "Better");
  AddCount(&report, "worse", cmp.worse, "Worse");
  AddCount(&report, "within_noise", cmp.within_noise, "Within noise");
  AddCount(&report, "no_band", cmp.no_band, "No noise band");
  AddCount(&report, "same", cmp.same, "Same");
  AddCount(&report, "one_side", cmp.one_side, "In one result only");
  AddCount(&report, "per_item", cmp.per_item, "Per GPU, node or rank");
  report.result.push_back({"tolerance", cmp.tolerance, "", "Tolerance"});
  if (cmp.floor) report.result.push_back({"floor", *cmp.floor, "", "Floor without a band"});
  auto changed = [](const FactChange& c) { return c.change != Change::kSame; };
  for (ReportTable t : {
           ChangeTable(
               cmp, "Inputs that differ (a different setup, not a result)", false,
               [&](const FactChange& c) { return changed(c) && c.role == FactRole::kInput; }),
           ChangeTable(
               cmp, "Derived from the inputs and results (they follow them: not judged)", false,
               [&](const FactChange& c) { return changed(c) && c.role == FactRole::kDerived; }),
           ChangeTable(cmp, "Results that changed", false,
                       [&](const FactChange& c) {
                         return changed(c) && c.role == FactRole::kResult && !c.per_item;
                       }),
           ChangeTable(cmp, "Per GPU, node or rank (their totals are judged above)", true,
                       [&](const FactChange& c) {
                         return changed(c) && c.role == FactRole::kResult && c.per_item;
                       }),
           ChangeTable(cmp, "Unchanged", true,
                       [](const FactChange& c) { return c.change == Change::kSame; }),
       })
    if (!t.rows.empty()) report.tables.push_back(std::move(t));
  out.has_report = true;
  out.status = request.fail_on_worse && cmp.worse > 0 ? ExitStatus::kFindings : ExitStatus::kOk;
  return out;
}

}  // namespace feedcheck::app
