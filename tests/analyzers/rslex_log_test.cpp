#include "analyzers/rslex_log.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "analyzers/analyze_paths.h"
#include "analyzers/throttle_kind.h"
#include "test_util.h"

using namespace feedcheck;
using namespace feedcheck::analyzers;
using namespace feedcheck::analyzers::test;

namespace {
const char* kLog =
    "2024-05-01T09:52:01.400000Z  INFO rslex_http_stream::retry: AZUREML_DATASET_HTTP_RETRY_COUNT "
    "set in environment, using for http client: 10 num_retries=10\n"
    "2024-05-01T09:52:01.400040Z  INFO rslex::settings: RSLEX_DOWNLOADER_THREADS set in "
    "environment num_threads=16\n"
    "2024-05-01T09:52:02.000000Z  INFO copy_uri:copy_dataset:get_iter: rslex::prefetching: close "
    "time.busy=23.2\xC2\xB5s time.idle=1.90\xC2\xB5s parallelization_degree=4 "
    "parallelization_degree=4\n"
    "2024-05-01T09:52:03.000000Z  INFO copy_uri:copy_dataset:get_iter: rslex::prefetching: close "
    "time.busy=1.5ms time.idle=10us parallelization_degree=8\n"
    "2024-05-01T09:52:04.000000Z  WARN rslex_http_stream::http_client::response: non-successful "
    "response Status: 503 Service Unavailable Headers: { \"x-ms-error-code\": "
    "\"ServerBusy\", ... } method=GET request_uri=https://a.blob.core.windows.net/c/x\n"
    "2024-05-01T09:52:04.100000Z DEBUG run: rslex_http_stream::retry::retry_strategy: "
    "[RetryStrategy::run()] retrying after delay: 312.5ms tries=1 should_retry=true "
    "delay=312.5ms\n"
    "2024-05-01T09:52:05.000000Z  WARN rslex_http_stream::http_client::response: non-successful "
    "response Status: 503 Service Unavailable Headers: { \"x-ms-error-code\": \"ServerBusy\" } "
    "method=GET\n"
    "2024-05-01T09:52:06.000000Z  WARN rslex_http_stream::http_client::response: non-successful "
    "response Status: 404 The specified blob does not exist. Headers: { } method=HEAD "
    "error_code=BlobNotFound\n"
    "this is not a tracing line\n"
    "\x1b[2m2024-05-01T09:52:07.000000Z\x1b[0m \x1b[31mERROR\x1b[0m rslex::python_error_handling: "
    "Execution has failed with: ScriptExecution.StreamAccess.Throttling, too many requests\n";
}  // namespace

TEST_CASE("rslex log: responses, settings, parallelization, retries", "[analyzers][rslex]") {
  RslexLogAnalyzer a;
  Evidence ev = Run(a, kLog, "rslex.log.2024-05-01-09");
  CHECK(Num(ev, "runtime.http_errors.503") == 2);
  CHECK(Num(ev, "runtime.http_errors.404") == 1);
  CHECK(Num(ev, "runtime.error_codes.ServerBusy") == 2);
  CHECK(Num(ev, "runtime.error_codes.BlobNotFound") == 1);
  CHECK(Num(ev, "runtime.non_success_responses") == 3);
  CHECK(Num(ev, "runtime.retries") == 1);
  CHECK(Num(ev, "runtime.parallelization_degree") == 8);
  CHECK(*ev.facts.Text("runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT") == "10");
  CHECK(*ev.facts.Text("runtime.setting.RSLEX_DOWNLOADER_THREADS") == "16");
  CHECK(*ev.facts.Text("runtime.mode") == "download");
  CHECK(*ev.facts.Text("runtime.stream_error") == "ScriptExecution.StreamAccess.Throttling");
  CHECK(Num(ev, "runtime.log_errors") == 1);  // the ANSI-coloured ERROR line parsed
  const Fact* f = ev.facts.Find("runtime.http_errors.503");
  CHECK(f->provenance.file == "rslex.log.2024-05-01-09");
  CHECK(f->provenance.line == 5);
  CHECK(f->provenance.origin == FactOrigin::kObserved);
  // The close spans aggregate per leaf span and per target.
  const auto& span = a.spans().at("get_iter");
  CHECK(span.closes == 2);
  CHECK(span.busy_ns == Approx(23200 + 1.5e6));
  CHECK(span.idle_ns == Approx(1900 + 10000));
  CHECK(a.targets().at("rslex::prefetching").closes == 2);
  // The one bad line is counted and reported with file:line.
  CHECK(a.stats().malformed == 1);
  REQUIRE(ev.diagnostics.total() >= 1);
  CHECK(ev.diagnostics.kept()[0].location.line == 9);
  CHECK(ev.diagnostics.kept()[0].location.file == "rslex.log.2024-05-01-09");
  // 503s go on the storage lane.
  bool storage = false;
  for (const auto& iv : ev.timeline) storage |= iv.lane == "storage";
  CHECK(storage);
}

