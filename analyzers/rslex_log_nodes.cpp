// RslexLogAnalyzer's per-node part: what one node's rslex files showed, counted on the job's
// one read (SetNode) and written as the facts a read of that node's files alone would give.
#include <fmt/format.h>

#include <algorithm>

#include "analyzers/rslex_log.h"
#include "analyzers/text_util.h"
#include "analyzers/throttle_kind.h"

namespace feedcheck::analyzers {

void RslexLogAnalyzer::FinishNode(const std::string& node, Evidence* out) {
  auto found = nodes_.find(node);
  if (found == nodes_.end()) return;
  const NodeTotals& n = found->second;
  if (n.non_success > 0 || n.parsed > 0)
    out->facts.Set(NumberFact("runtime.non_success_responses", static_cast<double>(n.non_success),
                              Unit::kCount, AtFile(node, 0)));
  for (const auto& [kind, c] : n.throttled)
    out->facts.Set(NumberFact(
        fmt::format("runtime.throttled.{}", ThrottleKindKey(static_cast<ThrottleKind>(kind))),
        static_cast<double>(c.count), Unit::kCount, AtFile(c.file, c.line)));
  // Its busiest spans, as a read of its files alone names them.
  std::vector<std::pair<std::string, double>> ranked;
  for (const auto& [entry, busy_ns] : n.span_busy_ns)
    for (const auto& [name, totals] : spans_)
      if (&totals == entry) ranked.emplace_back(name, busy_ns);
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  if (ranked.size() > 8) ranked.resize(8);
  for (const auto& [name, busy_ns] : ranked)
    out->facts.Set(NumberFact("runtime.span_busy_s." + KeySegment(name), busy_ns / 1e9,
                              Unit::kSeconds, AtFile(node, 0)));
  for (const auto& [label, merger] : n.throttle_intervals)
    for (const auto& iv : merger.Result())
      out->timeline.push_back({"storage", label, iv.start, iv.end, "rslex", "rslex.log", node});
  for (const auto& iv : n.span_closes.Result())
    out->timeline.push_back({"reads", "span closes", iv.start, iv.end, "rslex", "rslex.log", node});
  AddReadSilences(n.read_gaps, node, out);
}

void RslexLogAnalyzer::AddReadSilences(const ReadGaps& gaps, const std::string& node,
                                       Evidence* out) const {
  const auto fence = gaps.FenceS();
  if (!fence) return;
  Provenance p = AtFile(node.empty() && !stats().files.empty() ? stats().files.front() : node, 0);
  p.source = "gaps between rslex span closes (Tukey's far fence)";
  out->facts.Set(NumberFact("runtime.read_gap_fence_s", *fence, Unit::kSeconds, p));
  for (const auto& s : gaps.Silences())
    out->timeline.push_back(
        {"read silences", "no span closed", s.start_s, s.end_s, "rslex", "rslex.log", node});
}

}  // namespace feedcheck::analyzers
