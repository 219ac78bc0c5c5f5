// Calibration of the emulated link itself, measured with the curl CLI from the client
// namespace: if these fail, the probe accuracy tests cannot mean anything. Run through
// with_link.sh (1 Gbit/s, 10 ms each way), which exports NETNS_*.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/support/subprocess.h"

using namespace feedcheck::testing;

namespace {

std::string InClient(const std::string& command) {
  return "ip netns exec " + ShellQuote(EnvOr("NETNS_CLIENT", "")) + " " + command;
}

void RequireLink() {
  REQUIRE(EnvOr("NETNS_CLIENT", "") != "");
  REQUIRE(EnvOr("NETNS_RATE", "") == "1gbit");
  REQUIRE(EnvOr("NETNS_ONE_WAY_DELAY_MS", "") == "10");
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Downloads `bytes` of the sparse 1 GiB file and returns curl's goodput in Gbit/s.
double CurlGbps(const std::string& base_url, long bytes) {
  CommandResult r =
      RunCommand(InClient("curl -sS -o /dev/null --max-time 30 -r 0-" + std::to_string(bytes - 1) +
                          " -w '%{speed_download}' " + ShellQuote(base_url + "/1g.bin")));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return std::stod(r.out) * 8 / 1e9;
}

}  // namespace

TEST_CASE("a new TCP connection over the delayed link takes one 20 ms RTT", "[netns][link]") {
  RequireLink();
  std::vector<double> connect_ms;
  for (int i = 0; i < 7; ++i) {
    CommandResult r =
        RunCommand(InClient("curl -sS -o /dev/null --max-time 5 -w '%{time_connect}' " +
                            ShellQuote(EnvOr("NETNS_DELAY_URL", "") + "/4k.bin")));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    connect_ms.push_back(std::stod(r.out) * 1000);
  }
  double median_ms = Median(connect_ms);
  INFO("median connect " << median_ms << " ms");
  CHECK(median_ms >= 20.0);
  CHECK(median_ms <= 22.0);
}

TEST_CASE("the rate-only link carries 0.93-0.97 Gbit/s of goodput under tbf 1gbit",
          "[netns][link]") {
  RequireLink();
  // The best of three downloads: other work on a 2-core machine can only slow one down (a CI
  // run once measured a single download at 0.929), never make the link faster than it is, so
  // the best is the link's capacity and the upper bound still catches a link that is too fast.
  std::vector<double> runs;
  for (int i = 0; i < 3; ++i) runs.push_back(CurlGbps(EnvOr("NETNS_RATE_URL", ""), 256l << 20));
  double gbps = *std::max_element(runs.begin(), runs.end());
  INFO("curl goodput, best of " << runs[0] << ", " << runs[1] << ", " << runs[2] << ": " << gbps
                                << " Gbit/s");
  CHECK(gbps >= 0.93);
  CHECK(gbps <= 0.97);
}

// The delayed link: the TUN wire forwards GSO super-packets from a fixed ring, so it costs about an
// eighth of a core at 1 Gbit/s and keeps up with tbf (before, it kept every packet buffer and
// needed most of a core: 0.65-0.71 Gbit/s on a quiet machine). One connection pays slow start
// over 20 ms (about 8 RTTs to open a 2.5 MB window), a few percent of a 512 MiB transfer; the best
// of two downloads, as above, since other work can only slow one down.
TEST_CASE("the delayed link carries 0.90-0.97 Gbit/s on one connection (slow start included)",
          "[netns][link]") {
  RequireLink();
  std::vector<double> runs;
  for (int i = 0; i < 2; ++i) runs.push_back(CurlGbps(EnvOr("NETNS_DELAY_URL", ""), 512l << 20));
  double gbps = *std::max_element(runs.begin(), runs.end());
  INFO("curl goodput, best of " << runs[0] << ", " << runs[1] << ": " << gbps << " Gbit/s");
  CHECK(gbps >= 0.90);
  CHECK(gbps <= 0.97);
}
