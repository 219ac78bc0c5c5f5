// Probes under faults: throttling answers from a fake server, and a real socket that accepts
// connections but never answers. Every probe must classify, bound its retries and end within
// its time budget.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>

#include "probes/latency_probe.h"
#include "probes/throughput_probe.h"
#include "transport/curl_http_client.h"

using namespace feedcheck;

namespace {

constexpr uint64_t kObjectBytes = 64ull << 20;

// Answers HEAD with a size, and every `fail_every`-th GET with a 503 carrying `message`.
class ThrottlingServer : public HttpClient {
 public:
  ThrottlingServer(std::atomic<uint64_t>* calls, int fail_every, std::string message)
      : calls_(calls), fail_every_(fail_every), message_(std::move(message)) {}
  HttpResponse Perform(const HttpRequest& request) override {
    HttpResponse r;
    if (request.method == "HEAD") {
      r.status = 200;
      r.headers["content-length"] = std::to_string(kObjectBytes);
      return r;
    }
    uint64_t n = calls_->fetch_add(1) + 1;
    r.timing.ttfb_s = r.timing.total_s = 0.001;
    if (fail_every_ > 0 && n % static_cast<uint64_t>(fail_every_) == 0) {
      r.status = 503;
      r.headers["x-ms-error-code"] = "ServerBusy";
      r.body = "<Error><Code>ServerBusy</Code><Message>" + message_ + "</Message></Error>";
      return r;
    }
    r.status = 206;
    uint64_t length = 4096;
    for (auto& [name, value] : request.headers) {
      unsigned long long a = 0, b = 0;
      if (name == "Range" && std::sscanf(value.c_str(), "bytes=%llu-%llu", &a, &b) == 2)
        length = b - a + 1;
    }
    r.body_bytes = length;
    if (request.body_counter) request.body_counter->fetch_add(length);
    return r;
  }

 private:
  std::atomic<uint64_t>* calls_;
  int fail_every_;
  std::string message_;
};

HttpProbeEnv FakeEnv(std::atomic<uint64_t>* calls, int fail_every, const std::string& message) {
  HttpProbeEnv env;
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/c/big.bin", {}, &env.target, nullptr));
  env.make_client = [=]() -> std::unique_ptr<HttpClient> {
    return std::make_unique<ThrottlingServer>(calls, fail_every, message);
  };
  return env;
}

// A TCP listener that never accepts: connects succeed (the kernel completes the handshake),
// requests are never answered.
struct SilentListener {
  int fd = -1;
  int port = 0;
  SilentListener() {
    fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(listen(fd, 64) == 0);
    socklen_t len = sizeof addr;
    getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    port = ntohs(addr.sin_port);
  }
  ~SilentListener() { close(fd); }
};

}  // namespace

TEST_CASE("egress throttling is counted, retried with bounds and still measured") {
  std::atomic<uint64_t> calls{0};
  HttpProbeEnv env = FakeEnv(&calls, 5, "Egress is over the account limit.");
  env.budget.duration_s = 1.5;
  env.budget.max_requests = 2000;
  ThroughputProbeOptions o;
  o.concurrency = 2;
  o.block_bytes = 1 << 20;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  const FactSet& f = out.result.evidence.facts;
  CHECK(out.result.status == ProbeStatus::kPartial);
  CHECK(f.Number("probe.errors.throttled_egress").value_or(0) > 0);
  CHECK(f.Number("probe.errors.throttled_requests") == 0.0);
  CHECK(f.Number("probe.errors.retries").value_or(0) > 0);
  CHECK(f.Number("probe.errors.http.503") == f.Number("probe.errors.throttled_egress"));
  CHECK(out.result.requests_sent <= 2000);
  CHECK(out.result.elapsed_s < 2.0);
  CHECK(out.result.message.find("ServerBusy") != std::string::npos);
}

TEST_CASE("request-rate throttling is told apart from egress throttling") {
  std::atomic<uint64_t> calls{0};
  HttpProbeEnv env = FakeEnv(&calls, 3, "Operations per second is over the account limit.");
  env.budget.max_requests = 60;
  LatencyProbeOptions o;
  o.requests = 30;
  LatencyProbeResult out = RunLatencyProbe(env, o);
  const FactSet& f = out.result.evidence.facts;
  CHECK(f.Number("probe.errors.throttled_requests").value_or(0) > 0);
  CHECK(f.Number("probe.errors.throttled_egress") == 0.0);
  CHECK(out.result.requests_sent <= 60);
}

TEST_CASE("a server that always throttles makes the probe end within its budget") {
  std::atomic<uint64_t> calls{0};
  HttpProbeEnv env = FakeEnv(&calls, 1, "Egress is over the account limit.");
  env.budget.duration_s = 1;
  ThroughputProbeOptions o;
  o.concurrency = 4;
  o.max_retries = 2;
  ThroughputProbeResult out = RunThroughputProbe(env, o);
  CHECK(out.result.status == ProbeStatus::kFailed);
  CHECK(out.result.elapsed_s < 1.5);
  // Each block gets at most 1 + max_retries attempts.
  const FactSet& f = out.result.evidence.facts;
  CHECK(*f.Number("probe.errors.retries") <= 2 * *f.Number("probe.errors.total") / 3 + 4);
}

TEST_CASE("a server that never answers: probes time out within the duration budget") {
  SilentListener silent;
  std::string url = "http://127.0.0.1:" + std::to_string(silent.port) + "/big.bin";
  for (int which = 0; which < 2; ++which) {
    HttpProbeEnv env;
    REQUIRE(ParseTarget(url, {}, &env.target, nullptr));
    env.make_client = [] { return std::make_unique<CurlHttpClient>(); };
    env.budget.duration_s = 1.5;
    auto start = std::chrono::steady_clock::now();
    ProbeResult r =
        which == 0 ? RunLatencyProbe(env, {}).result : RunThroughputProbe(env, {}).result;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.message);
    CHECK(wall < 2.0);
    CHECK(r.status != ProbeStatus::kOk);
    CHECK(r.message.find("timed out") != std::string::npos);
  }
}
