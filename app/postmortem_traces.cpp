#include "app/postmortem_traces.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzers/text_util.h"
#include "diagnosis/data_wait_cause.h"
#include "reports/report_json.h"

namespace feedcheck::app {
namespace {

using Json = nlohmann::json;

std::string Percent(const Json& v) {
  return v.is_number() ? fmt::format("{:.0f}%", 100 * v.get<double>()) : "-";
}

TableCell PercentCell(const Json& v) {
  TableCell c{Percent(v), std::nullopt};
  if (v.is_number()) c.value = 100 * v.get<double>();
  return c;
}

// The section from its JSON: the same for a fresh run and a saved report read back.
ReportSection Layout(const Json& j) {
  ReportSection s;
  s.key = kDataWaitSection;
  s.title = "Waited for data (the training loop's own clock)";
  s.json = j.dump();
  s.lines.push_back({"Traces", j.value("traces", ""), {}});
  s.lines.push_back({"Beside them", j.value("evidence", ""), {}});
  s.lines.push_back({"Verdict", j.value("verdict", ""), {}});
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
  const Json ranks = j.value("ranks", Json::array());
  for (const Json& r : ranks) {
    TableCell step{"-", std::nullopt};
    if (r.contains("step_s") && r["step_s"].is_number()) {
      step.value = r["step_s"].get<double>();
      step.text = FormatValue(*step.value, Unit::kSeconds);
    }
    t.rows.push_back({{r.value("rank", ""), std::nullopt},
                      {r.value("node", ""), std::nullopt},
                      {r.value("steps_covered", ""), std::nullopt},
                      step,
                      PercentCell(r.value("loader_wait_fraction", Json())),
                      PercentCell(r.value("gpu_idle_fraction", Json())),
                      PercentCell(r.value("gpu_idle_in_wait_fraction", Json())),
                      {r.value("cause_text", ""), std::nullopt}});
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
