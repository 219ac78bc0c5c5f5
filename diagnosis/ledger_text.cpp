#include "diagnosis/ledger_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "diagnosis/gpu_time_summary.h"

namespace feedcheck::diagnosis {

namespace {

std::vector<LedgerShare> SharesOf(const StateGpuS& by_state) {
  std::vector<LedgerShare> out;
  for (IdleState s : AllIdleStates())
    if (by_state[static_cast<int>(s)] > 0)
      out.push_back({std::string(IdleStateKey(s)), by_state[static_cast<int>(s)]});
  std::stable_sort(out.begin(), out.end(),
                   [](const LedgerShare& a, const LedgerShare& b) { return a.gpu_s > b.gpu_s; });
  return out;
}

}  // namespace

std::string SharePercent(double fraction) {
  if (!std::isfinite(fraction) || fraction <= 0) return "0%";
  if (fraction >= 1 - 1e-9) return "100%";
  double p = fraction * 100;
  if (p < 1) return "<1%";
  long rounded = std::lround(p);
  if (rounded >= 100) rounded = 99;
  return fmt::format("{}%", rounded);
}

std::string_view StatePhrase(IdleState s) {
  switch (s) {
    case IdleState::kAccess:
      return "after storage access failed";
    case IdleState::kNotStorageNode:
      return "on nodes that read nothing";
    case IdleState::kAccountEgress:
      return "at the account's egress limit";
    case IdleState::kAccountIngress:
      return "at the account's ingress limit";
    case IdleState::kAccountRequests:
      return "at the account's request limit";
    case IdleState::kBlobTarget:
      return "at a blob's or partition's target";
    case IdleState::kThrottledUnknown:
      return "refused (limit unknown)";
    case IdleState::kNodeNic:
      return "at the node's NIC rate";
    case IdleState::kWrites:
      return "writing to storage";
    case IdleState::kLatency:
      return "on request latency";
    case IdleState::kCacheRereads:
      return "re-reading past the cache";
    case IdleState::kStartupDownload:
      return "waiting for the download";
    case IdleState::kNotStorage:
      return "not storage (served fast)";
    case IdleState::kOwnCode:
      return "in the job's own code";
    case IdleState::kUnknown:
      return "not placed";
  }
  return "";
}

std::string_view StateLabel(IdleState s) {
  switch (s) {
    case IdleState::kAccess:
      return "access failed";
    case IdleState::kNotStorageNode:
      return "read nothing";
    case IdleState::kAccountEgress:
      return "account egress";
    case IdleState::kAccountIngress:
      return "account ingress";
    case IdleState::kAccountRequests:
      return "request rate";
    case IdleState::kBlobTarget:
      return "blob target";
    case IdleState::kThrottledUnknown:
      return "refused";
    case IdleState::kNodeNic:
      return "node NIC";
    case IdleState::kWrites:
      return "writes";
    case IdleState::kLatency:
      return "latency";
    case IdleState::kCacheRereads:
      return "cache re-reads";
    case IdleState::kStartupDownload:
      return "download wait";
    case IdleState::kNotStorage:
      return "served fast";
    case IdleState::kOwnCode:
      return "own code";
    case IdleState::kUnknown:
      return "not placed";
  }
  return "";
}

std::string LedgerHeadline(const GpuTimeLost& g, const IdleLedger& ledger) {
  if (!g.known) return "";
  std::string head =
      fmt::format("GPUs idle {} of {} ({}), {}", FormatSeconds(g.idle_s), FormatSeconds(g.span_s),
                  SharePercent(g.idle_fraction), FormatGpuTime(g.lost_gpu_s));
  if (ledger.lost_gpu_s <= 0) return head;
  std::vector<LedgerShare> shares = SharesOf(ledger.gpu_s);
  if (shares.size() == 1)
    return fmt::format("{}: all of it {}", head,
                       StatePhrase(*IdleStateFromKey(shares.front().state)));
  std::string split;
  size_t shown = 0;
  double rest = 0;
  for (const auto& sh : shares) {
    // The three largest, then what is left in one figure: a headline, not a table.
    if (shown >= 3) {
      rest += sh.gpu_s;
      continue;
    }
    split += fmt::format("{}{} {}", split.empty() ? "" : ", ",
                         SharePercent(sh.gpu_s / ledger.lost_gpu_s),
                         StatePhrase(*IdleStateFromKey(sh.state)));
    ++shown;
  }
  if (rest > 0) split += fmt::format(", {} elsewhere", SharePercent(rest / ledger.lost_gpu_s));
  return fmt::format("{}: {}", head, split);
}

LedgerSummary LedgerSummaryOf(const IdleLedger& ledger, IdleState cause) {
  LedgerSummary out;
  if (!ledger.known) return out;
  out.present = true;
  out.cause_state = std::string(IdleStateKey(cause));
  out.lost_gpu_s = ledger.lost_gpu_s;
  out.states = SharesOf(ledger.gpu_s);
  for (const auto& [node, by_state] : ledger.by_node)
    out.nodes.push_back({node, SharesOf(by_state)});
  return out;
}

}  // namespace feedcheck::diagnosis
