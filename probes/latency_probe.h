// Latency probe: small ranged GETs and HEADs on reused connections and on new connections.
// At --concurrency N it is also the request-rate measurement: N connections each with one
// request in flight, requests/s and CPU-us per request from the measured GETs.
// Time to first byte, total, connect and TLS are kept apart; percentiles come from mergeable
// histograms so a multi-node run can combine them.
#pragma once

#include <cstdint>

#include "core/latency_histogram.h"
#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck {

struct LatencyProbeOptions {
  uint64_t requests = 200;        ///< measured ranged GETs on the reused connection
  uint64_t head_requests = 50;    ///< measured HEADs on the reused connection
  uint64_t new_connections = 20;  ///< measured GETs each on a new connection
  uint64_t warmup_requests = 5;   ///< excluded: first connect, slow start, caches
  uint64_t range_bytes = 4096;
  /// Connections with a request in flight each, driven by one thread (HttpRequestLoop). The
  /// measured GETs then give the request rate and the CPU each request costs; new-connection
  /// timings stay one at a time.
  int concurrency = 1;
  double request_timeout_s = 10;
};

struct LatencyProbeResult {
  ProbeResult result;
  LatencyHistogram ttfb;           ///< reused connection
  LatencyHistogram total;          ///< reused connection
  LatencyHistogram head;           ///< HEAD total, reused connection
  LatencyHistogram new_conn_ttfb;  ///< from request start, connect (and TLS) included
  LatencyHistogram new_conn_total;
  LatencyHistogram connect;  ///< TCP connect on new connections
  LatencyHistogram tls;      ///< TLS handshake part (appconnect - connect)
};

LatencyProbeResult RunLatencyProbe(const HttpProbeEnv& env, const LatencyProbeOptions& options);

/// ~100 points of a latency CDF in ms for `key` (empty series when the histogram is).
Series LatencyCdfSeries(const LatencyHistogram& h, const std::string& key,
                        const std::string& title);

}  // namespace feedcheck
