// The latency probe's logic at --concurrency N over scripted clients (no event loop given, so
// the probe runs a thread per lane): exact counts, budgets and errors, whatever the lanes.
#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <set>
#include <thread>

#include "probes/latency_probe.h"
#include "tests/fakes/scripted_http_client.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

struct Server {
  std::atomic<int> in_flight{0};
  std::atomic<int> most_in_flight{0};
  std::atomic<int> gets{0};
  int fail_every = 0;  ///< every n-th GET answers 503 ServerBusy
  HttpResponse Answer(const HttpRequest& request) {
    HttpResponse r;
    if (request.method == "HEAD") {
      r.status = 200;
      r.headers["content-length"] = "4096";
      r.timing.total_s = 0.001;
      return r;
    }
    int now = ++in_flight;
    int seen = most_in_flight.load();
    while (now > seen && !most_in_flight.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    --in_flight;
    int n = ++gets;
    if (fail_every > 0 && n % fail_every == 0) {
      r.status = 503;
      r.headers["x-ms-error-code"] = "ServerBusy";
      return r;
    }
    r.status = 206;
    r.body_bytes = 4096;
    r.timing.ttfb_s = 0.001;
    r.timing.total_s = 0.002;
    return r;
  }
};

HttpProbeEnv EnvFor(Server* server) {
  HttpProbeEnv env;
  REQUIRE(ParseTarget("http://storage.test/4k.bin", {}, &env.target, nullptr));
  env.make_client = [server] {
    return std::make_unique<ScriptedHttpClient>(
        [server](const HttpRequest& r) { return server->Answer(r); });
  };
  return env;
}

}  // namespace

TEST_CASE("latency at concurrency 3: every request counted once, lanes really concurrent") {
  Server server;
  HttpProbeEnv env = EnvFor(&server);
  LatencyProbeOptions o;
  o.requests = 300;
  o.head_requests = 10;
  o.new_connections = 4;
  o.warmup_requests = 2;  // raised to one per connection
  o.concurrency = 3;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  INFO(out.result.message);
  CHECK(out.result.status == ProbeStatus::kOk);
  CHECK(out.ttfb.count() == 300);
  CHECK(out.head.count() == 10);
  CHECK(out.new_conn_ttfb.count() == 4);
  CHECK(server.gets == 3 + 300 + 4);
  CHECK(server.most_in_flight >= 2);  // more than one lane at a time
  CHECK(server.most_in_flight <= 3);
  CHECK(out.result.requests_sent == 1 + 3 + 300 + 10 + 4);
  const FactSet& f = out.result.evidence.facts;
  CHECK(f.Number("probe.latency.concurrency") == 3.0);
  CHECK(f.Number("probe.latency.requests") == 314.0);
  REQUIRE(f.Number("probe.latency.requests_per_s"));
  CHECK(*f.Number("probe.latency.requests_per_s") > 0);
  REQUIRE(f.Number("probe.latency.cpu_us_per_request"));
}

TEST_CASE("latency at concurrency 8 never sends more than the request budget") {
  Server server;
  HttpProbeEnv env = EnvFor(&server);
  env.budget.max_requests = 50;
  LatencyProbeOptions o;
  o.requests = 1000;
  o.concurrency = 8;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  CHECK(out.result.requests_sent == 50);
  CHECK(out.result.status == ProbeStatus::kPartial);
  CHECK(out.result.message.find("request budget") != std::string::npos);
}

TEST_CASE("latency at concurrency 4 counts throttled answers as errors, not samples") {
  Server server;
  server.fail_every = 10;
  HttpProbeEnv env = EnvFor(&server);
  LatencyProbeOptions o;
  o.requests = 200;
  o.head_requests = 0;
  o.new_connections = 0;
  o.warmup_requests = 0;  // raised to 4
  o.concurrency = 4;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  // 4 warm-up GETs (none throttled) and 200 measured, every 10th of all throttled: 20 errors.
  CHECK(server.gets == 204);
  CHECK(out.result.evidence.facts.Number("probe.errors.total") == 20.0);
  CHECK(out.ttfb.count() == 180);
  CHECK(out.result.status == ProbeStatus::kPartial);
}
