// Which limit a refused storage request hit, from what Azure Storage itself said. The data
// runtime's log keeps the HTTP library's reason ("503 Service Unavailable"), never Azure's
// message; only a synchronous response's logged body carries Azure's <Message> ("Egress is over
// the account limit.", "Operations per second is over the account limit."). So a 503 from an
// asynchronous read (a download or a mount) is "throttled, limit unknown": the account's metrics
// (ResponseType ClientAccountBandwidthThrottlingError vs ClientAccountRequestThrottlingError,
// Egress and Transactions at the throttled minutes) or StorageBlobLogs name the limit.
// Azure's messages: "Blob service error codes",
// https://learn.microsoft.com/rest/api/storageservices/blob-service-error-codes and "Common REST
// API error codes",
// https://learn.microsoft.com/rest/api/storageservices/common-rest-api-error-codes
#pragma once

#include <string_view>

namespace feedcheck::analyzers {

enum class ThrottleKind {
  kNotThrottled,
  kEgress,      ///< body message "Egress is over the account limit."
  kIngress,     ///< body message "Ingress is over the account limit."
  kRequests,    ///< body message "Operations per second is over the account limit."
  kServerBusy,  ///< 503/429 or ServerBusy with no message that names the limit
  kTimeout,     ///< 500 OperationTimedOut, "The operation could not be completed within the
                ///< permitted time."
};

/// Classifies one non-successful response. `azure_message` is Azure's own <Message> from a logged
/// body ("" when the log has none: never the status line's reason), `error_code` the
/// x-ms-error-code ("" when absent).
ThrottleKind ClassifyStorageError(int status, std::string_view azure_message,
                                  std::string_view error_code);

/// The fact key segment: egress, ingress, requests, server_busy, timeout ("" when not throttled).
std::string_view ThrottleKindKey(ThrottleKind kind);

/// Timeline label: "503 egress over the account limit", "503 throttled (limit unknown)", ...
std::string_view ThrottleKindLabel(ThrottleKind kind);

/// The timeline label of one refusal: its kind's, or kServerBusySaidLabel where Azure's own
/// message (a logged body) said the server was busy: then no account limit refused it, which
/// a refusal logged without its body cannot say.
inline constexpr std::string_view kServerBusySaidLabel = "503 server busy (Azure's message)";
std::string_view ThrottleIntervalLabel(ThrottleKind kind, std::string_view azure_message);

/// A refusal interval's kind back from its timeline label (kNotThrottled for another label);
/// `said_busy` is set for kServerBusySaidLabel.
ThrottleKind ThrottleKindOfLabel(std::string_view label, bool* said_busy);

}  // namespace feedcheck::analyzers
