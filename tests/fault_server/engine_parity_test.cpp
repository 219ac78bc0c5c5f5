// Both HTTP engines against the same broken answers from tests/fault_server (label faults):
// libcurl's transfers (CurlHttpClient: discovery, listings, throughput) and the raw lane
// (CurlRequestLoop: the latency probe). A fault must read the same whichever engine met it, be
// classified the same, and a wrong answer must leave no byte counted as data in either.
#include <catch2/catch.hpp>
#include <regex>
#include <string>

#include "tests/fault_server/server_process.h"
#include "transport/curl_http_client.h"
#include "transport/curl_request_loop.h"
#include "transport/http_errors.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

constexpr uint64_t kRangeBytes = 1 << 20;

HttpRequest RangedGet(const std::string& url, std::atomic<uint64_t>* counter) {
  HttpRequest r;
  r.url = url;
  r.headers = {{"Range", "bytes=0-" + std::to_string(kRangeBytes - 1)}};
  r.max_body_bytes = kRangeBytes;
  r.timeout_s = 5;
  r.body_counter = counter;
  return r;
}

HttpResponse ViaRawLane(const HttpRequest& request) {
  CurlRequestLoop loop;
  HttpResponse got;
  bool sent = false;
  loop.Run(
      1,
      [&](int, HttpRequest* r) {
        if (sent) return false;
        *r = request;
        sent = true;
        return true;
      },
      [&](int, const HttpRequest&, const HttpResponse& r) { got = r; });
  return got;
}

// Numbers (milliseconds, bytes left) differ from run to run, and each engine names its own
// header limit; the words must not.
std::string Words(const std::string& text) {
  std::string out = std::regex_replace(text, std::regex("[0-9]+"), "N");
  size_t limit = out.find(" (over ");
  if (out.rfind("response headers too large", 0) == 0 && limit != std::string::npos)
    out.erase(limit, out.find(')', limit) + 1 - limit);
  return out;
}

}  // namespace

TEST_CASE("both HTTP engines word every broken answer the same", "[faults][engines]") {
  FaultServerProcess server(FAULT_SERVER, {"--object-bytes", "16777216"});
  for (const char* fault :
       {"not-http", "huge-header", "endless-headers", "reset", "wrong-length", "ignore-range",
        "range-mismatch", "gzip", "redirect-away", "empty-206", "short-206"}) {
    std::string url = server.Url(std::string("/devstoreaccount1/fault-") + fault + "/blob-1.bin");
    std::atomic<uint64_t> curl_data{0}, raw_data{0};
    CurlHttpClient client;
    HttpResponse curl = client.Perform(RangedGet(url, &curl_data));
    HttpResponse raw = ViaRawLane(RangedGet(url, &raw_data));
    INFO(fault << "\n  libcurl: HTTP " << curl.status << ": " << curl.transport_error
               << "\n  raw:     HTTP " << raw.status << ": " << raw.transport_error);
    CHECK(curl.status == raw.status);
    CHECK(Words(curl.transport_error) == Words(raw.transport_error));
    CHECK(ClassifyResponse(curl) == ClassifyResponse(raw));
    CHECK(curl.wrong_answer == raw.wrong_answer);
    bool redirect = std::string(fault) == "redirect-away";
    CHECK(curl.transport_error.empty() == redirect);  // a redirect is an answer, not followed
    if (redirect) CHECK(StatusText(curl) == StatusText(raw));
    // A 206 whose body is shorter than its Content-Range (announced empty, or chunked and
    // ending at once) is never an answer either.
    bool short_206 = std::string(fault) == "empty-206" || std::string(fault) == "short-206";
    bool wrong = std::string(fault) == "ignore-range" || std::string(fault) == "range-mismatch" ||
                 std::string(fault) == "gzip" || short_206;
    if (short_206) CHECK(curl.transport_error.rfind("HTTP 206 ", 0) == 0);
    CHECK(curl.wrong_answer == wrong);
    if (wrong) {  // refused at the head: not one byte of it is data
      CHECK(curl_data.load() == 0);
      CHECK(raw_data.load() == 0);
      CHECK(curl.body_bytes == 0);
      CHECK(raw.body_bytes == 0);
    }
  }
}

// The silent port over https: TCP accepted, then no TLS handshake. Not libcurl's "Connection
// timed out" (the connection was made): both engines say what the server did, as no HTTP
// answer at all.
TEST_CASE("both HTTP engines name a TLS handshake that never comes", "[faults][engines]") {
  FaultServerProcess server(FAULT_SERVER);
  HttpRequest request = RangedGet(server.SilentUrl("https", "/devstoreaccount1/c/b.bin"), nullptr);
  request.timeout_s = request.connect_timeout_s = 1;
  CurlHttpClient client;
  HttpResponse curl = client.Perform(request);
  HttpResponse raw = ViaRawLane(request);
  for (const HttpResponse* r : {&curl, &raw}) {
    INFO(r->transport_error);
    CHECK(r->tls_stalled);
    CHECK(NoHttpAnswer(*r));
    CHECK(r->transport_error.rfind("no TLS handshake within", 0) == 0);
  }
  CHECK(Words(curl.transport_error) == Words(raw.transport_error));
}
