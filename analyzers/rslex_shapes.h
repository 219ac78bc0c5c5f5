// Every message shape of rslex.log that the analyzers know, with the public source it was taken
// from, in one table: the analyzer dispatches on ClassifyRslexMessage, docs/postmortem.md lists
// the table (a test checks the page against it), and the corpus test fails on any log line whose
// shape is not in it. The data runtime's real forms (rslex-http-stream's response.rs and retry
// module): a non-successful response is one event over several physical lines
//   <ts>  WARN rslex_http_stream::http_client::response: [AsyncResponse::success()] non-successful
//   response Status: 503 Service Unavailable Headers: {
//       "x-ms-error-code": "ServerBusy",
//   } code=503
// (the synchronous variant adds "Body: <?xml ...><Error><Code>..</Code><Message>..." whose
// message spans lines of its own), a one-line 2026 field form, and retries, give-ups and
// timeouts each in words of their own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace feedcheck::analyzers {

enum class RslexShape : uint8_t {
  kSpanClose,          ///< "close time.busy=.. time.idle=.."
  kSpanLifecycle,      ///< "new", "enter", "exit"
  kDataStoreResolved,  ///< "[CachedResolver::resolve()] DataStore resolved info=..."
  kSetting,            ///< "<VAR> set in environment, using ...: <value>"
  kResponseAsync,      ///< "[AsyncResponse::success()] non-successful response" + lines
  kResponseSync,       ///< "[Response::success()] non-successful response" + lines + Body
  kResponseOneLine,    ///< "non-successful response Status: 403 Forbidden Headers: { .. } method="
  kResponseFields,     ///< "non-successful response request_uri=.. response_status_code=403"
  kBlobErrorCode,      ///< "unexpected azure blob error code in x-ms-error-code header"
  kRetryDelay,         ///< "[RetryStrategy::run()] retrying after delay: 312.5ms"
  kRetryTimeout,       ///< "[RetryStrategy::run()] Retrying due to timeout"
  kRetryError,         ///< "[RetryStrategy::run()] Retrying due to error"
  kGiveUpAttempts,     ///< "[RetryStrategy::run()] ran out of retry attempts"
  kGiveUpBackoff,      ///< "[RetryStrategy::run()] ran out of backoff_delays, stopping retries"
  kBodyPollTimeout,    ///< "Timed out while trying to poll data from the response body"
  kExecutionFailed,    ///< "Execution has failed with: ScriptExecution.StreamAccess...."
  kContinuation,       ///< a physical line an event owns: Status:, Headers: {, "k": "v", }, Body:
  kUnknown,            ///< none of the above: read as opaque
};
inline constexpr size_t kRslexShapeCount = static_cast<size_t>(RslexShape::kUnknown) + 1;

struct RslexShapeInfo {
  RslexShape shape;
  std::string_view name;     ///< short, stable: "response-async"
  std::string_view example;  ///< one line as the runtime writes it (continuations on their own)
  std::string_view source;   ///< public repository/path or Microsoft doc title + URL
};

/// The known shapes (kUnknown excluded), in enum order.
std::span<const RslexShapeInfo> RslexShapes();
const RslexShapeInfo* RslexShapeOf(RslexShape shape);

/// Whether `reason` is the HTTP reason phrase of `status` ("Service Unavailable" for 503), as
/// the runtime's Status: line carries it.
bool IsHttpReason(int status, std::string_view reason);

/// The shape of a tracing event's message (the text before its first field) and whether it
/// has `response_status_code`/`request_uri` fields (the 2026 field form).
RslexShape ClassifyRslexMessage(std::string_view message, bool has_response_fields);

}  // namespace feedcheck::analyzers
