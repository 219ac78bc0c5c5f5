// The states of the idle ledger: every idle GPU-second of a job is charged to exactly one of
// them, from the evidence present on its node at its time. Each state is one resource that held
// the GPUs (the account's egress, a node's NIC, ...) or one thing that was not storage (the
// job's own code, a node that asked storage for nothing), or unknown. The order of the enum is
// the precedence: where several hold on the same node at the same time, the first one wins,
// because it blocks the others (a refused request moves no byte, however fast the NIC).
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "core/bottleneck.h"

namespace feedcheck::diagnosis {

enum class IdleState {
  kAccess,            ///< storage refused access or could not be reached: nothing read
  kNotStorageNode,    ///< a node that asked storage for nothing (its own log shows no read)
  kAccountEgress,     ///< refused while the account's egress was at its limit
  kAccountIngress,    ///< refused writes while the account's ingress was at its limit
  kAccountRequests,   ///< refused while the account's request rate was at its limit
  kBlobTarget,        ///< refused with every account figure far below its limit
  kThrottledUnknown,  ///< refused, no source to name the limit
  kNodeNic,           ///< the node read at its NIC's rate, the account below its limits
  kWrites,            ///< the job wrote (checkpoints, outputs) while its GPUs idled
  kLatency,           ///< requests in flight x their latency: small files, few threads, distance
  kCacheRereads,      ///< a mount cache capped below what each epoch re-reads
  kStartupDownload,   ///< the GPUs waited for a download to finish
  kNotStorage,        ///< storage served the job fast (or from the mount's cache)
  kOwnCode,           ///< outside any data activity: the job's own phases
  kUnknown,           ///< no evidence places it
};

inline constexpr int kIdleStateCount = static_cast<int>(IdleState::kUnknown) + 1;

/// Every state in precedence order.
std::array<IdleState, kIdleStateCount> AllIdleStates();

/// Stable key for JSON and tests: "account_egress", "node_nic", ...
std::string_view IdleStateKey(IdleState s);
std::optional<IdleState> IdleStateFromKey(std::string_view key);

/// What a report calls it as a cause: "account egress", "node NIC", "checkpoint writes", ...
std::string_view IdleStateName(IdleState s);

/// A resource of storage (or of the path to it) held the GPUs: the verdict is chosen among these.
bool IsStorageState(IdleState s);

/// The state a finding's class charges: a finding costs its state's share of the ledger.
std::optional<IdleState> StateOfBottleneck(Bottleneck b);

}  // namespace feedcheck::diagnosis
