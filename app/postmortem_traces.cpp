#include "app/postmortem_traces.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "analyzers/text_util.h"
#include "core/json_input.h"
#include "diagnosis/data_wait_cause.h"
#include "diagnosis/data_wait_timeline.h"
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
                 Report* report, bool multi_node_job) {
  if (ranks.empty()) return;
  std::string why;
  diagnosis::DataWaitInputs in;
  in.storage = diagnosis::StorageSpeedOf(facts, &why);
  // The node's CPU (Azure ML's CpuUtilization), per rank's node where the metric names it.
  std::set<std::string> nodes;
  for (const auto& r : ranks) nodes.insert(r.node);
  // A one-node job: the metric's one node (Azure ML's NodeId) is the node the traces ran on.
  const bool one_node = nodes.size() == 1 && !multi_node_job;
  std::map<std::string, double> cpu_of;  // node -> percent, the nodes recorded
  for (const auto& node : nodes)
    if (auto cpu = diagnosis::NodeCpuPercentOf(facts, node, one_node)) cpu_of[node] = *cpu;
  auto busy_of = [&](const std::string& node) -> std::optional<bool> {
    auto it = cpu_of.find(node);
    if (it == cpu_of.end()) return std::nullopt;
    return it->second >= diagnosis::kCpuBusyPercent;
  };
  std::vector<std::string> cpu_words;
  for (const auto& [node, cpu] : cpu_of)
    cpu_words.push_back(fmt::format("{}{:.0f}%, {}", nodes.size() == 1 ? "" : node + " ", cpu,
                                    cpu >= diagnosis::kCpuBusyPercent ? "busy" : "not busy"));
  Json j;
  j["evidence"] = fmt::format(
      "{}; {}: {}", why, nodes.size() == 1 ? "the node's CPU" : "the nodes' CPU",
      cpu_words.empty() ? "not recorded"
                        : fmt::format("{} (Azure ML's CpuUtilization; busy from {:.0f}%)",
                                      fmt::join(cpu_words, "; "), diagnosis::kCpuBusyPercent));
  j["storage"] = in.storage == diagnosis::StorageSpeed::kFast             ? "fast"
                 : in.storage == diagnosis::StorageSpeed::kSlowOrRefusing ? "slow_or_refusing"
                                                                          : "unknown";
  std::optional<double> cpu_mean;  // the ranks' nodes together, those recorded
  if (!cpu_of.empty()) {
    double sum = 0;
    for (const auto& [node, cpu] : cpu_of) sum += cpu;
    cpu_mean = sum / static_cast<double>(cpu_of.size());
    j["cpu_percent"] = *cpu_mean;
  }
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
    if (auto cpu = cpu_of.find(r.node); cpu != cpu_of.end()) row["cpu_percent"] = cpu->second;
    in.cpu_busy = busy_of(r.node);
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
    // The job's verdict: its nodes' CPU together (the mean of those recorded).
    in.cpu_busy = std::nullopt;
    if (cpu_mean) in.cpu_busy = *cpu_mean >= diagnosis::kCpuBusyPercent;
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
  // The steps' data-wait share for the timeline, beside GPU utilisation (drawn by the HTML).
  auto& all = report->evidence.series;
  all.erase(std::remove_if(all.begin(), all.end(),
                           [](const Series& s) { return s.key == diagnosis::kDataWaitSeries; }),
            all.end());
  if (auto series = diagnosis::DataWaitTimeline(ranks)) {
    j["timeline"] = series->title;
    all.push_back(std::move(*series));
  }
  Replace(Layout(j), report);
}

void RestoreDataWait(Report* report) {
  Json j = SectionJson(*report, kDataWaitSection);
  if (j.is_object() && j.contains("ranks")) Replace(Layout(j), report);
}

}  // namespace feedcheck::app
