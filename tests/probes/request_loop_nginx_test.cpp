// The HTTP engine against nginx on loopback (label nginx): libcurl's multi-socket event loop
// and the reused easy handle behind CurlHttpClient, with the latency probe's request rate.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <set>

#include "azurite_seed.h"
#include "probes/cleanup_registry.h"
#include "probes/latency_probe.h"
#include "transport/curl_http_client.h"
#include "transport/curl_request_loop.h"

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
  // nginx announces the 1 MiB: refused at the head, before a body byte (a body that came
  // unannounced would be cut at the cap instead, over_cap).
  CHECK(got[1].wrong_answer);
  CHECK(got[1].transport_error ==
        "the server announced 1048576 bytes where at most 65536 were "
        "asked for");
  CHECK(got[1].body_bytes == 0);
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
  REQUIRE(f.Find("probe.latency.http_engine"));
  CHECK(f.Find("probe.latency.http_engine")->text() == "raw");
  // Loopback: thousands per second even on a loaded machine; CPU is measured, never zero.
  CHECK(f.Number("probe.latency.requests_per_s") > 200.0);
  CHECK(f.Number("probe.latency.cpu_us_per_request") > 0.0);
  CHECK(f.Number("probe.latency.cpu_us_per_request") < 5000.0);
  // The discovery HEAD, the warm-up (at least one per connection) and every measured request.
  CHECK(out.result.requests_sent == 1 + 5 + 2000 + 20 + 5);
  CHECK(out.result.bytes_received == (5 + 2000 + 5) * 4096ull);
}

namespace {

// https://127.0.0.1:PORT+1 and the self-signed certificate nginx.sh made for it.
std::string TlsUrl(const std::string& path) {
  std::string http = Url("");
  int port = std::stoi(http.substr(http.rfind(':') + 1));
  return "https://127.0.0.1:" + std::to_string(port + 1) + path;
}

// Runs `count` requests made by `make` on `lanes` lanes; returns every response in order.
std::vector<HttpResponse> RunAll(CurlRequestLoop* loop, int lanes, int count,
                                 const std::function<void(int, HttpRequest*)>& make) {
  std::vector<HttpResponse> out;
  int issued = 0;
  loop->Run(
      lanes,
      [&](int, HttpRequest* r) {
        if (issued == count) return false;
        make(issued++, r);
        return true;
      },
      [&](int, const HttpRequest&, const HttpResponse& resp) { out.push_back(resp); });
  return out;
}

}  // namespace

TEST_CASE("the raw path over TLS: verified like libcurl, handshake timed, connection reused") {
  CurlClientOptions trusted;
  trusted.tls.ca_file = std::string(FEEDCHECK_BINARY_DIR) + "/.run/nginx/tls/cert.pem";
  CurlRequestLoop loop(trusted);
  std::vector<HttpResponse> got = RunAll(&loop, 2, 200, [](int, HttpRequest* r) {
    r->url = TlsUrl("/4k.bin");
    r->headers = {{"Range", "bytes=0-4095"}};
  });
  REQUIRE(got.size() == 200);
  int fresh = 0;
  for (const HttpResponse& r : got) {
    INFO(r.transport_error);
    CHECK(r.status == 206);
    CHECK(r.body_bytes == 4096);
    if (!r.reused_connection) {
      ++fresh;
      CHECK(r.timing.tls_s > r.timing.connect_s);  // the handshake, timed by libcurl
      CHECK(r.timing.ttfb_s >= r.timing.tls_s);
    }
  }
  CHECK(fresh == 2);
  CHECK(loop.engine() == "raw");
  // The same verification as CurlLane: an untrusted certificate is refused, in libcurl's words.
  CurlRequestLoop strict;
  std::vector<HttpResponse> refused =
      RunAll(&strict, 1, 1, [](int, HttpRequest* r) { r->url = TlsUrl("/4k.bin"); });
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].status == 0);
  CHECK(refused[0].transport_error.find("certificate") != std::string::npos);
}

TEST_CASE("the raw path honours Connection: close and HEAD") {
  CurlRequestLoop loop;
  std::vector<HttpResponse> got = RunAll(&loop, 1, 6, [](int i, HttpRequest* r) {
    *r = HttpRequest{};
    r->url = Url("/4k.bin");
    if (i % 2 == 0) r->headers = {{"Connection", "close"}};  // nginx then closes after answering
    if (i == 3) r->method = "HEAD";
  });
  REQUIRE(got.size() == 6);
  for (const HttpResponse& r : got) {
    INFO(r.transport_error);
    CHECK(r.status == 200);
  }
  CHECK(got[0].body_bytes == 4096);
  CHECK(got[3].body_bytes == 0);  // HEAD: Content-Length says 4096, no body follows
  CHECK(got[3].Header("content-length") == "4096");
  // Every request after a Connection: close one needed a new connection.
  CHECK_FALSE(got[1].reused_connection);
  CHECK_FALSE(got[3].reused_connection);
  CHECK_FALSE(got[5].reused_connection);
}

TEST_CASE("through a proxy from the environment the loop runs libcurl transfers and says so") {
  // nginx answers absolute-form requests ("GET http://host/4k.bin") itself, so it can stand in
  // for a forward proxy; the storage host does not resolve, so only the proxy path can work.
  std::string proxy = Url("");
  std::string port = proxy.substr(proxy.rfind(':') + 1);
  setenv("http_proxy", proxy.c_str(), 1);
  CurlRequestLoop loop;
  std::vector<HttpResponse> got = RunAll(&loop, 2, 20, [&](int, HttpRequest* r) {
    r->url = "http://storage.invalid:" + port + "/4k.bin";
    r->headers = {{"Range", "bytes=0-99"}};
  });
  unsetenv("http_proxy");
  REQUIRE(got.size() == 20);
  for (const HttpResponse& r : got) {
    INFO(r.transport_error);
    CHECK(r.status == 206);
    CHECK(r.body_bytes == 100);
  }
  CHECK(loop.engine() == "libcurl");
  // Without the proxy the same loop goes back to the raw path.
  got = RunAll(&loop, 1, 3, [](int, HttpRequest* r) { r->url = Url("/4k.bin"); });
  CHECK(got.size() == 3);
  CHECK(loop.engine() == "raw");
}
