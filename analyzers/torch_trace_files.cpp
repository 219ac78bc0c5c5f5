#include "analyzers/torch_trace_files.h"

#include <fmt/format.h>

#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

std::vector<RankFigures> ReadTraceFiles(const std::vector<std::string>& paths,
                                        const std::function<InputFile(const std::string&)>& open,
                                        const std::map<std::string, std::string>& node_of,
                                        Evidence* out, SourceStats* stats) {
  std::vector<RankFigures> ranks;
  stats->format = "torch-trace";
  for (const auto& path : paths) {
    TorchTrace trace = ReadTorchTrace(open(path));
    out->diagnostics.Append(trace.diagnostics);
    stats->files.push_back(path);
    stats->bytes += trace.bytes;
    stats->lines += trace.events;
    stats->malformed += trace.malformed_events;
    auto node = node_of.find(path);
    ranks.push_back(FiguresOf(trace, node == node_of.end() ? "" : node->second));
  }
  AddTraceEvidence(ranks, out);
  for (const auto& [key, fact] : out->facts)
    if (key.rfind("trace.", 0) == 0) stats->fact_keys.push_back(key);
  return ranks;
}

void AddStorageReadFacts(
    const std::map<std::string, RslexLogAnalyzer::SpanTotals, std::less<>>& spans,
    const std::string& source_file, Evidence* out) {
  uint64_t closes = 0;
  double busy_ns = 0;
  std::vector<std::string> names;
  for (const auto& [name, totals] : spans) {
    if (!IContains(name, "read") || totals.closes == 0) continue;
    closes += totals.closes;
    busy_ns += totals.busy_ns + totals.idle_ns;  // a read's time: polled and awaited
    names.push_back(name);
  }
  if (closes == 0) return;
  Provenance p;
  p.origin = FactOrigin::kObserved;
  p.file = source_file;
  p.source = fmt::format("rslex spans {} ({} closes)", fmt::join(names, ", "), closes);
  out->facts.Set(NumberFact("runtime.reads", static_cast<double>(closes), Unit::kCount, p));
  out->facts.Set(NumberFact("runtime.read_ms_mean", busy_ns / 1e6 / static_cast<double>(closes),
                            Unit::kMilliseconds, p));
}

}  // namespace feedcheck::analyzers
