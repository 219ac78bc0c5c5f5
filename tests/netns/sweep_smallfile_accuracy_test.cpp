// Accuracy of the auto concurrency sweep and of the small-file fit over emulated links: the
// real `feedcheck probe throughput|smallfiles URL --json` in the client namespace against nginx
// in the server namespace (with_link.sh sets the link; its rate and delay come from the
// environment). The sweep's knee must fill the link, never sit below the ideal pipe's count,
// and be the same in three runs without delay (neighbouring counts with it); the small-file fit
// must give the same overhead and aggregate bandwidth at three concurrencies, never above the
// link's rate.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
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

TEST_CASE("the auto sweep's knee fills the link and holds over three runs", "[knee]") {
  // One connection reading 4 MiB ranges moves a block in T = 4 MiB / goodput, then waits one
  // RTT for the next request's first byte: ceil((RTT + T) / T) connections fill the link.
  const double goodput_gbps = LinkGbps() * 0.956;  // tbf counts wire bytes: 1448 of 1514
  const double block_ms = 4.0 * (1 << 20) * 8 / (goodput_gbps * 1e9) * 1e3;
  const int bdp_knee = static_cast<int>(std::ceil((RttMs() + block_ms) / block_ms));
  std::vector<int> knees;
  for (int run = 0; run < 3; ++run) {
    nlohmann::json j = RunProbeInClient("throughput " + ShellQuote(Url("1g.bin")) +
                                        " --concurrency auto --block-size 4MiB --duration 24s");
    auto knee = FindFactNumber(j, "probe.throughput.best_concurrency");
    auto gbps = FindFactNumber(j, "probe.throughput.knee_gbps");
    auto noise = FindFactNumber(j, "probe.throughput.knee_noise_gbps");
    REQUIRE(knee.has_value());
    REQUIRE(gbps.has_value());
    REQUIRE(noise.has_value());
    std::string steps;
    for (const auto& s : j["evidence"]["series"])
      if (s.value("key", "") == "probe.throughput.by_concurrency") steps = s["points"].dump();
    WARN("RTT " << RttMs() << " ms, run " << run + 1 << ": knee " << *knee << " at " << *gbps
                << " +- " << *noise << " Gbit/s (BDP knee " << bdp_knee << "); steps " << steps);
    knees.push_back(static_cast<int>(*knee));
    CHECK(*gbps >= goodput_gbps * 0.9);  // the knee fills the link
    // The band is measured (never a bare number) and is a band, not the rate itself; how
    // wide it is says how loaded the machine was (0.001-0.07 Gbit/s seen).
    CHECK(*noise > 0);
    CHECK(*noise < *gbps * 0.25);
  }
  auto [fewest, most] = std::minmax_element(knees.begin(), knees.end());
  // Never fewer connections than an ideal pipe needs.
  CHECK(*fewest >= bdp_knee);
  if (RttMs() == 0) {
    CHECK(*fewest == *most);  // the bar: the same knee 3 times out of 3
  } else {
    // Measured 2026-11-24 (docs/performance.md): at 10 ms two connections give 0.88-0.92 of
    // the link's 0.96, three or four fill it, so the knee is 2 or 3 by the run; at 50 ms two
    // give only 0.57-0.62 (not the ideal pipe's 0.8) and the knee is 6 or 8. What holds:
    // neighbouring counts, never more than one and a half times apart.
    CHECK(*most <= *fewest * 3 / 2);
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
