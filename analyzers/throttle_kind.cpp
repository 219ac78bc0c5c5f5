#include "analyzers/throttle_kind.h"

#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

ThrottleKind ClassifyStorageError(int status, std::string_view message,
                                  std::string_view error_code) {
  // Azure's message, when a body was logged, is the only text that names the account limit.
  if (IContains(message, "Egress is over the account limit")) return ThrottleKind::kEgress;
  if (IContains(message, "Ingress is over the account limit")) return ThrottleKind::kIngress;
  if (IContains(message, "Operations per second is over the account limit"))
    return ThrottleKind::kRequests;
  if (IEquals(error_code, "OperationTimedOut") ||
      IContains(message, "operation could not be completed within the permitted time"))
    return ThrottleKind::kTimeout;
  if (IContains(message, "The server is busy") || IEquals(error_code, "ServerBusy") ||
      status == 503 || status == 429)
    return ThrottleKind::kServerBusy;
  return ThrottleKind::kNotThrottled;
}

std::string_view ThrottleKindKey(ThrottleKind kind) {
  switch (kind) {
    case ThrottleKind::kEgress:
      return "egress";
    case ThrottleKind::kIngress:
      return "ingress";
    case ThrottleKind::kRequests:
      return "requests";
    case ThrottleKind::kServerBusy:
      return "server_busy";
    case ThrottleKind::kTimeout:
      return "timeout";
    case ThrottleKind::kNotThrottled:
      break;
  }
  return {};
}

std::string_view ThrottleKindLabel(ThrottleKind kind) {
  switch (kind) {
    case ThrottleKind::kEgress:
      return "503 egress over the account limit";
    case ThrottleKind::kIngress:
      return "503 ingress over the account limit";
    case ThrottleKind::kRequests:
      return "503 operations/s over the account limit";
    case ThrottleKind::kServerBusy:
      return "503 throttled (limit unknown)";
    case ThrottleKind::kTimeout:
      return "500 operation timed out";
    case ThrottleKind::kNotThrottled:
      break;
  }
  return {};
}

std::string_view ThrottleIntervalLabel(ThrottleKind kind, std::string_view azure_message) {
  if (kind == ThrottleKind::kServerBusy && IContains(azure_message, "The server is busy"))
    return kServerBusySaidLabel;
  return ThrottleKindLabel(kind);
}

ThrottleKind ThrottleKindOfLabel(std::string_view label, bool* said_busy) {
  *said_busy = label == kServerBusySaidLabel;
  if (*said_busy) return ThrottleKind::kServerBusy;
  for (ThrottleKind kind : {ThrottleKind::kEgress, ThrottleKind::kIngress, ThrottleKind::kRequests,
                            ThrottleKind::kServerBusy, ThrottleKind::kTimeout})
    if (label == ThrottleKindLabel(kind)) return kind;
  return ThrottleKind::kNotThrottled;
}

}  // namespace feedcheck::analyzers
