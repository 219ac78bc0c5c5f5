#include "core/smallfile_fit.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using feedcheck::FitSmallFileCost;
using feedcheck::SizeClassTiming;

namespace {

const std::vector<double> kSizes = {4096,      16384,     65536,      262144,
                                    1048576.0, 4194304.0, 16777216.0, 67108864.0};

// A path with `overhead_s` per request and `bytes_per_s` shared by `concurrency` requests, at
// its two asymptotes (a closed system's bounds): a small read pays the overhead and one transfer
// at the full rate (transfers rarely overlap); a large one waits for all reads in flight.
std::vector<SizeClassTiming> SharedPath(double overhead_s, double bytes_per_s, double concurrency) {
  std::vector<SizeClassTiming> out;
  for (double s : kSizes) {
    double t = std::max(overhead_s + s / bytes_per_s, concurrency * s / bytes_per_s);
    out.push_back({s, t, concurrency});
  }
  return out;
}

}  // namespace

TEST_CASE("overhead and aggregate bandwidth do not depend on the concurrency") {
  // 200 Mbit/s (25 MB/s) and 10 ms: the shaped link the per-request fit got wrong.
  for (double c : {1.0, 4.0, 8.0}) {
    auto fit = FitSmallFileCost(SharedPath(0.010, 25e6, c));
    REQUIRE(fit);
    INFO("concurrency " << c);
    CHECK(fit->overhead_s == Approx(0.010).epsilon(0.01));
    CHECK(fit->aggregate_bytes_per_s == Approx(25e6).epsilon(0.01));
    CHECK(fit->BreakEvenBytes(c) == Approx(fit->BreakEvenBytes(1) / c));
    CHECK(fit->BreakEvenBytes(1) == Approx(250000).epsilon(0.02));
    CHECK(fit->r_squared > 0.8);  // the middle sizes sit between the two asymptotes
    CHECK(fit->bandwidth_from_large);
  }
}

TEST_CASE("slow start's extra round trips do not lift the bandwidth above the path's") {
  // 25 MB/s, 10 ms, one request at a time; a read on an idle connection restarts slow start
  // and pays about 3 extra round trips once it is larger than the bandwidth-delay product
  // (250 KB), less below. One relative-weight line through every point bends at the step and
  // overstated the bandwidth (0.206 Gbit/s on a 200 Mbit/s link); the large classes give the
  // path's own, and the extra round trips land in the overhead.
  auto classes = SharedPath(0.010, 25e6, 1);
  for (auto& c : classes) c.median_s += 0.030 * std::min(1.0, c.size_bytes / 250e3);
  auto fit = FitSmallFileCost(classes);
  REQUIRE(fit);
  CHECK(fit->bandwidth_from_large);
  CHECK(fit->aggregate_bytes_per_s == Approx(25e6).epsilon(0.005));
  CHECK(fit->overhead_s >= 0.010);
  CHECK(fit->overhead_s <= 0.025);
}

TEST_CASE("fewer requests in flight than workers share the path fewer ways") {
  // The 64 MiB class had only 2 reads (byte budget) at concurrency 8: in flight 2, not 8.
  auto classes = SharedPath(0.005, 100e6, 8);
  classes.back().in_flight = 2;
  classes.back().median_s = 2 * kSizes.back() / 100e6;
  auto fit = FitSmallFileCost(classes);
  REQUIRE(fit);
  CHECK(fit->aggregate_bytes_per_s == Approx(100e6).epsilon(0.01));
}

TEST_CASE("unfair sharing: the mean, not the median, gives the path's rate") {
  // 4 reads in flight on 25 MB/s, two connections twice as fast as the other two: the fast
  // ones finish two reads per slow one, so two thirds of the reads are fast and the median
  // time is a fast read's, 2/3 of the mean. Little's law on the mean gives the link's rate.
  auto classes = SharedPath(0.010, 25e6, 4);
  for (auto& c : classes) {
    if (c.median_s < 0.1) continue;  // transfer-dominated classes only
    c.mean_s = c.median_s;
    c.median_s = c.mean_s * 2 / 3;
  }
  auto fit = FitSmallFileCost(classes);
  REQUIRE(fit);
  CHECK(fit->aggregate_bytes_per_s == Approx(25e6).epsilon(0.01));
}

TEST_CASE("no fit without two sizes or when time does not grow with size") {
  CHECK_FALSE(FitSmallFileCost({}));
  CHECK_FALSE(FitSmallFileCost({{4096, 0.01, 1}}));
  CHECK_FALSE(FitSmallFileCost({{4096, 0.02, 1}, {1 << 20, 0.01, 1}}));
  CHECK_FALSE(FitSmallFileCost({{4096, 0.0, 1}, {1 << 20, 0.01, 1}}));  // one usable point
  // Bad in-flight values count as one request.
  auto fit =
      FitSmallFileCost({{4096, 0.010 + 4096 / 1e8, NAN}, {1 << 20, 0.010 + (1 << 20) / 1e8, 0}});
  REQUIRE(fit);
  CHECK(fit->aggregate_bytes_per_s == Approx(1e8).epsilon(1e-6));
}
