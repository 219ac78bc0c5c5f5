// What every probe takes and returns. Probes measure and return evidence; they never print.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/evidence.h"

namespace feedcheck {

/// Limits stated before a probe starts and never exceeded.
struct ProbeBudget {
  double duration_s = 30;           ///< wall-clock limit for the whole probe
  uint64_t max_requests = 100000;   ///< requests sent, retries included
  uint64_t max_bytes = 8ull << 30;  ///< response body bytes read
};

enum class ProbeStatus {
  kOk,           ///< measured what it set out to
  kPartial,      ///< measured something, then a budget or a fault stopped it
  kFailed,       ///< reached but could not measure: refused (401/403), throttled, every request
                 ///< failed or timed out after a connection was made
  kUnreachable,  ///< a target error: no HTTP answer (DNS, connect, TLS) or the target does
                 ///< not exist (HTTP 404, nothing to read there, not a directory)
};

std::string_view ProbeStatusName(ProbeStatus status);

struct ProbeResult {
  std::string probe;  ///< "throughput", "latency", ...
  ProbeStatus status = ProbeStatus::kOk;
  std::string message;  ///< why it is partial or failed; redacted
  Evidence evidence;
  uint64_t requests_sent = 0;
  uint64_t bytes_received = 0;  ///< body bytes that arrived
  /// Bytes charged against --max-bytes when more than arrived (a transfer cut short is charged
  /// in full: the server may have sent it); 0 when the same as bytes_received.
  uint64_t bytes_charged = 0;
  double elapsed_s = 0;
};

/// Progress for a terminal (the CLI decides whether to show it): "step 3/6: 8 connections".
using ProgressFn = std::function<void(const std::string&)>;

}  // namespace feedcheck