TEST_CASE("rotated rslex files are ordered by their first timestamp", "[analyzers][rslex]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "feedcheck_rslex_order_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const char* name, const char* stamp) {
    std::ofstream(dir / name) << stamp << "  INFO rslex::x: hello\n";
  };
  write("rslex.log", "2024-05-01T11:00:00.000000Z");
  write("rslex.log.2024-05-01-10", "2024-05-01T10:00:00.000000Z");
  write("rslex.log.2024-05-01-09", "2024-05-01T09:00:00.000000Z");
  auto ordered =
      OrderRslexFiles({(dir / "rslex.log").string(), (dir / "rslex.log.2024-05-01-10").string(),
                       (dir / "rslex.log.2024-05-01-09").string()});
  CHECK(fs::path(ordered[0]).filename() == "rslex.log.2024-05-01-09");
  CHECK(fs::path(ordered[1]).filename() == "rslex.log.2024-05-01-10");
  CHECK(fs::path(ordered[2]).filename() == "rslex.log");
  fs::remove_all(dir);
}

TEST_CASE("distinct span names are bounded", "[analyzers][rslex]") {
  std::string log;
  for (int i = 0; i < 2000; ++i)
    log += "2024-05-01T09:52:02.000000Z  INFO s" + std::to_string(i) + ":leaf" + std::to_string(i) +
           ": rslex::x: close time.busy=1ms time.idle=1ms\n";
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log);
  CHECK(a.spans().size() <= 513);
  CHECK(a.spans().count("(other)") == 1);
  CHECK(a.stats().malformed == 0);
}

TEST_CASE("lines going back in time are counted within a file, not across nodes' files",
          "[analyzers][rslex]") {
  // Two nodes' logs of the same hour, read one after the other: each starts over at 10:00.
  const char* node0 =
      "2024-05-01T10:00:00.000000Z  INFO rslex::prefetching: close time.busy=1ms time.idle=1ms\n"
      "2024-05-01T10:30:00.000000Z  INFO rslex::prefetching: close time.busy=1ms time.idle=1ms\n";
  const char* node1 =
      "2024-05-01T10:00:01.000000Z  INFO rslex::prefetching: close time.busy=1ms time.idle=1ms\n"
      "2024-05-01T10:31:00.000000Z  INFO rslex::prefetching: close time.busy=1ms time.idle=1ms\n"
      "2024-05-01T10:05:00.000000Z  INFO rslex::prefetching: close time.busy=1ms time.idle=1ms\n";
  RslexLogAnalyzer a;
  std::string error;
  LineReader r0 = LineReader::FromBuffer(node0);
  LineReader r1 = LineReader::FromBuffer(node1);
  FeedLines(r0, "node-0/rslex.log.2024-05-01-10", a, &error);
  FeedLines(r1, "node-1/rslex.log.2024-05-01-10", a, &error);
  Evidence ev;
  a.Finish(&ev);
  int notes = 0;
  for (const auto& d : ev.diagnostics.kept())
    if (d.message.find("went back in time") != std::string::npos) {
      ++notes;
      CHECK(d.message.rfind("1 lines", 0) == 0);  // node-1's third line only
    }
  CHECK(notes == 1);
}

