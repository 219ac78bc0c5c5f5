#include "app/postmortem_traces.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzers/text_util.h"
#include "core/json_input.h"
#include "diagnosis/data_wait_cause.h"
#include "reports/report_json.h"

namespace feedcheck::app {
namespace {

using Json = nlohmann::json;

std::string Percent(const JsonField& v) {
  auto x = v.Number();
  return x ? fmt::format("{:.0f}%", 100 * *x) : "-";
}

TableCell PercentCell(const JsonField& v) {
  TableCell c{Percent(v), std::nullopt};
  if (auto x = v.Number()) c.value = 100 * *x;
  return c;
}

// The section from its JSON: the same for a fresh run and a saved report read back.
ReportSection Layout(const Json& doc) {
  const JsonField j(&doc, nullptr, "");
  ReportSection s;
  s.key = kDataWaitSection;
  s.title = "Waited for data (the training loop's own clock)";
  s.json = doc.dump();
  s.lines.push_back({"Traces", j["traces"].StringOr(""), {}});
  s.lines.push_back({"Beside them", j["evidence"].StringOr(""), {}});
  s.lines.push_back({"Verdict", j["verdict"].StringOr(""), {}});
  ReportTable t;
  t.title = "Per rank";
  t.columns = {{"rank", "Rank"},
               {"node", "Node"},
               {"steps", "Steps covered"},
               {"step_s", "Step time", true},
               {"wait", "Waited for data", true},
               {"gpu_idle", "GPU idle", true},
               {"idle_in_wait", "GPU idle during the wait", true},
               {"cause", "Why"}};
  for (const JsonField& r : j["ranks"].Elements()) {
    TableCell step{"-", std::nullopt};
    if (auto v = r["step_s"].Number()) {
      step.value = *v;
      step.text = FormatValue(*v, Unit::kSeconds);
    }
    t.rows.push_back({{r["rank"].StringOr(""), std::nullopt},
                      {r["node"].StringOr(""), std::nullopt},
                      {r["steps_covered"].StringOr(""), std::nullopt},
                      step,
                      PercentCell(r["loader_wait_fraction"]),
                      PercentCell(r["gpu_idle_fraction"]),
                      PercentCell(r["gpu_idle_in_wait_fraction"]),
                      {r["cause_text"].StringOr(""), std::nullopt}});
  }
  t.notes.push_back(
      "Waited for data: the share of each step the loop spent in the DataLoader's __next__ "
      "(torch.profiler's enumerate(DataLoader)#...__next__ inside ProfilerStep#N). GPU idle "
      "during the wait: of the GPU's idle time inside the steps, the share that fell while the "
      "loop waited (kernels, copies and sets on the GPU's streams; CPU-only traces have none).");
  s.tables.push_back(std::move(t));
  return s;
}

void Replace(ReportSection s, Report* report) {
  auto same = std::find_if(report->sections.begin(), report->sections.end(),
                           [](const ReportSection& r) { return r.key == kDataWaitSection; });
  if (same != report->sections.end())
    *same = std::move(s);
  else
    report->sections.push_back(std::move(s));
}

}  // namespace

void PutDataWait(const std::vector<analyzers::RankFigures>& ranks, const FactSet& facts,
                 Report* report) {
  if (ranks.empty()) return;
  std::string why;
  diagnosis::DataWaitInputs in;
  in.storage = diagnosis::StorageSpeedOf(facts, &why);
  // The node's CPU is not among the facts any reader sets yet: not recorded (ClassifyDataWait
  // takes it when a reader of a CPU metric gives it).
  Json j;
  j["evidence"] = fmt::format("{}; the node's CPU: {}", why,
                              in.cpu_busy ? (*in.cpu_busy ? "busy" : "not busy") : "not recorded");
  j["storage"] = in.storage == diagnosis::StorageSpeed::kFast             ? "fast"
                 : in.storage == diagnosis::StorageSpeed::kSlowOrRefusing ? "slow_or_refusing"
                                                                          : "unknown";
  double step_s = 0, wait_s = 0;
  size_t steps = 0;
  Json rows = Json::array();
  for (const auto& r : ranks) {
    Json row;
    row["rank"] = r.rank;
    row["node"] = r.node;
    row["file"] = r.path;
    row["steps"] = r.steps.size();
    row["steps_covered"] = r.StepsCovered();
    row["clock"] = std::string(analyzers::TraceClockName(r.clock));
    if (!r.steps.empty()) {
      row["step_s"] = r.step_s / static_cast<double>(r.steps.size());
      row["loader_wait_fraction"] = r.loader_wait_fraction();
      if (r.gpu) {
        row["gpu_idle_fraction"] = r.gpu_idle_fraction();
        row["gpu_idle_in_wait_fraction"] = r.gpu_idle_in_wait_fraction();
      }
      in.loader_wait_fraction = r.loader_wait_fraction();
      diagnosis::DataWaitVerdict v = diagnosis::ClassifyDataWait(in);
      row["cause"] = v.key;
      row["cause_text"] = v.text;
    } else {
      row["cause"] = "no_steps";
      row["cause_text"] = "no ProfilerStep#N in the trace: nothing to measure";
    }
    step_s += r.step_s;
    wait_s += r.wait_s;
    steps += r.steps.size();
    rows.push_back(std::move(row));
  }
  j["ranks"] = rows;
  j["traces"] = fmt::format("{} rank{}, {} step{} covered", ranks.size(),
                            ranks.size() == 1 ? "" : "s", steps, steps == 1 ? "" : "s");
  if (steps > 0 && step_s > 0) {
    in.loader_wait_fraction = wait_s / step_s;
    diagnosis::DataWaitVerdict v = diagnosis::ClassifyDataWait(in);
    j["loader_wait_fraction"] = in.loader_wait_fraction;
    j["cause"] = v.key;
    j["verdict"] = v.text;
    report->result.push_back(
        {"loader_wait_fraction", in.loader_wait_fraction, "", "Waited for data (trace)"});
    report->result.push_back({"data_wait_cause", v.key, "", "Why it waited"});
  } else {
    j["verdict"] = "no steps in the traces: nothing to measure";
  }
  Replace(Layout(j), report);
}

void RestoreDataWait(Report* report) {
  Json j = SectionJson(*report, kDataWaitSection);
  if (j.is_object() && j.contains("ranks")) Replace(Layout(j), report);
}

}  // namespace feedcheck::app
