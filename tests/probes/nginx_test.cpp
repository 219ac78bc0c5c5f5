// Against nginx on loopback started by the ctest fixture (label nginx): plain http URLs.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "azurite_seed.h"
#include "probes/latency_probe.h"
#include "probes/throughput_probe.h"
#include "transport/curl_http_client.h"

using namespace feedcheck;
using namespace feedcheck::testing;

namespace {

std::string Nginx() {
  std::string e = EnvEndpoint("FEEDCHECK_TEST_NGINX");
  REQUIRE_FALSE(e.empty());  // set by the ctest fixture; run through ctest -L nginx
  return e;
}

// https://127.0.0.1:PORT+1 and the self-signed certificate nginx.sh made for it.
std::string NginxTls() {
  std::string http = Nginx();
  int port = std::stoi(http.substr(http.rfind(':') + 1));
  return "https://127.0.0.1:" + std::to_string(port + 1);
}
std::string NginxCert() { return std::string(FEEDCHECK_BINARY_DIR) + "/.run/nginx/tls/cert.pem"; }

HttpProbeEnv EnvFor(const std::string& url) {
  HttpProbeEnv env;
  REQUIRE(ParseTarget(url, {}, &env.target, nullptr));
  REQUIRE(env.target.kind == TargetKind::kHttp);
  env.make_client = [] { return std::make_unique<CurlHttpClient>(); };
  return env;
}

}  // namespace

TEST_CASE("the client reuses one connection and reports phase timings") {
  CurlHttpClient client;
  HttpRequest r;
  r.url = Nginx() + "/4k.bin";
  r.headers.emplace_back("Range", "bytes=0-1023");
  HttpResponse first = client.Perform(r);
  REQUIRE(first.status == 206);
  CHECK(first.body_bytes == 1024);
  CHECK(first.body.empty());  // counted and dropped
  CHECK_FALSE(first.reused_connection);
  CHECK(first.timing.connect_s > 0);
  CHECK(first.Header("content-range") == "bytes 0-1023/4096");
  HttpResponse second = client.Perform(r);
  CHECK(second.reused_connection);
  CHECK(second.timing.connect_s == 0);
  CHECK(second.timing.ttfb_s > 0);
  CHECK(second.timing.total_s >= second.timing.ttfb_s);
  r.fresh_connection = true;
  HttpResponse fresh = client.Perform(r);
  CHECK_FALSE(fresh.reused_connection);
  CHECK(fresh.timing.connect_s > 0);
}

TEST_CASE("the body cap stops a server that ignores Range") {
  CurlHttpClient client;
  HttpRequest r;
  r.url = Nginx() + "/1m.bin";  // no Range: 200 with 1 MiB
  r.max_body_bytes = 64 * 1024;
  HttpResponse resp = client.Perform(r);
  CHECK_FALSE(resp.transport_error.empty());
  CHECK(resp.body_bytes <= 64 * 1024 + 512 * 1024);  // at most one receive buffer past the cap
  CHECK(resp.body_bytes < (1u << 20));
}

TEST_CASE("timeouts are bounded and reported as such") {
  CurlHttpClient client;
  HttpRequest r;
  r.url = "http://127.0.0.1:9/";  // discard port: nothing listens, refused at once
  r.connect_timeout_s = 1;
  r.timeout_s = 1;
  HttpResponse resp = client.Perform(r);
  CHECK(resp.status == 0);
  CHECK_FALSE(resp.transport_error.empty());
  CHECK(resp.timing.total_s < 2);
}

TEST_CASE("throughput probe against nginx counts only the window and keeps the byte budget") {
  HttpProbeEnv env = EnvFor(Nginx() + "/256m.bin");
  env.budget.duration_s = 3;
  env.budget.max_bytes = 512ull << 20;
  ThroughputProbeOptions o;
  o.concurrency = 2;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  INFO(out.result.message);
  CHECK(out.result.status != ProbeStatus::kFailed);
  CHECK(out.result.bytes_received <= (512ull << 20));
  CHECK(out.result.elapsed_s < 3.5);
  REQUIRE(out.steps.size() == 1);
  CHECK(out.steps[0].window_bytes <= out.result.bytes_received);
  CHECK(out.steps[0].gbps > 0.1);  // loopback: far above, but the machine is shared
}