TEST_CASE("the accounts a job read: the resolver's account_name and refused requests' hosts",
          "[analyzers][rslex]") {
  const char* log =
      "2025-12-04T22:10:38.412000Z  INFO rslex_azureml::data_store::resolver: "
      "[CachedResolver::resolve()] DataStore resolved info=DataStoreInfo { id: "
      "\"imagenet_train\", ... } datastore_type=Some(AzureBlob) "
      "account_name=Some(\"stImageNet01\")\n"
      "2025-12-04T22:11:02.100000Z  WARN rslex_http_stream::http_client::response: "
      "non-successful response Status: 404 The specified blob does not exist. Headers: { "
      "\"x-ms-error-code\": \"BlobNotFound\", ... } method=HEAD "
      "request_uri=https://stlabels02.blob.core.windows.net/labels/train.csv\n"
      "2025-12-04T22:11:03.100000Z  WARN rslex_http_stream::http_client::response: "
      "non-successful response Status: 404 Not Found Headers: { } method=GET "
      "request_uri=https://example.com/not-storage\n"
      "2025-12-04T22:11:04.100000Z  WARN rslex_http_stream::http_client::response: "
      "non-successful response Status: 403 Forbidden Headers: { \"x-ms-error-code\": "
      "\"AuthenticationFailed\", ... } method=GET "
      "request_uri=https://stlabels02.blob.core.windows.net/labels/val.csv\n";
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log, "rslex.log.2025-12-04-22");
  CHECK(a.accounts() == std::set<std::string>{"stimagenet01", "stlabels02"});
  // Refusals that end jobs are kept over time, by status, on the access lane.
  int access = 0;
  for (const auto& iv : ev.timeline)
    if (iv.lane == "access") {
      ++access;
      CHECK((iv.label == "404 refused" || iv.label == "403 refused"));
    }
  CHECK(access == 2);
}

