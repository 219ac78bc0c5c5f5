#include "analyzers/rslex_shapes.h"

#include <array>

#include "analyzers/text_util.h"

namespace feedcheck::analyzers {

namespace {

constexpr std::string_view kAmlDoc =
    "Microsoft Learn, \"Access data in a job\", section \"Using logs to diagnose issues\", "
    "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2";
constexpr std::string_view kTracingFmt =
    "tokio-rs/tracing: tracing-subscriber/src/fmt/fmt_layer.rs (FmtSpan close, new, enter, exit)";
constexpr std::string_view kResponseRs =
    "rslex (the Azure ML data runtime), crate rslex-http-stream: http_client/response.rs "
    "(AsyncResponseExt::success, ResponseExt::success: message, then Status:/Headers: {:#?}/Body:, "
    "then field code=)";
constexpr std::string_view kRetryRs =
    "rslex, crate rslex-http-stream: retry/retry_strategy.rs (RetryStrategy::run) and the retry "
    "condition of retry/*.rs";
constexpr std::string_view kAsyncBodyRs =
    "rslex, crate rslex-http-stream: http_client/async_body.rs (poll_data error message)";
constexpr std::string_view kIdentityBug =
    "rubyrayjuntos/azure-aiml-ops: "
    "bugs/2026-08-16-aml-data-identity-01-rslex-requires-sas-for-uri_file.md";
constexpr std::string_view kAi300Notes =
    "public 2026 lab notes (ai300 storage account, \"the underlying HTTP exchange, from "
    "rslex.log\") "
    "and rslex, crate rslex-http-stream: http_client/response.rs";

constexpr std::array<RslexShapeInfo, kRslexShapeCount - 1> kShapes = {{
    {RslexShape::kSpanClose, "span-close",
     "2023-05-18T14:08:25.388670Z  INFO copy_uri:...:get_iter: rslex::prefetching: close "
     "time.busy=23.2µs time.idle=1.90µs sessionId=... parallelization_degree=4",
     kAmlDoc},
    {RslexShape::kSpanLifecycle, "span-lifecycle",
     "<ts>  INFO copy_uri: rslex::prefetching: new|enter|exit", kTracingFmt},
    {RslexShape::kDataStoreResolved, "datastore-resolved",
     "<ts>  INFO rslex_azureml::data_store::resolver: [CachedResolver::resolve()] DataStore "
     "resolved info=DataStoreInfo { id: \"workspaceblobstore\", ... } "
     "datastore_type=Some(AzureBlob) account_name=Some(\"stazure...\")",
     kIdentityBug},
    {RslexShape::kSetting, "setting",
     "<ts>  INFO rslex_http_stream::retry: AZUREML_DATASET_HTTP_RETRY_COUNT set in environment, "
     "using for http client: 10 num_retries=10",
     "rslex, crate rslex-http-stream: retry module (the AZUREML_DATASET_HTTP_RETRY_COUNT line, "
     "the only setting line a public source shows; a \"<VAR> set in environment ...: <value>\" "
     "line for another variable is read the same way, but no public log shows one: a job's "
     "other settings come from its definition, job.yml or job.json); that rslex.log lists the "
     "settings: Microsoft Learn, \"Access data in a job\", "
     "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2"},
    {RslexShape::kResponseAsync, "response-async",
     "<ts>  WARN rslex_http_stream::http_client::response: [AsyncResponse::success()] "
     "non-successful response",
     kResponseRs},
    {RslexShape::kResponseSync, "response-sync",
     "<ts>  WARN rslex_http_stream::http_client::response: [Response::success()] non-successful "
     "response",
     kResponseRs},
    {RslexShape::kResponseOneLine, "response-one-line",
     "<ts>  WARN rslex_http_stream::http_client::response: non-successful response Status: 403 "
     "Forbidden Headers: { \"x-ms-error-code\": \"KeyBasedAuthenticationNotPermitted\", ... } "
     "method=HEAD request_uri=https://<acct>.blob.core.windows.net/<container>/train.csv",
     kIdentityBug},
    {RslexShape::kResponseFields, "response-fields",
     "<ts>  WARN rslex_http_stream::http_client::response: non-successful response "
     "request_uri=https://<acct>.blob.core.windows.net/<c>/<blob> response_status_code=403 "
     "ms_server_side_request_id=Some(\"<guid>\")",
     kAi300Notes},
    {RslexShape::kBlobErrorCode, "blob-error-code",
     "<ts> ERROR rslex_azure_storage::blob_stream_handler::azure_blob_error: unexpected azure blob "
     "error code in x-ms-error-code header error_code=KeyBasedAuthenticationNotPermitted "
     "parse_error=VariantNotFound",
     kIdentityBug},
    {RslexShape::kRetryDelay, "retry-delay",
     "<ts> DEBUG run: rslex_http_stream::retry::retry_strategy: [RetryStrategy::run()] retrying "
     "after delay: 312.5ms tries=1 should_retry=true delay=312.5ms",
     kRetryRs},
    {RslexShape::kRetryTimeout, "retry-timeout",
     "<ts>  INFO rslex_http_stream::http_client::async_body: [RetryStrategy::run()] Retrying due "
     "to timeout retry_attempt=2 delay=500ms error=AsyncBodyError { kind: Timeout, inner: None }",
     kRetryRs},
    {RslexShape::kRetryError, "retry-error",
     "<ts>  INFO rslex_http_stream::http_client::async_body: [RetryStrategy::run()] Retrying due "
     "to error retry_attempt=1 delay=250ms error=...",
     kRetryRs},
    {RslexShape::kGiveUpAttempts, "give-up-attempts",
     "<ts>  WARN rslex_http_stream::http_client::async_body: [RetryStrategy::run()] ran out of "
     "retry attempts retry_attempt=8 error=Timed out while trying to poll data from the response "
     "body",
     kRetryRs},
    {RslexShape::kGiveUpBackoff, "give-up-backoff",
     "<ts>  INFO run: rslex_http_stream::retry::retry_strategy: [RetryStrategy::run()] ran out of "
     "backoff_delays, stopping retries tries=8 should_retry=true delay=\"None\"",
     kRetryRs},
    {RslexShape::kBodyPollTimeout, "body-poll-timeout",
     "Timed out while trying to poll data from the response body (AsyncBodyError's text: in the "
     "error= field of a retry or give-up, or as a message of its own)",
     kAsyncBodyRs},
    {RslexShape::kExecutionFailed, "execution-failed",
     "<ts> ERROR rslex::python_error_handling: Execution has failed with: "
     "ScriptExecution.StreamAccess.Authentication, Authentication failed when trying to access "
     "the stream.",
     kIdentityBug},
    {RslexShape::kContinuation, "continuation",
     "Status: 503 Service Unavailable / Headers: { / \"x-ms-error-code\": \"ServerBusy\", / } "
     "code=503 / Body: <?xml ...><Error><Code>ServerBusy</Code><Message>... / RequestId:... / "
     "Time:...</Message></Error>",
     kResponseRs},
}};

}  // namespace

std::span<const RslexShapeInfo> RslexShapes() { return kShapes; }

bool IsHttpReason(int status, std::string_view reason) {
  // The reasons of the statuses Azure Storage answers with (RFC 9110 section 15), as the
  // runtime's HTTP library prints them; never Azure's own message.
  struct Reason {
    int status;
    std::string_view text;
  };
  static constexpr Reason kReasons[] = {
      {400, "Bad Request"},         {401, "Unauthorized"},
      {403, "Forbidden"},           {404, "Not Found"},
      {408, "Request Timeout"},     {409, "Conflict"},
      {412, "Precondition Failed"}, {416, "Range Not Satisfiable"},
      {429, "Too Many Requests"},   {500, "Internal Server Error"},
      {502, "Bad Gateway"},         {503, "Service Unavailable"},
      {504, "Gateway Timeout"},
  };
  for (const auto& r : kReasons)
    if (r.status == status) return reason == r.text;
  return false;
}

const RslexShapeInfo* RslexShapeOf(RslexShape shape) {
  size_t i = static_cast<size_t>(shape);
  return i < kShapes.size() ? &kShapes[i] : nullptr;
}

RslexShape ClassifyRslexMessage(std::string_view msg, bool has_response_fields) {
  if (msg == "close") return RslexShape::kSpanClose;
  if (msg == "new" || msg == "enter" || msg == "exit") return RslexShape::kSpanLifecycle;
  if (msg.find("non-successful response") != std::string_view::npos) {
    if (StartsWith(msg, "[AsyncResponse::success()]")) return RslexShape::kResponseAsync;
    if (StartsWith(msg, "[Response::success()]")) return RslexShape::kResponseSync;
    if (msg.find("Status: ") != std::string_view::npos) return RslexShape::kResponseOneLine;
    if (has_response_fields) return RslexShape::kResponseFields;
    return RslexShape::kUnknown;
  }
  if (msg.find(" set in environment") != std::string_view::npos) return RslexShape::kSetting;
  {
    // The retry module's words, with or without its "[RetryStrategy::run()] " tag.
    std::string_view rest = msg;
    if (StartsWith(rest, "[RetryStrategy::run()] ")) rest.remove_prefix(23);
    if (StartsWith(rest, "retrying after delay")) return RslexShape::kRetryDelay;
    if (StartsWith(rest, "Retrying due to timeout")) return RslexShape::kRetryTimeout;
    if (StartsWith(rest, "Retrying due to error")) return RslexShape::kRetryError;
    if (StartsWith(rest, "ran out of retry attempts")) return RslexShape::kGiveUpAttempts;
    if (StartsWith(rest, "ran out of backoff_delays")) return RslexShape::kGiveUpBackoff;
    if (rest.size() != msg.size()) return RslexShape::kUnknown;
  }
  if (msg.find("Timed out while trying to poll data from the response body") !=
      std::string_view::npos)
    return RslexShape::kBodyPollTimeout;
  if (StartsWith(msg, "Execution has failed with: ")) return RslexShape::kExecutionFailed;
  if (StartsWith(msg, "[CachedResolver::resolve()] DataStore resolved"))
    return RslexShape::kDataStoreResolved;
  if (StartsWith(msg, "unexpected azure blob error code in x-ms-error-code header"))
    return RslexShape::kBlobErrorCode;
  return RslexShape::kUnknown;
}

}  // namespace feedcheck::analyzers
