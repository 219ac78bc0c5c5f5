// Accuracy of the auto concurrency sweep and of the small-file fit over emulated links: the
// real `feedcheck probe throughput|smallfiles URL --json` in the client namespace against nginx
// in the server namespace (with_link.sh sets the link; its rate and delay come from the
// environment). The sweep's knee must be where the bandwidth-delay product puts it and fill
// the link without claiming more than it; the small-file fit
// must give the same overhead and aggregate bandwidth at three concurrencies, never above the
// link's rate.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <string>

#include "tests/netns/probe_in_client.h"
#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

double LinkGbps() {
  std::string rate = EnvOr("NETNS_RATE", "");
  REQUIRE(rate.size() > 4);
  REQUIRE(rate.substr(rate.size() - 4) == "mbit");
  return std::stod(rate.substr(0, rate.size() - 4)) / 1000;
}

double RttMs() { return 2 * std::stod(EnvOr("NETNS_ONE_WAY_DELAY_MS", "0")); }

// The delayed address when the link has a delay, else the rate-only one (no relay at all).
std::string Url(const std::string& file) {
  return EnvOr(RttMs() > 0 ? "NETNS_DELAY_URL" : "NETNS_RATE_URL", "") + "/" + file;
}

}  // namespace

TEST_CASE("the auto sweep's knee is where the bandwidth-delay product puts it", "[knee]") {
  // One connection reading 4 MiB ranges moves a block in T = 4 MiB / goodput, then waits one
  // RTT for the next request's first byte; connections spread over that cycle (the probe
  // staggers them) fill the link once N x T >= RTT + T: 1 at 0 ms, 2 at 10 ms, 3 at 50 ms on
  // 1 Gbit/s. Started together they would need 1, 3 and 6-8 (docs/performance.md). One sweep
  // here; scripts/bench-knee.sh repeats it 3 times per link for the "same knee 3/3" bar.
  const double goodput_gbps = LinkGbps() * 0.956;  // tbf counts wire bytes: 1448 of 1514
  const double block_ms = 4.0 * (1 << 20) * 8 / (goodput_gbps * 1e9) * 1e3;
  const int bdp_knee = static_cast<int>(std::ceil((RttMs() + block_ms) / block_ms));
  // One sweep, no second chance: a step whose connections were held below the link for its
  // whole run (a BBR server's stale pacing: 3 connections at 0.755 Gbit/s at 50 ms in 2 of 18
  // sweeps before) is the probe's to re-measure, and it does (probe.throughput.runs_set_aside).
  nlohmann::json j = RunProbeInClient("throughput " + ShellQuote(Url("1g.bin")) +
                                      " --concurrency auto --block-size 4MiB --duration 24s");
  std::optional<double> knee = FindFactNumber(j, "probe.throughput.best_concurrency");
  std::optional<double> gbps = FindFactNumber(j, "probe.throughput.knee_gbps");
  std::optional<double> noise = FindFactNumber(j, "probe.throughput.knee_noise_gbps");
  std::optional<double> cycle_ms = FindFactNumber(j, "probe.throughput.request_cycle_ms");
  CHECK(FindFactNumber(j, "probe.throughput.runs_set_aside").has_value());  // a sweep says so
  REQUIRE(knee.has_value());
  REQUIRE(gbps.has_value());
  REQUIRE(noise.has_value());
  std::string steps;
  for (const auto& s : j["evidence"]["series"])
    if (s.value("key", "") == "probe.throughput.by_concurrency") steps = s["points"].dump();
  WARN("RTT " << RttMs() << " ms, server " << EnvOr("NETNS_SERVER_CC", "?") << ": knee " << *knee
              << " at " << *gbps << " +- " << *noise << " Gbit/s (BDP knee " << bdp_knee
              << "), cycle " << cycle_ms.value_or(-1) << " ms, runs set aside "
              << FindFactNumber(j, "probe.throughput.runs_set_aside").value_or(-1) << "; steps "
              << steps);
  CHECK(*knee == bdp_knee);
  CHECK(*gbps >= goodput_gbps * 0.9);  // the knee fills the link
  CHECK(*gbps <= LinkGbps());          // and never claims more than it
  // The band is measured (never a bare number) and is a band, not the rate itself; how
  // wide it is says how loaded the machine was (0.001-0.07 Gbit/s seen).
  CHECK(*noise > 0);
  CHECK(*noise < *gbps * 0.25);
  if (*knee > 1) {
    // The connections were spread over one connection's cycle: a round trip plus a block.
    REQUIRE(cycle_ms.has_value());
    CHECK(*cycle_ms >= RttMs() + block_ms * 0.9);
    CHECK(*cycle_ms <= (RttMs() + block_ms) * 1.5 + 2);
  }
}

TEST_CASE("the small-file fit is the same at 1, 4 and 8 connections", "[smallfile]") {
  const double link_gbps = LinkGbps();
  std::vector<double> overhead_ms, bandwidth_gbps;
  for (int concurrency : {1, 4, 8}) {
    nlohmann::json j = RunProbeInClient(
        "smallfiles " + ShellQuote(Url("1g.bin")) + " --concurrency " +
        std::to_string(concurrency) +
        " --sizes 4KiB,16KiB,64KiB,256KiB,1MiB,4MiB,16MiB --requests-per-size 16 --duration 40s");
    auto o = FindFactNumber(j, "probe.smallfile.overhead_ms");
    auto b = FindFactNumber(j, "probe.smallfile.bandwidth_gbps");
    auto be = FindFactNumber(j, "probe.smallfile.breakeven_bytes");
    auto be1 = FindFactNumber(j, "probe.smallfile.breakeven_bytes_one_stream");
    REQUIRE(o.has_value());
    REQUIRE(b.has_value());
    REQUIRE(be.has_value());
    REQUIRE(be1.has_value());
    WARN("concurrency " << concurrency << ": overhead " << *o << " ms, bandwidth " << *b
                        << " Gbit/s, break-even " << *be << " B (" << *be1
                        << " B one at a time), fit r2 "
                        << FindFactNumber(j, "probe.smallfile.fit_r2").value_or(-1));
    // The aggregate bandwidth is the link's, never above its rate.
    CHECK(*b <= link_gbps);
    CHECK(*b >= link_gbps * 0.85);
    // The overhead is about one round trip, whatever the concurrency.
    CHECK(*o >= RttMs() * 0.9);
    CHECK(*o <= RttMs() * 2 + 2);
    CHECK(*be == Approx(*be1 / concurrency).epsilon(1e-6));
    overhead_ms.push_back(*o);
    bandwidth_gbps.push_back(*b);
  }
  auto spread = [](const std::vector<double>& v) {
    return *std::max_element(v.begin(), v.end()) / *std::min_element(v.begin(), v.end());
  };
  CHECK(spread(bandwidth_gbps) <= 1.1);
  CHECK(spread(overhead_ms) <= 1.5);
}
