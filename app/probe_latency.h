// `probe latency`: small ranged GETs and HEADs on a reused connection and on new ones; the
// headline numbers are the time-to-first-byte percentiles.
#pragma once

#include <cstdint>
#include <string>

#include "app/outcome.h"
#include "app/probe_session.h"
#include "probes/latency_probe.h"

namespace feedcheck::app {

/// The flags as given; RunProbeLatency checks them and makes the probe's options.
struct LatencyRequest {
  ProbeSessionRequest session;
  uint64_t requests = LatencyProbeOptions{}.requests;  ///< 1 to 10,000,000
  uint64_t head_requests = LatencyProbeOptions{}.head_requests;
  uint64_t new_connections = LatencyProbeOptions{}.new_connections;
  uint64_t warmup_requests = LatencyProbeOptions{}.warmup_requests;
  int concurrency = LatencyProbeOptions{}.concurrency;  ///< 1 to 1024
  std::string range_size = "4KiB";                      ///< 1B to 64MiB
};

/// The request's flags as probe options; false with a W101 diagnostic naming the flag out of
/// range (--range-size, --requests, --concurrency). `feedcheck-mpi probe latency` uses it too.
bool ParseLatencyOptions(const LatencyRequest& request, LatencyProbeOptions* options,
                         DiagnosticList* diagnostics);

/// Result keys: ttfb_p50_ms, ttfb_p90_ms, ttfb_p99_ms, ttfb_p999_ms, ttfb_max_ms, total_p50_ms,
/// head_p50_ms, connect_ms, tls_ms (https only), requests_measured, errors, then the run's status.
Outcome RunProbeLatency(const LatencyRequest& request, const ProbeCallbacks& callbacks);

}  // namespace feedcheck::app
