// The one-line answer a throughput run ends with: what limited it — the node's NIC, the storage
// (the rate stopped growing with more connections, or the account throttled), or this client's
// CPU — and which figure decided it. Computed here so every format says the same.
#pragma once

#include <string>
#include <string_view>

#include "probes/throughput_probe.h"

namespace feedcheck {

enum class ThroughputBound { kNic, kStorage, kClientCpu, kNotSaturated, kUndetermined };

std::string_view ThroughputBoundName(
    ThroughputBound bound);  ///< "nic", "storage", "client-cpu", ...

struct ThroughputConclusion {
  ThroughputBound bound = ThroughputBound::kUndetermined;
  std::string line;        ///< "NIC-bound at 16 connections: 23.1 of 24 Gbit/s (...)"
  std::string decided_by;  ///< "nic", "cpu", "throttling", "knee", "none"
  double cores_busy = 0;   ///< CPU seconds per second at the best rate (cpu_s_per_gb x GB/s)
};

struct ConclusionInputs {
  double nic_gbps = 0;      ///< the node's NIC (0: unknown)
  int cpu_cores = 0;        ///< cores this process may use (0: unknown)
  bool swept = false;       ///< --concurrency auto
  int max_concurrency = 0;  ///< the sweep's upper bound
};

/// At or above this fraction of the NIC the NIC is the limit: Azure VMs deliver about 90-95% of
/// their stated bandwidth as TCP payload.
inline constexpr double kNicBoundFraction = 0.85;
/// At or above this share of the cores busy the client is the limit.
inline constexpr double kCpuBoundFraction = 0.8;

ThroughputConclusion ConcludeThroughput(const ThroughputProbeResult& result,
                                        const ConclusionInputs& inputs);

}  // namespace feedcheck
