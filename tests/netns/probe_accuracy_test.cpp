// Accuracy of the real probes over an emulated 1 Gbit/s, 20 ms RTT link (docs/safety.md,
// "Accuracy over a real link"):
// `feedcheck probe throughput|latency URL --json` runs inside the client namespace against
// nginx in the server namespace; the facts it prints are checked against the link's settings.
#include <catch2/catch.hpp>
#include <string>

#include "tests/netns/probe_in_client.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

// The link this file's bars are stated for: 1 Gbit/s, 10 ms each way.
nlohmann::json RunProbeOnStatedLink(const std::string& args) {
  REQUIRE(EnvOr("NETNS_RATE", "") == "1gbit");
  REQUIRE(EnvOr("NETNS_ONE_WAY_DELAY_MS", "") == "10");
  return RunProbeInClient(args);
}

}  // namespace

TEST_CASE("the throughput probe reports 0.93-0.97 Gbit/s over a 1 Gbit/s link",
          "[netns][throughput]") {
  // The tbf-only link: tbf is exact at the wire level, so 1 Gbit/s of wire bytes is 0.956 Gbit/s
  // of goodput (1448/1514). 4 connections x 4 MiB ranges for 12 s; warm-up is excluded by the
  // probe itself. The same bar over the delayed link is the next test.
  nlohmann::json facts =
      RunProbeOnStatedLink("throughput " + ShellQuote(EnvOr("NETNS_RATE_URL", "") + "/1g.bin") +
                           " --concurrency 4 --block-size 4MiB --duration 12s");
  auto gbps = FindFactNumber(facts, "probe.throughput.gbps");
  REQUIRE(gbps.has_value());
  INFO("probe.throughput.gbps = " << *gbps);
  CHECK(*gbps >= 0.93);
  CHECK(*gbps <= 0.97);
}

TEST_CASE("the latency probe's p50 and connect time are one 20 ms RTT", "[netns][latency]") {
  nlohmann::json facts = RunProbeOnStatedLink(
      "latency " + ShellQuote(EnvOr("NETNS_DELAY_URL", "") + "/4k.bin") +
      " --requests 200 --head-requests 20 --new-connections 10 --duration 20s");
  auto p50_ms = FindFactNumber(facts, "probe.latency.ttfb_p50_ms");
  auto connect_ms = FindFactNumber(facts, "probe.latency.connect_ms");
  REQUIRE(p50_ms.has_value());
  REQUIRE(connect_ms.has_value());
  INFO("ttfb p50 " << *p50_ms << " ms, connect " << *connect_ms << " ms");
  CHECK(*p50_ms >= 20.0);
  CHECK(*p50_ms <= 22.0);
  CHECK(*connect_ms >= 20.0);
  CHECK(*connect_ms <= 22.0);
}

TEST_CASE("the throughput probe reports 0.93-0.97 Gbit/s over 1 Gbit/s with a 20 ms RTT",
          "[netns][delayed]") {
  // DESIGN's accuracy bar as stated: rate and delay on one link. The delay wire forwards GSO
  // super-packets and costs about an eighth of a core at this rate (docs/performance.md), so the
  // figure measures the probe and the link, not the wire. 4 connections keep 4 MiB ranges in
  // flight across the 2.5 MB bandwidth-delay product.
  nlohmann::json facts =
      RunProbeOnStatedLink("throughput " + ShellQuote(EnvOr("NETNS_DELAY_URL", "") + "/1g.bin") +
                           " --concurrency 4 --block-size 4MiB --duration 12s");
  auto gbps = FindFactNumber(facts, "probe.throughput.gbps");
  REQUIRE(gbps.has_value());
  INFO("probe.throughput.gbps = " << *gbps);
  CHECK(*gbps >= 0.93);
  CHECK(*gbps <= 0.97);
}
