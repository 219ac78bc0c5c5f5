#include "probes/smallfile_probe.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>

#include "fixture_tree.h"
#include "tests/fakes/scripted_http_client.h"

using namespace feedcheck;
using feedcheck::testing::FixtureTree;
using feedcheck::testing::ScriptedHttpClient;

TEST_CASE("plans use objects near each size, else ranges of a larger one", "[probes][smallfile]") {
  std::vector<ListedEntry> objects = {{"s/4k-a", 4096, false},
                                      {"s/4k-b", 4000, false},
                                      {"s/big", 10ull << 20, false},
                                      {"s/huge", 100ull << 20, false},
                                      {"s/dir", 0, true}};
  SmallFileOptions o;
  o.sizes = {4096, 1ull << 20, 64ull << 20, 256ull << 20};
  o.requests_per_size = 4;
  auto plans = PlanSmallFileReads(objects, o, 1ull << 40);
  REQUIRE(plans.size() == 3);  // nothing holds 256 MiB
  CHECK(plans[0].size == 4096);
  REQUIRE(plans[0].reads.size() == 4);
  CHECK_FALSE(plans[0].reads[0].ranged);
  CHECK(plans[0].reads[0].name == "s/4k-a");
  CHECK(plans[0].reads[1].name == "s/4k-b");
  CHECK(plans[0].reads[1].bytes == 4000);
  CHECK(plans[1].reads[0].ranged);
  CHECK(plans[1].reads[0].name == "s/big");  // the smallest object that is large enough
  CHECK(plans[1].reads[3].offset == 3ull << 20);
  CHECK(plans[2].reads[0].name == "s/huge");
}

TEST_CASE("plans shrink big sizes to fit the byte budget", "[probes][smallfile]") {
  std::vector<ListedEntry> objects = {{"huge", 1ull << 30, false}};
  SmallFileOptions o;
  o.sizes = {4096, 64ull << 20};
  o.requests_per_size = 16;
  auto plans = PlanSmallFileReads(objects, o, 256ull << 20);  // 128 MiB per size
  REQUIRE(plans.size() == 2);
  CHECK(plans[0].reads.size() == 16);
  CHECK(plans[1].reads.size() == 2);
  uint64_t total = 0;
  for (const auto& p : plans)
    for (const auto& r : p.reads) total += r.bytes;
  CHECK(total <= (256ull << 20));
  CHECK(PlanSmallFileReads(objects, o, 1ull << 20).size() == 1);  // 64 MiB x 2 never fits
}

TEST_CASE("fit from a fake server with known overhead and bandwidth", "[probes][smallfile]") {
  // A path of 100 MB/s shared by the probe's 2 connections: a GET "takes" 5 ms + size / 100 MB/s
  // when small, 2 x size / 100 MB/s when the two share the path (the two asymptotes). The fit
  // must recover the overhead and the aggregate bandwidth, not its half.
  auto client = std::make_shared<ScriptedHttpClient>([](const HttpRequest& r) {
    HttpResponse resp;
    if (r.url.find("comp=list") != std::string::npos) {
      resp.status = 200;
      resp.body =
          "<EnumerationResults><Blobs><Blob><Name>big</Name><Properties><Content-Length>"
          "67108864</Content-Length></Properties></Blob></Blobs><NextMarker/></EnumerationResults>";
      return resp;
    }
    uint64_t bytes = 0;
    for (const auto& [k, v] : r.headers) {
      if (k != "x-ms-range") continue;
      auto dash = v.find('-');
      bytes = std::stoull(v.substr(dash + 1)) - std::stoull(v.substr(6, dash - 6)) + 1;
    }
    resp.status = 206;
    resp.body_bytes = bytes;
    resp.timing.total_s =
        std::max(0.005 + static_cast<double>(bytes) / 1e8, 2 * static_cast<double>(bytes) / 1e8);
    return resp;
  });
  HttpProbeEnv env;
  std::string error;
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/data/", {}, &env.target, &error));
  env.signer = RequestSigner(AuthConfig{}, true);
  env.make_client = [client]() -> std::unique_ptr<HttpClient> {
    struct Forward : HttpClient {
      std::shared_ptr<ScriptedHttpClient> c;
      HttpResponse Perform(const HttpRequest& r) override { return c->Perform(r); }
    };
    auto f = std::make_unique<Forward>();
    f->c = client;
    return f;
  };
  SmallFileOptions o;
  o.sizes = {4096, 1ull << 20, 16ull << 20};
  o.requests_per_size = 3;
  o.concurrency = 2;
  auto r = RunSmallFileProbe(env, o);
  INFO(r.message);
  REQUIRE(r.status == ProbeStatus::kOk);
  const FactSet& f = r.evidence.facts;
  CHECK(f.Number("probe.smallfile.overhead_ms").value() == Approx(5.0).epsilon(1e-6));
  CHECK(f.Number("probe.smallfile.bandwidth_gbps").value() == Approx(0.8).epsilon(1e-6));
  // 5 ms x 100 MB/s shared 2 ways; one request at a time would break even at twice that.
  CHECK(f.Number("probe.smallfile.breakeven_bytes").value() == Approx(250000).epsilon(1e-6));
  CHECK(f.Number("probe.smallfile.breakeven_bytes_one_stream").value() ==
        Approx(500000).epsilon(1e-6));
  const Series* s = r.evidence.FindSeries("probe.smallfile.time_by_size");
  REQUIRE(s != nullptr);
  REQUIRE(s->points.size() == 3);
  CHECK(s->points[0].y == Approx(5.04096));
  REQUIRE(r.evidence.FindSeries("probe.smallfile.fit") != nullptr);
}