namespace {
// The runtime's own multi-line forms (rslex-http-stream, http_client/response.rs): the message
// "[AsyncResponse::success()] non-successful response\n{debug}" with the event's field code=
// after it; the synchronous variant adds the body.
const char* kMultiLine =
    "2026-03-02T10:00:00.000000Z  WARN rslex_http_stream::http_client::response: "
    "[AsyncResponse::success()] non-successful response\n"
    "Status: 503 Service Unavailable\n"
    "Headers: {\n"
    "    \"content-length\": \"212\",\n"
    "    \"content-type\": \"application/xml; charset=utf-8\",\n"
    "    \"x-ms-error-code\": \"ServerBusy\",\n"
    "    \"x-ms-request-id\": \"6c3f2a1e-001e-0042-2b1a-8d0c5e000000\",\n"
    "} code=503\n"
    "2026-03-02T10:00:00.300000Z DEBUG run: rslex_http_stream::retry::retry_strategy: "
    "[RetryStrategy::run()] retrying after delay: 312.5ms tries=1 should_retry=true "
    "delay=312.5ms\n"
    "2026-03-02T10:00:01.000000Z  WARN rslex_http_stream::http_client::response: "
    "[Response::success()] non-successful response\n"
    "Status: 503 Service Unavailable\n"
    "Headers: {\n"
    "    \"x-ms-error-code\": \"ServerBusy\",\n"
    "}\n"
    "Body: <?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ServerBusy</Code><Message>"
    "Operations per second is over the account limit.\n"
    "RequestId:6c3f2a1e-001e-0042-2b1a-8d0c5e000001\n"
    "Time:2026-03-02T10:00:01.0000000Z</Message></Error> code=503\n"
    "2026-03-02T10:00:02.000000Z  WARN rslex_http_stream::http_client::response: "
    "[Response::success()] non-successful response\n"
    "Status: 500 Internal Server Error\n"
    "Headers: {\n"
    "    \"x-ms-error-code\": \"OperationTimedOut\",\n"
    "}\n"
    "Body: <?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>OperationTimedOut</Code>"
    "<Message>The operation could not be completed within the permitted time.\n"
    "RequestId:6c3f2a1e-001e-0042-2b1a-8d0c5e000002\n"
    "Time:2026-03-02T10:00:02.0000000Z</Message></Error> code=500\n"
    "2026-03-02T10:00:03.000000Z  WARN rslex_http_stream::http_client::response: non-successful "
    "response request_uri=https://st2026.blob.core.windows.net/training-data/sample.csv "
    "response_status_code=403 ms_server_side_request_id=Some(\"df3c1698-401e-0004-7bd8-"
    "2cfcaa000000\")\n"
    "2026-03-02T10:00:04.000000Z  WARN rslex_http_stream::http_client::response: non-successful "
    "response Status: 403 Forbidden Headers: { \"x-ms-error-code\": "
    "\"KeyBasedAuthenticationNotPermitted\", ... } method=HEAD "
    "request_uri=https://st2026.blob.core.windows.net/training-data/train.csv\n"
    "2026-03-02T10:00:05.000000Z  INFO rslex_http_stream::http_client::async_body: "
    "[RetryStrategy::run()] Retrying due to timeout retry_attempt=1 delay=250ms "
    "error=AsyncBodyError { kind: Timeout, inner: None }\n"
    "2026-03-02T10:00:06.000000Z  INFO rslex_http_stream::http_client::async_body: "
    "[RetryStrategy::run()] Retrying due to error retry_attempt=2 delay=500ms error=...\n"
    "2026-03-02T10:00:07.000000Z  WARN rslex_http_stream::http_client::async_body: "
    "[RetryStrategy::run()] ran out of retry attempts retry_attempt=8 error=Timed out while "
    "trying to poll data from the response body\n"
    "2026-03-02T10:00:08.000000Z  INFO run: rslex_http_stream::retry::retry_strategy: "
    "[RetryStrategy::run()] ran out of backoff_delays, stopping retries tries=8 "
    "should_retry=true delay=\"None\"\n"
    "2026-03-02T10:00:09.000000Z  WARN rslex_http_stream::http_client::response: "
    "[AsyncResponse::success()] non-successful response\n"
    "Status: 503 Service Unavailable\n"
    "Headers: {\n"
    "    \"x-ms-error-code\": \"ServerBusy\",\n"
    "} code=503";  // the log ends inside the event: it is still read
}  // namespace