TEST_CASE("auto concurrency sweeps doubling steps and names a knee with its noise band") {
  HttpProbeEnv env = EnvFor(Nginx() + "/64m.bin");
  env.budget.duration_s = 6;
  // Time bounds this test; loopback on a fast machine passes the default 8 GiB in 6 s and
  // would cut the last step short of its intervals.
  env.budget.max_bytes = 256ull << 30;
  ThroughputProbeOptions o;
  o.concurrency = 0;
  o.max_concurrency = 4;
  o.step_duration_s = 1.5;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  INFO(out.result.message);
  REQUIRE_FALSE(out.steps.empty());
  CHECK(out.steps[0].concurrency == 1);
  // Doublings in order, and perhaps the count between the last two (3 between 2 and 4).
  for (size_t i = 1; i < out.steps.size(); ++i) {
    CHECK(out.steps[i].concurrency > out.steps[i - 1].concurrency);
    CHECK(out.steps[i].concurrency <= 2 * out.steps[i - 1].concurrency);
  }
  CHECK(out.knee_concurrency >= 1);
  // The knee is one of the steps, with the band measured inside it (>= 4 intervals of 250 ms
  // in a 1.2 s window).
  bool knee_is_a_step = false;
  for (const ThroughputStep& s : out.steps) {
    CHECK(s.interval_gbps.size() >= 4);
    if (s.concurrency == out.knee_concurrency) {
      knee_is_a_step = true;
      CHECK(out.knee_gbps == s.gbps);
      CHECK(out.knee_noise_gbps == s.noise_gbps);
    }
  }
  CHECK(knee_is_a_step);
  CHECK(out.knee_noise_gbps > 0);
  CHECK(out.result.elapsed_s < 6.5);
  const Series* s = out.result.evidence.FindSeries("probe.throughput.by_concurrency");
  REQUIRE(s);
  CHECK(s->points.size() == out.steps.size());
}

TEST_CASE("the request budget is never exceeded") {
  HttpProbeEnv env = EnvFor(Nginx() + "/64m.bin");
  env.budget.max_requests = 7;
  ThroughputProbeOptions o;
  o.concurrency = 3;
  o.block_bytes = 1 << 20;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  CHECK(out.result.requests_sent <= 7);
  CHECK(out.result.status == ProbeStatus::kPartial);
  CHECK(out.result.message.find("request budget") != std::string::npos);
}

TEST_CASE("latency probe against nginx: reused faster than new connections") {
  HttpProbeEnv env = EnvFor(Nginx() + "/4k.bin");
  LatencyProbeOptions o;
  o.requests = 100;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  CHECK(out.result.status == ProbeStatus::kOk);
  CHECK(out.ttfb.count() == 100);
  CHECK(out.connect.count() == o.new_connections);
  CHECK(out.result.evidence.facts.Number("probe.latency.range_bytes") == 4096.0);
}

TEST_CASE("CLI: the accuracy-test command lines work on plain URLs") {
  CommandOutput tp =
      RunFeedcheck("probe throughput " + Nginx() + "/256m.bin --concurrency 4 --duration 2 --json");
  INFO(tp.err);
  REQUIRE(tp.exit_code == 0);
  auto t = nlohmann::json::parse(tp.out);
  CHECK(t["result"]["target_kind"] == "http");
  CommandOutput lat = RunFeedcheck("probe latency " + Nginx() + "/4k.bin --requests 200 --json");
  INFO(lat.err);
  REQUIRE(lat.exit_code == 0);
  auto l = nlohmann::json::parse(lat.out);
  double p50 = -1;
  for (auto& f : l["evidence"]["facts"])
    if (f["key"] == "probe.latency.ttfb_p50_ms") p50 = f["value"].get<double>();
  CHECK(p50 > 0);
  CommandOutput bad = RunFeedcheck("probe throughput " + Nginx() + "/nope.bin --duration 2");
  CHECK(bad.exit_code == 3);
  CHECK(bad.err.find("404") != std::string::npos);
  CommandOutput usage = RunFeedcheck("probe throughput " + Nginx() + "/4k.bin --block-size 100MiB");
  CHECK(usage.exit_code == 2);
  CHECK(usage.err.find("--block-size") != std::string::npos);
}

