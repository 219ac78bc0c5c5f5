#include "diagnosis/data_wait_cause.h"

#include <fmt/format.h>

#include <vector>

#include "analyzers/text_util.h"

namespace feedcheck::diagnosis {

std::string_view DataWaitCauseKey(DataWaitCause cause) {
  switch (cause) {
    case DataWaitCause::kNotInput:
      return "not_input";
    case DataWaitCause::kStorage:
      return "storage";
    case DataWaitCause::kInputPipeline:
      return "input_pipeline";
    case DataWaitCause::kCauseNotShown:
      return "cause_not_shown";
  }
  return "cause_not_shown";
}

DataWaitVerdict ClassifyDataWait(const DataWaitInputs& in) {
  DataWaitVerdict v;
  const double pct = 100 * in.loader_wait_fraction;
  if (!(in.loader_wait_fraction >= kLoaderWaitFraction)) {
    v.cause = DataWaitCause::kNotInput;
    v.text = fmt::format(
        "not input: the loop waited for data {:.0f}% of its step time; its idle time is "
        "elsewhere (communication, launch overhead, its own code)",
        pct);
  } else if (in.storage == StorageSpeed::kSlowOrRefusing) {
    v.cause = DataWaitCause::kStorage;
    v.text = fmt::format(
        "storage: the loop waited for data {:.0f}% of its step time while the data runtime's "
        "reads were slow or refused",
        pct);
  } else if ((in.storage == StorageSpeed::kFast && in.cpu_busy.value_or(true)) ||
             (in.storage == StorageSpeed::kUnknown && in.cpu_busy.value_or(false))) {
    v.cause = DataWaitCause::kInputPipeline;
    v.text = fmt::format(
        "the input pipeline, not storage: the loop waited for data {:.0f}% of its step time "
        "while {}: the DataLoader's own work (its decode and transforms) is too slow for the "
        "loop; raise num_workers or make the decode cheaper",
        pct,
        in.storage == StorageSpeed::kFast
            ? (in.cpu_busy ? "storage served its reads fast and the node's CPU was busy"
                           : "storage served its reads fast")
            : "the node's CPU was busy (the data runtime's reads were not logged)");
  } else {
    v.cause = DataWaitCause::kCauseNotShown;
    v.text = fmt::format(
        "waited for data, cause not shown: the loop waited {:.0f}% of its step time, and {}", pct,
        in.storage == StorageSpeed::kFast ? "storage served fast while the node's CPU was not busy"
        : in.cpu_busy
            ? "the node's CPU was not busy, but the data runtime's reads were not logged"
            : "nothing beside the trace (the data runtime's logs, the node's CPU) says why");
  }
  v.key = std::string(DataWaitCauseKey(v.cause));
  return v;
}

StorageSpeed StorageSpeedOf(const FactSet& facts, std::string* why) {
  std::vector<std::string> refusals;
  auto count = [&](const std::string& prefix, const std::string& what) {
    double n = 0;
    for (const Fact* f : facts.WithPrefix(prefix))
      if (f->is_number()) n += f->number();
    if (n > 0) refusals.push_back(fmt::format("{} {}", n, what));
  };
  count("runtime.throttled.", "refused (throttled)");
  for (const char* status : {"403", "408", "500", "503"})
    count(std::string("runtime.http_errors.") + status, "answered " + std::string(status));
  count("runtime.retry_give_ups", "given up");
  count("runtime.timeouts", "timed out");
  const std::optional<double> read_ms = facts.Number("runtime.read_ms_mean");
  const std::optional<double> reads = facts.Number("runtime.reads");
  if (!refusals.empty()) {
    *why = fmt::format("the data runtime's requests: {}", fmt::join(refusals, ", "));
    return StorageSpeed::kSlowOrRefusing;
  }
  if (read_ms && reads && *reads > 0) {
    *why = fmt::format("the data runtime's {:.0f} reads took {:.1f} ms each on average", *reads,
                       *read_ms);
    return *read_ms >= kSlowReadMs ? StorageSpeed::kSlowOrRefusing : StorageSpeed::kFast;
  }
  *why = "no data-runtime reads to tell";
  return StorageSpeed::kUnknown;
}

std::optional<double> NodeCpuPercentOf(const FactSet& facts, const std::string& node,
                                       bool one_node) {
  if (!node.empty())
    if (auto own = facts.Number("cpu.node_util_mean." + analyzers::KeySegment(node))) return own;
  if (!one_node) return std::nullopt;
  const std::vector<const Fact*> nodes = facts.WithPrefix("cpu.node_util_mean.");
  if (nodes.size() == 1 && nodes.front()->is_number()) return nodes.front()->number();
  if (nodes.empty()) return facts.Number("cpu.util_mean");
  return std::nullopt;
}

}  // namespace feedcheck::diagnosis