TEST_CASE("throttled reads are counted by kind", "[probes][smallfile]") {
  // Every third GET is refused for the account's request rate.
  std::atomic<int> gets{0};
  auto client = std::make_shared<ScriptedHttpClient>([&gets](const HttpRequest& r) {
    HttpResponse resp;
    if (r.url.find("comp=list") != std::string::npos) {
      resp.status = 200;
      resp.body =
          "<EnumerationResults><Blobs><Blob><Name>big</Name><Properties><Content-Length>"
          "16777216</Content-Length></Properties></Blob></Blobs><NextMarker/></EnumerationResults>";
      return resp;
    }
    if (++gets % 3 == 0) {
      resp.status = 503;
      resp.body =
          "<?xml version=\"1.0\"?><Error><Code>ServerBusy</Code><Message>Operations per second "
          "is over the account limit.</Message></Error>";
      resp.timing.total_s = 0.002;
      return resp;
    }
    uint64_t bytes = 0;
    for (const auto& [k, v] : r.headers) {
      if (k != "x-ms-range") continue;
      auto dash = v.find('-');
      bytes = std::stoull(v.substr(dash + 1)) - std::stoull(v.substr(6, dash - 6)) + 1;
    }
    resp.status = 206;
    resp.body_bytes = bytes;
    resp.timing.total_s = 0.005 + static_cast<double>(bytes) / 1e8;
    return resp;
  });
  HttpProbeEnv env;
  std::string error;
  REQUIRE(ParseTarget("https://acct.blob.core.windows.net/data/", {}, &env.target, &error));
  env.signer = RequestSigner(AuthConfig{}, true);
  env.make_client = [client]() -> std::unique_ptr<HttpClient> {
    struct Forward : HttpClient {
      std::shared_ptr<ScriptedHttpClient> c;
      HttpResponse Perform(const HttpRequest& r) override { return c->Perform(r); }
    };
    auto f = std::make_unique<Forward>();
    f->c = client;
    return f;
  };
  SmallFileOptions o;
  o.sizes = {4096, 1ull << 20};
  o.requests_per_size = 6;
  o.concurrency = 1;
  auto r = RunSmallFileProbe(env, o);
  // 1 warm-up + 12 measured GETs: every third of the 13 refused.
  CHECK(r.status == ProbeStatus::kPartial);
  const FactSet& f = r.evidence.facts;
  CHECK(f.Number("probe.errors.throttled_requests").value_or(-1) == 4);
  CHECK(f.Number("probe.errors.throttled_egress").value_or(-1) == 0);
  CHECK(f.Number("probe.errors.http.503").value_or(-1) == 4);
}

TEST_CASE("local small files: open/read/close per size", "[probes][smallfile][local]") {
  FixtureTree t;
  for (int i = 0; i < 4; ++i) {
    t.Write("s/a" + std::to_string(i), std::string(4096, 'a'));
    t.Write("s/b" + std::to_string(i), std::string(256 << 10, 'b'));
  }
  t.Write("big.bin", std::string(4 << 20, 'c'));
  SmallFileOptions o;
  o.sizes = {4096, 256 << 10, 1 << 20};
  o.requests_per_size = 8;
  o.concurrency = 2;
  auto r = RunLocalSmallFileProbe(t.root(), o, ProbeBudget{}, nullptr);
  INFO(r.message);
  REQUIRE(r.status == ProbeStatus::kOk);
  const Series* s = r.evidence.FindSeries("probe.smallfile.time_by_size");
  REQUIRE(s != nullptr);
  CHECK(s->points.size() == 3);
  CHECK(r.bytes_received >= 8 * (4096 + (256 << 10) + (1 << 20)));
  CHECK(r.evidence.facts.Number("probe.smallfile.concurrency") == std::optional<double>(2));

  auto none =
      RunLocalSmallFileProbe(t.Path("s"), SmallFileOptions{{64ull << 20}}, ProbeBudget{}, nullptr);
  CHECK(none.status == ProbeStatus::kFailed);
  CHECK(none.message.find("--create-test-data") != std::string::npos);
}
