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

// The delay relay is a userspace process: at 1 Gbit/s it needs most of a core, and on a 2-core
// machine it competes with nginx and the client, so this link's rate varies more (0.82-0.96
// Gbit/s seen in runs of the whole label). Rate accuracy is therefore measured on the tbf-only
// link; this test only checks that the delayed link is a working ~1 Gbit/s wire.
TEST_CASE("the delayed link carries 0.80-0.97 Gbit/s on one connection (slow start included)",
          "[netns][link]") {
  RequireLink();
  double gbps = CurlGbps(EnvOr("NETNS_DELAY_URL", ""), 512l << 20);
  INFO("curl goodput " << gbps << " Gbit/s");
  CHECK(gbps >= 0.80);
  CHECK(gbps <= 0.97);
}