TEST_CASE("CLI: --sku gives the NIC fraction from the knowledge base") {
  CommandOutput tp = RunFeedcheck("probe throughput " + Nginx() +
                                  "/256m.bin --concurrency 2 --duration 2 --sku D2_v2 --json");
  INFO(tp.err);
  REQUIRE(tp.exit_code == 0);
  auto t = nlohmann::json::parse(tp.out);
  double gbps = -1, fraction = -1;
  for (auto& f : t["evidence"]["facts"]) {
    if (f["key"] == "probe.throughput.gbps") gbps = f["value"].get<double>();
    if (f["key"] == "probe.throughput.nic_fraction") fraction = f["value"].get<double>();
  }
  REQUIRE(gbps > 0);
  // Standard_D2_v2 has a 1,500 Mbit/s NIC in the knowledge base.
  CHECK(fraction == Approx(gbps / 1.5).epsilon(0.01));
  CommandOutput unknown = RunFeedcheck("probe throughput " + Nginx() +
                                       "/4k.bin --duration 1 --sku Standard_ND96asr_v5");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("did you mean Standard_ND96asr_v4") != std::string::npos);
}

TEST_CASE("managed identity takes its token from the metadata endpoint when asked") {
  // nginx serves a canned token JSON at the IMDS path; the real endpoint is never contacted.
  CommandOutput out = RunFeedcheck(
      "probe latency http://127.0.0.1:1/devstoreaccount1/c1x/blob --auth managed-identity "
      "--requests 1 --duration 3",
      "FEEDCHECK_IMDS_ENDPOINT=" + Nginx() + "/metadata/identity/oauth2/token");
  INFO(out.err);
  // The token was obtained (auth bearer stated), then the emulator port 1 is unreachable.
  CHECK(out.err.find("auth bearer") != std::string::npos);
  CHECK(out.exit_code == 3);
  CHECK(out.err.find("test-token-from-imds") == std::string::npos);
}

TEST_CASE("TLS is verified by default and timed separately with a trusted CA file") {
  HttpRequest r;
  r.url = NginxTls() + "/4k.bin";
  r.headers.emplace_back("Range", "bytes=0-4095");
  CurlHttpClient strict;
  HttpResponse refused = strict.Perform(r);
  CHECK(refused.status == 0);
  CHECK(refused.transport_error.find("certificate") != std::string::npos);

  CurlClientOptions trusted;
  trusted.tls.ca_file = NginxCert();
  CurlHttpClient client(trusted);
  HttpResponse ok = client.Perform(r);
  INFO(ok.transport_error);
  REQUIRE(ok.status == 206);
  CHECK(ok.body_bytes == 4096);
  CHECK(ok.timing.tls_s > ok.timing.connect_s);
  CHECK(ok.timing.ttfb_s >= ok.timing.tls_s);

  CurlClientOptions insecure;
  insecure.tls.insecure = true;
  CurlHttpClient lax(insecure);
  CHECK(lax.Perform(r).status == 206);
}

TEST_CASE("CLI: latency over https reports the TLS handshake; untrusted certs are refused") {
  CommandOutput ok = RunFeedcheck("probe latency " + NginxTls() + "/4k.bin --requests 20 " +
                                  "--new-connections 5 --ca-file " + NginxCert() + " --json");
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);
  auto j = nlohmann::json::parse(ok.out);
  double tls_ms = -1;
  for (auto& f : j["evidence"]["facts"])
    if (f["key"] == "probe.latency.tls_ms") tls_ms = f["value"].get<double>();
  CHECK(tls_ms > 0);
  CommandOutput refused = RunFeedcheck("probe latency " + NginxTls() + "/4k.bin --duration 5");
  CHECK(refused.exit_code == 3);
  CHECK(refused.err.find("certificate") != std::string::npos);
}

TEST_CASE("a server that refuses HEAD is sized from Content-Range instead") {
  HttpProbeEnv env = EnvFor(Nginx() + "/nohead/64m.bin");
  env.budget.duration_s = 1.5;
  ThroughputProbeOptions o;
  o.concurrency = 1;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  INFO(out.result.message);
  CHECK(out.result.status == ProbeStatus::kOk);
  CHECK(out.best_gbps > 0);
}
