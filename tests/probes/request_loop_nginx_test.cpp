// The HTTP engine against nginx on loopback (label nginx): libcurl's multi-socket event loop
// and the reused easy handle behind CurlHttpClient, with the latency probe's request rate.
#include <catch2/catch.hpp>
#include <set>

#include "azurite_seed.h"
#include "probes/cleanup_registry.h"
#include "probes/curl_http_client.h"
#include "probes/curl_request_loop.h"
#include "probes/latency_probe.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

std::string Url(const std::string& path) {
  std::string e = EnvEndpoint("FEEDCHECK_TEST_NGINX");
  REQUIRE_FALSE(e.empty());  // set by the ctest fixture; run through ctest -L nginx
  return e + path;
}

}  // namespace

TEST_CASE("the event loop keeps N connections busy and reuses each") {
  CurlRequestLoop loop;
  const int lanes = 4;
  const int total = 400;
  int issued = 0;
  int ok = 0;
  int fresh_connections = 0;
  std::set<int> lanes_used;
  auto next = [&](int, HttpRequest* r) {
    if (issued == total) return false;
    ++issued;
    if (r->url.empty()) {
      r->url = Url("/4k.bin");
      r->headers = {{"Range", "bytes=0-4095"}};
    }
    return true;
  };
  auto done = [&](int lane, const HttpRequest&, const HttpResponse& resp) {
    lanes_used.insert(lane);
    if (resp.status == 206 && resp.body_bytes == 4096 && resp.transport_error.empty() &&
        resp.Header("content-range") == "bytes 0-4095/4096")
      ++ok;
    if (!resp.reused_connection) ++fresh_connections;
  };
  loop.Run(lanes, next, done);
  CHECK(ok == total);
  CHECK(lanes_used.size() == static_cast<size_t>(lanes));
  CHECK(fresh_connections <= lanes);  // one connect per lane, then keep-alive
  // A second run reuses the same connections.
  issued = 0;
  ok = 0;
  fresh_connections = 0;
  loop.Run(lanes, next, done);
  CHECK(ok == total);
  CHECK(fresh_connections == 0);
}

TEST_CASE("a reused handle switches methods, headers and URLs cleanly") {
  // No reset between requests: each one must undo exactly what the previous one set.
  auto check_sequence = [](const std::function<HttpResponse(const HttpRequest&)>& perform) {
    HttpRequest get;
    get.url = Url("/4k.bin");
    get.headers = {{"Range", "bytes=0-99"}};
    HttpResponse r = perform(get);
    CHECK(r.status == 206);
    CHECK(r.body_bytes == 100);
    HttpRequest head;
    head.method = "HEAD";
    head.url = Url("/1m.bin");
    r = perform(head);
    CHECK(r.status == 200);
    CHECK(r.body_bytes == 0);
    CHECK(r.Header("content-length") == "1048576");
    CHECK(r.Header("content-range").empty());  // headers of the previous response are gone
    HttpRequest whole;
    whole.url = Url("/4k.bin");
    r = perform(whole);  // GET again after HEAD, without the Range header
    CHECK(r.status == 200);
    CHECK(r.body_bytes == 4096);
    HttpRequest del;
    del.method = "DELETE";
    del.url = Url("/4k.bin");
    r = perform(del);
    CHECK(r.status == 405);  // nginx's static files refuse it; the verb was DELETE
    r = perform(get);
    CHECK(r.status == 206);
    CHECK(r.body_bytes == 100);
  };
  SECTION("CurlHttpClient") {
    CurlHttpClient client;
    check_sequence([&](const HttpRequest& r) { return client.Perform(r); });
  }
  SECTION("CurlRequestLoop, one lane") {
    CurlRequestLoop loop;
    check_sequence([&](const HttpRequest& req) {
      HttpResponse out;
      bool sent = false;
      loop.Run(
          1,
          [&](int, HttpRequest* r) {
            if (sent) return false;
            sent = true;
            *r = req;
            return true;
          },
          [&](int, const HttpRequest&, const HttpResponse& resp) { out = resp; });
      return out;
    });
  }
}

TEST_CASE("the event loop keeps the body cap and goes on after a failed request") {
  CurlRequestLoop loop;
  std::vector<HttpResponse> got;
  int n = 0;
  loop.Run(
      1,
      [&](int, HttpRequest* r) {
        if (n == 3) return false;
        *r = HttpRequest{};
        r->url = n == 1 ? Url("/1m.bin") : Url("/4k.bin");  // the second ignores its cap
        r->max_body_bytes = n == 1 ? 64 * 1024 : 4096;
        ++n;
        return true;
      },
      [&](int, const HttpRequest&, const HttpResponse& resp) { got.push_back(resp); });
  REQUIRE(got.size() == 3);
  CHECK(got[0].status == 200);
  CHECK(got[0].body_bytes == 4096);
  CHECK(got[1].over_cap);
  CHECK_FALSE(got[1].transport_error.empty());
  CHECK(got[1].body_bytes < (1u << 20));
  CHECK(got[2].status == 200);
  CHECK(got[2].body_bytes == 4096);
  CHECK(got[2].transport_error.empty());
}

TEST_CASE("the event loop ends stoppable requests at a stop and starts no more") {
  CurlRequestLoop loop;
  int issued = 0;
  int stopped = 0;
  int completed = 0;
  loop.Run(
      4,
      [&](int, HttpRequest* r) {
        if (issued == 100000) return false;  // far more than run before the stop
        ++issued;
        r->url = Url("/4k.bin");
        return true;
      },
      [&](int, const HttpRequest&, const HttpResponse& resp) {
        if (resp.stopped) {
          ++stopped;
          return;
        }
        if (++completed == 50) RequestStop(2);
      });
  ResetStopRequest();
  CHECK(completed >= 50);
  CHECK(issued == completed + stopped);  // every request started was answered once
  CHECK(issued <= 50 + 4);               // none started after the stop
  CHECK(stopped <= 4);                   // at most the ones in flight
}

TEST_CASE("latency probe at concurrency 4 reports the request rate and CPU per request") {
  HttpProbeEnv env;
  REQUIRE(ParseTarget(Url("/4k.bin"), {}, &env.target, nullptr));
  env.make_client = [] { return std::make_unique<CurlHttpClient>(); };
  env.make_loop = [] { return std::make_unique<CurlRequestLoop>(); };
  LatencyProbeOptions o;
  o.requests = 2000;
  o.head_requests = 20;
  o.new_connections = 5;
  o.concurrency = 4;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  INFO(out.result.message);
  CHECK(out.result.status == ProbeStatus::kOk);
  CHECK(out.ttfb.count() == 2000);
  CHECK(out.head.count() == 20);
  CHECK(out.connect.count() == 5);
  const FactSet& f = out.result.evidence.facts;
  CHECK(f.Number("probe.latency.concurrency") == 4.0);
  // Loopback: thousands per second even on a loaded machine; CPU is measured, never zero.
  CHECK(f.Number("probe.latency.requests_per_s") > 200.0);
  CHECK(f.Number("probe.latency.cpu_us_per_request") > 0.0);
  CHECK(f.Number("probe.latency.cpu_us_per_request") < 5000.0);
  // The discovery HEAD, the warm-up (at least one per connection) and every measured request.
  CHECK(out.result.requests_sent == 1 + 5 + 2000 + 20 + 5);
  CHECK(out.result.bytes_received == (5 + 2000 + 5) * 4096ull);
}
