// `probe latency`: small ranged GETs and HEADs on a reused connection and on new ones; the
// headline numbers are the time-to-first-byte percentiles.
#pragma once

#include <string>

#include "app/outcome.h"
#include "app/probe_session.h"
#include "probes/latency_probe.h"

namespace feedcheck::app {

struct LatencyRequest {
  ProbeSessionRequest session;
  LatencyProbeOptions probe;  ///< requests, head_requests, new_connections, warmup_requests
  std::string range_size = "4KiB";
};

/// Result keys: ttfb_p50_ms, ttfb_p90_ms, ttfb_p99_ms, ttfb_p999_ms, ttfb_max_ms, total_p50_ms,
/// head_p50_ms, connect_ms, tls_ms (https only), requests_measured, errors, then the run's status.
Outcome RunProbeLatency(const LatencyRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
