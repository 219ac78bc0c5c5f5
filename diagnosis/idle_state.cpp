#include "diagnosis/idle_state.h"

namespace feedcheck::diagnosis {

namespace {

struct StateInfo {
  IdleState state;
  std::string_view key;
  std::string_view name;
  bool storage;
};

// The names of the states that existing verdicts already used stay the same, so a result saved
// by an earlier version compares with a new one.
constexpr std::array<StateInfo, kIdleStateCount> kStates{{
    {IdleState::kAccess, "access", "storage access failed", true},
    {IdleState::kNotStorageNode, "not_storage_node", "not storage", false},
    {IdleState::kAccountEgress, "account_egress", "account egress", true},
    {IdleState::kAccountIngress, "account_ingress", "account ingress", true},
    {IdleState::kAccountRequests, "account_requests", "request rate", true},
    {IdleState::kBlobTarget, "blob_target", "blob or partition target", true},
    {IdleState::kThrottledUnknown, "throttled_unknown", "throttled, limit unknown", true},
    {IdleState::kNodeNic, "node_nic", "node NIC", true},
    {IdleState::kWrites, "writes", "checkpoint writes", true},
    {IdleState::kLatency, "latency", "request latency", true},
    {IdleState::kCacheRereads, "cache_rereads", "cache disk", true},
    {IdleState::kStartupDownload, "startup_download", "access mode", true},
    {IdleState::kNotStorage, "not_storage", "none found", false},
    {IdleState::kOwnCode, "own_code", "none found", false},
    {IdleState::kUnknown, "unknown", "inconclusive", false},
}};

}  // namespace

std::array<IdleState, kIdleStateCount> AllIdleStates() {
  std::array<IdleState, kIdleStateCount> out{};
  for (int i = 0; i < kIdleStateCount; ++i) out[i] = kStates[i].state;
  return out;
}

std::string_view IdleStateKey(IdleState s) { return kStates[static_cast<int>(s)].key; }

std::optional<IdleState> IdleStateFromKey(std::string_view key) {
  for (const auto& info : kStates)
    if (info.key == key) return info.state;
  return std::nullopt;
}

std::string_view IdleStateName(IdleState s) { return kStates[static_cast<int>(s)].name; }

bool IsStorageState(IdleState s) { return kStates[static_cast<int>(s)].storage; }

std::optional<IdleState> StateOfBottleneck(Bottleneck b) {
  switch (b) {
    case Bottleneck::kAccessFailure:
      return IdleState::kAccess;
    case Bottleneck::kAccountEgress:
      return IdleState::kAccountEgress;
    case Bottleneck::kRequestRate:
      return IdleState::kAccountRequests;
    case Bottleneck::kAccountIngress:
      return IdleState::kAccountIngress;
    case Bottleneck::kCacheDisk:
      return IdleState::kCacheRereads;
    case Bottleneck::kClientThreads:
    case Bottleneck::kSmallFiles:
      return IdleState::kLatency;
    case Bottleneck::kAccessMode:
      return IdleState::kStartupDownload;
    case Bottleneck::kNone:
      break;
  }
  return std::nullopt;
}

}  // namespace feedcheck::diagnosis