TEST_CASE("rslex log: a multi-line response is one event, status and code read whole",
          "[analyzers][rslex]") {
  RslexLogAnalyzer a;
  Evidence ev = Run(a, kMultiLine, "rslex.log.2026-03-02-10");
  // Not one continuation line is malformed.
  CHECK(a.stats().malformed == 0);
  for (const auto& d : ev.diagnostics.kept()) CHECK(d.code != std::string("A201"));
  CHECK(a.shape_count(RslexShape::kUnknown) == 0);
  CHECK(a.shape_count(RslexShape::kContinuation) == 7 + 7 + 7 + 4);
  CHECK(Num(ev, "runtime.non_success_responses") == 6);
  CHECK(Num(ev, "runtime.http_errors.503") == 3);
  CHECK(Num(ev, "runtime.http_errors.500") == 1);
  CHECK(Num(ev, "runtime.http_errors.403") == 2);  // the field form and the one-line form
  CHECK_FALSE(ev.facts.Has("runtime.http_errors.unknown"));
  CHECK(Num(ev, "runtime.error_codes.ServerBusy") == 3);
  CHECK(Num(ev, "runtime.error_codes.KeyBasedAuthenticationNotPermitted") == 1);
  CHECK(Num(ev, "runtime.error_codes.OperationTimedOut") == 1);
  // Only the synchronous body names a limit; the asynchronous 503s are "limit unknown".
  CHECK(Num(ev, "runtime.throttled.requests") == 1);
  CHECK(Num(ev, "runtime.throttled.server_busy") == 2);
  CHECK(Num(ev, "runtime.throttled.timeout") == 1);
  CHECK_FALSE(ev.facts.Has("runtime.throttled.egress"));
  // Retries, give-ups and timeouts are told apart.
  CHECK(Num(ev, "runtime.retries") == 3);
  CHECK(Num(ev, "runtime.retry_give_ups") == 2);
  CHECK(Num(ev, "runtime.timeouts") == 2);
  // Provenance is the event's first line.
  CHECK(ev.facts.Find("runtime.http_errors.503")->provenance.line == 1);
  CHECK(ev.facts.Find("runtime.http_errors.500")->provenance.line == 18);
  CHECK(ev.facts.Find("runtime.http_errors.403")->provenance.line == 26);
  // A 403 is a refusal on the access lane.
  bool access = false;
  for (const auto& iv : ev.timeline) access |= iv.lane == "access" && iv.label == "403 refused";
  CHECK(access);
  CHECK(a.accounts().count("st2026") == 1);
}

TEST_CASE("rslex log: an event's continuation is bounded, the cut named with file:line",
          "[analyzers][rslex]") {
  std::string log =
      "2026-03-02T10:00:00.000000Z  WARN rslex_http_stream::http_client::response: "
      "[AsyncResponse::success()] non-successful response\n"
      "Status: 503 Service Unavailable\n"
      "Headers: {\n";
  for (int i = 0; i < 200; ++i) log += "    \"x-ms-meta-" + std::to_string(i) + "\": \"v\",\n";
  log += "} code=503\n";
  log +=
      "2026-03-02T10:00:01.000000Z  INFO copy_uri: rslex::prefetching: close time.busy=1ms "
      "time.idle=1ms\n";
  log += "not a tracing line\n";
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log, "rslex.log.x");
  CHECK(Num(ev, "runtime.http_errors.503") == 1);  // the part kept still reads
  CHECK(a.stats().malformed == 1);                 // only the garbage line after the event
  int cut = 0;
  for (const auto& d : ev.diagnostics.kept())
    if (d.code == std::string("A208")) {
      ++cut;
      CHECK(d.location.file == "rslex.log.x");
      CHECK(d.location.line == 1);
    }
  CHECK(cut == 1);
  CHECK(a.spans().at("copy_uri").closes == 1);
}

TEST_CASE("rslex log: an unclosed brace cannot swallow the log", "[analyzers][rslex]") {
  std::string log =
      "2026-03-02T10:00:00.000000Z  WARN rslex_http_stream::http_client::response: "
      "[AsyncResponse::success()] non-successful response\n"
      "Status: 503 Service Unavailable\n"
      "Headers: {\n"
      "2026-03-02T10:00:01.000000Z  INFO copy_uri: rslex::prefetching: close time.busy=1ms "
      "time.idle=1ms\n";
  for (int i = 0; i < 5000; ++i) log += "garbage\n";
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log, "rslex.log.x");
  CHECK(Num(ev, "runtime.http_errors.503") == 1);
  CHECK(a.spans().at("copy_uri").closes == 1);  // a timestamp ends the open event
  CHECK(a.stats().malformed == 5000);           // garbage after a close span owns nothing
}

