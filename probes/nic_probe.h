// `probe nic`: the interface that routes to the target, its link speed, driver and MTU, whether
// accelerated networking is on, compared with what the VM size should get (knowledge base).
#pragma once

#include <optional>
#include <string>

#include "probes/probe.h"

namespace feedcheck {

struct NicProbeOptions {
  std::string host;       ///< target host; "" = the default route
  std::string interface;  ///< skip the route lookup and describe this interface
  std::string root;       ///< "" = this machine; tests pass a fixture with proc/ and sys/
  std::optional<double> expected_gbps;  ///< the VM size's bandwidth (knowledge base or --nic-gbps)
  std::string expected_source;          ///< "knowledge base: vm_sizes.yaml:12 Standard_ND96asr_v4"
};

ProbeResult RunNicProbe(const NicProbeOptions& options);

}  // namespace feedcheck
