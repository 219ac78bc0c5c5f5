// Which limit a refused storage request hit, from what Azure Storage said: the 503's reason
// phrase ("Egress is over the account limit.", "Operations per second is over the account
// limit.", "The server is busy.") and its x-ms-error-code (ServerBusy, OperationTimedOut).
// Only the message tells egress from request rate; a bare ServerBusy says "throttled, limit
// unknown", and the account's metrics are what can tell.
#pragma once

#include <string_view>

namespace feedcheck::analyzers {

enum class ThrottleKind {
  kNotThrottled,
  kEgress,      ///< "Egress is over the account limit."
  kIngress,     ///< "Ingress is over the account limit."
  kRequests,    ///< "Operations per second is over the account limit."
  kServerBusy,  ///< "The server is busy." or a ServerBusy code without a known message
  kTimeout,     ///< 500 OperationTimedOut, "Operation could not be completed within ..."
};

/// Classifies one non-successful response. `message` is the text around the status (the log
/// line's message), `error_code` the x-ms-error-code ("" when absent).
ThrottleKind ClassifyStorageError(int status, std::string_view message,
                                  std::string_view error_code);

/// The fact key segment: egress, ingress, requests, server_busy, timeout ("" when not throttled).
std::string_view ThrottleKindKey(ThrottleKind kind);

/// Timeline label: "503 egress over account limit", ...
std::string_view ThrottleKindLabel(ThrottleKind kind);

}  // namespace feedcheck::analyzers
