// Failed requests as results: classified (503 ServerBusy split by its message into egress vs
// request-rate throttling), counted by HTTP status and x-ms-error-code, and turned into facts.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/fact_set.h"
#include "transport/http_client.h"

namespace feedcheck {

enum class ErrorClass {
  kNone,               ///< 2xx
  kThrottledEgress,    ///< 503 "Egress is over the account limit."
  kThrottledIngress,   ///< 503 "Ingress is over the account limit."
  kThrottledRequests,  ///< 503 "Operations per second is over the account limit."
  kServerBusy,         ///< other 503 / ServerBusy, 500 OperationTimedOut/InternalError, 429
  kTimeout,            ///< the request timed out (no full answer)
  kTransport,          ///< connection refused/reset, DNS, TLS
  kClient,             ///< other 4xx: will not get better by retrying
  kServer,             ///< other 5xx
};

std::string_view ErrorClassName(ErrorClass c);

/// Classifies a response; the 503 message is read from the error body (<Message>) or, when a
/// HEAD had no body, from the x-ms-error-code header.
ErrorClass ClassifyResponse(const HttpResponse& response);
/// Throttling, busy servers, timeouts and transport faults may succeed when retried.
bool IsRetryable(ErrorClass c);

/// No HTTP answer: DNS, connection refused or timed out, TLS failure, a peer that closed without
/// a status line. A connection that was made and then timed out waiting (a very slow first
/// byte) is not: the target was reached. Decides exit 3 (target error) vs 4 (probe failed).
bool NoHttpAnswer(const HttpResponse& response);

/// "HTTP 307 (a redirect to http://host:port, not followed)", "HTTP 429 ServerBusy (Retry-After
/// 86400 s)": the status, the error code when plain, and what the status asks of the client.
/// Redirects are never followed (a storage account does not redirect a read, and following one
/// could carry the credential elsewhere); only the target's scheme, host and port are shown.
std::string StatusText(const HttpResponse& response);

/// What ErrorCodeOf gives for a code that is not a plain word (letters and digits, at most 64).
inline constexpr std::string_view kUnrecognizedErrorCode = "UnrecognizedErrorCode";

/// True for a code shaped like Azure's: 1-64 ASCII letters and digits.
bool IsPlainErrorCode(std::string_view code);

/// The x-ms-error-code header, else <Code> of an Azure error body; kUnrecognizedErrorCode when
/// the server sent something else there (it is never shown or used as a fact key as sent).
std::string ErrorCodeOf(const HttpResponse& response);

struct ErrorTally {
  uint64_t total = 0;  ///< failed attempts (retried or not)
  uint64_t retries = 0;
  /// Answers that could not be the one asked for (wrong_answer, over_cap): each repeat would get
  /// the same, so probes stop at the first.
  uint64_t wrong_answers = 0;
  std::map<ErrorClass, uint64_t> by_class;
  std::map<int, uint64_t> by_status;
  std::map<std::string, uint64_t> by_code;  ///< x-ms-error-code
  std::string first_message;                ///< first failure, for the result message (redacted)

  /// Counts the response when it failed; returns its class.
  ErrorClass Add(const HttpResponse& response);
  void Merge(const ErrorTally& other);
  uint64_t Count(ErrorClass c) const {
    auto it = by_class.find(c);
    return it == by_class.end() ? 0 : it->second;
  }
  /// probe.errors.* facts.
  void AddFacts(FactSet* facts, const Provenance& provenance) const;
};

/// Retries with exponential backoff and jitter, bounded in count and by the caller's deadline.
struct RetryPolicy {
  int max_retries = 3;
  double base_delay_s = 0.05;
  double max_delay_s = 1.0;
  /// Delay before retry number `attempt` (1-based), with +-25% jitter from `jitter01`.
  double DelaySeconds(int attempt, double jitter01) const;
};

/// The wait a 429 or 503 asks for in Retry-After (delta-seconds), 0 when none or not a number
/// (an HTTP-date is not honoured: the backoff applies). Retries wait at least this long, and a
/// wait past the budget's end is not waited: the request fails there and says why.
double RetryAfterSeconds(const HttpResponse& response);
/// ": that wait would pass the end of the time budget, so no retry" when the response asks for a
/// wait of at least `remaining_s`; empty otherwise.
std::string RetryAfterNote(const HttpResponse& response, double remaining_s);

}  // namespace feedcheck