TEST_CASE("rslex shapes: every known shape has a name, an example and a public source",
          "[analyzers][rslex]") {
  std::set<std::string_view> names;
  for (const auto& s : RslexShapes()) {
    CHECK_FALSE(s.name.empty());
    CHECK(names.insert(s.name).second);
    CHECK_FALSE(s.example.empty());
    CHECK_FALSE(s.source.empty());
    CHECK(s.source.find("shared") == std::string_view::npos);
    CHECK(s.source.find("seeds") == std::string_view::npos);
    CHECK(RslexShapeOf(s.shape) == &s);
  }
  CHECK(names.size() == kRslexShapeCount - 1);
  // The invented forms no runtime writes are not shapes.
  CHECK(ClassifyRslexMessage("Retrying request after 503", false) == RslexShape::kUnknown);
  CHECK(ClassifyRslexMessage("non-successful response", false) == RslexShape::kUnknown);
}

TEST_CASE("rslex log: an empty body and trailing spaces lost in a copy are still owned",
          "[analyzers][rslex]") {
  const char* log =
      "2026-03-02T10:00:00.000000Z  WARN rslex_http_stream::http_client::response: "
      "[Response::success()] non-successful response\n"
      "Status: 404 Not Found\n"
      "Headers: {\n"
      "    \"x-ms-error-code\": \"BlobNotFound\",\n"
      "}\n"
      "Body:\n";
  RslexLogAnalyzer a;
  Evidence ev = Run(a, log, "rslex.log.x");
  CHECK(a.stats().malformed == 0);
  CHECK(Num(ev, "runtime.http_errors.404") == 1);
  CHECK(Num(ev, "runtime.error_codes.BlobNotFound") == 1);
}

TEST_CASE("rslex log: a refusal's interval carries what its body said", "[analyzers][rslex]") {
  // The synchronous variant logs Azure's message: an account limit by name, or only "The server
  // is busy." (no account limit refused it). The asynchronous one logs no body: limit unknown.
  auto response = [](const std::string& time, const std::string& message) {
    std::string text = "2026-03-02T10:" + time +
                       ".000000Z  WARN rslex_http_stream::http_client::response: "
                       "[Response::success()] non-successful response\n"
                       "Status: 503 Service Unavailable\n"
                       "Headers: {\n"
                       "    \"x-ms-error-code\": \"ServerBusy\",\n"
                       "}\n";
    if (!message.empty())
      text +=
          "Body: <?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ServerBusy</Code>"
          "<Message>" +
          message +
          "\nRequestId:6c3f2a1e-001e-0042-2b1a-8d0c5e000001\n"
          "Time:2026-03-02T10:00:01.0000000Z</Message></Error>";
    return text + " code=503\n";
  };
  RslexLogAnalyzer a;
  Evidence ev = Run(a,
                    response("00:00", "Egress is over the account limit.") +
                        response("10:00", "The server is busy.") + response("20:00", ""),
                    "rslex.log.2026-03-02-10");
  std::map<std::string, int> labels;
  for (const auto& iv : ev.timeline)
    if (iv.lane == "storage") ++labels[iv.label];
  CHECK(labels["503 egress over the account limit"] == 1);
  CHECK(labels[std::string(kServerBusySaidLabel)] == 1);
  CHECK(labels["503 throttled (limit unknown)"] == 1);
  CHECK(labels.size() == 3);
  // Both busy forms count as server_busy; only the label tells them apart.
  CHECK(Num(ev, "runtime.throttled.server_busy") == 2);
  CHECK(Num(ev, "runtime.throttled.egress") == 1);
  // And back from the label, as the ledger reads it.
  bool said = false;
  CHECK(ThrottleKindOfLabel(kServerBusySaidLabel, &said) == ThrottleKind::kServerBusy);
  CHECK(said);
  CHECK(ThrottleKindOfLabel("503 throttled (limit unknown)", &said) == ThrottleKind::kServerBusy);
  CHECK_FALSE(said);
  CHECK(ThrottleKindOfLabel("503 egress over the account limit", &said) == ThrottleKind::kEgress);
  CHECK(ThrottleKindOfLabel("span closes", &said) == ThrottleKind::kNotThrottled);
}
