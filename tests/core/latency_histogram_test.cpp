#include "core/latency_histogram.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

using feedcheck::LatencyHistogram;

namespace {

// Nearest-rank percentile of the raw samples: the definition the histogram follows.
double ExactPercentile(std::vector<uint64_t> v, double q) {
  std::sort(v.begin(), v.end());
  auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
  rank = std::clamp<size_t>(rank, 1, v.size());
  return static_cast<double>(v[rank - 1]) / 1e9;
}

std::vector<uint64_t> LogNormalNanos(unsigned seed, size_t n, double median_ns) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(median_ns), 1.2);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint64_t>(dist(rng)) + 1);
  return out;
}

}  // namespace

TEST_CASE("every bucket maps back within 3 significant digits") {
  for (uint64_t v :
       {0ull, 1ull, 63ull, 64ull, 65ull, 127ull, 128ull, 1000ull, 1023ull, 1024ull, 1025ull,
        2047ull, 2048ull, 2049ull, 4095ull, 123456789ull, (1ull << 40) - 1, 1ull << 40}) {
    double mid = LatencyHistogram::BucketMidNanos(LatencyHistogram::BucketIndex(v));
    if (v < 2048) {  // width-1 buckets: exact
      CHECK(mid == static_cast<double>(v));
    } else {
      CHECK(std::abs(mid - static_cast<double>(v)) / static_cast<double>(v) <=
            LatencyHistogram::kRelativeError);
    }
  }
  CHECK(LatencyHistogram::kRelativeError <= 0.0005);
}

TEST_CASE("percentiles are within 1% of the exact percentiles") {
  auto samples = LogNormalNanos(1, 20000, 2e6);
  LatencyHistogram h;
  for (uint64_t s : samples) h.RecordNanos(s);
  REQUIRE(h.count() == samples.size());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    double exact = ExactPercentile(samples, q);
    CHECK(std::abs(h.PercentileSeconds(q) - exact) / exact <= LatencyHistogram::kRelativeError);
  }
  CHECK(h.PercentileSeconds(1.0) == ExactPercentile(samples, 1.0));
  CHECK(h.max_s() == ExactPercentile(samples, 1.0));
}

TEST_CASE("merged histograms give the percentiles of all samples together") {
  // Three "ranks" with different distributions, as a multi-node run would have.
  auto a = LogNormalNanos(2, 5000, 1e6);
  auto b = LogNormalNanos(3, 7000, 5e6);
  auto c = LogNormalNanos(4, 300, 40e6);
  LatencyHistogram ha, hb, hc;
  for (auto s : a) ha.RecordNanos(s);
  for (auto s : b) hb.RecordNanos(s);
  for (auto s : c) hc.RecordNanos(s);
  LatencyHistogram merged;
  merged.Merge(ha);
  merged.Merge(hb);
  merged.Merge(hc);
  std::vector<uint64_t> all = a;
  all.insert(all.end(), b.begin(), b.end());
  all.insert(all.end(), c.begin(), c.end());
  REQUIRE(merged.count() == all.size());
  for (double q : {0.5, 0.9, 0.99, 0.999, 1.0}) {
    double exact = ExactPercentile(all, q);
    CHECK(std::abs(merged.PercentileSeconds(q) - exact) / exact <=
          LatencyHistogram::kRelativeError);
  }
}

TEST_CASE("histograms survive the counts array and JSON") {
  auto samples = LogNormalNanos(5, 3000, 3e5);
  LatencyHistogram h;
  for (auto s : samples) h.RecordNanos(s);
  auto back = LatencyHistogram::FromCounts(h.counts(), h.min_ns(), h.max_ns(), h.sum_ns());
  REQUIRE(back);
  CHECK(back->PercentileSeconds(0.99) == h.PercentileSeconds(0.99));
  std::string error;
  auto from_json = LatencyHistogram::FromJson(nlohmann::json::parse(h.ToJson().dump()), &error);
  REQUIRE(from_json);
  CHECK(from_json->count() == h.count());
  CHECK(from_json->PercentileSeconds(0.5) == h.PercentileSeconds(0.5));
  CHECK(from_json->mean_s() == Approx(h.mean_s()));
}

namespace {

// The accuracy bar (p99 and p999 within 1% or 0.1 ms of the exact order statistic) and the
// layout's own, tighter one (half a bucket: 1/2048 of the value).
void CheckTails(const std::vector<uint64_t>& samples, const char* what) {
  LatencyHistogram h;
  for (uint64_t s : samples) h.RecordNanos(s);
  REQUIRE(h.count() == samples.size());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    double exact = ExactPercentile(samples, q);
    double got = h.PercentileSeconds(q);
    INFO(what << ": q " << q << " exact " << exact << " s, histogram " << got << " s");
    CHECK(std::abs(got - exact) <= std::max(0.01 * exact, 1e-4));
    CHECK(std::abs(got - exact) <= LatencyHistogram::kRelativeError * exact * (1 + 1e-9));
  }
  CHECK(h.PercentileSeconds(1.0) == ExactPercentile(samples, 1.0));
}

}  // namespace

TEST_CASE("p99 and p999 match exact order statistics of random samples") {
  std::mt19937_64 rng(17);
  SECTION("log-normal around 5 ms and 20 ms") {
    CheckTails(LogNormalNanos(7, 100000, 5e6), "log-normal 5 ms");
    CheckTails(LogNormalNanos(8, 100000, 20e6), "log-normal 20 ms");
  }
  SECTION("log-uniform from 1 us to 60 s") {
    std::uniform_real_distribution<double> exponent(std::log(1e3), std::log(60e9));
    std::vector<uint64_t> v;
    for (int i = 0; i < 50000; ++i) v.push_back(static_cast<uint64_t>(std::exp(exponent(rng))));
    CheckTails(v, "log-uniform");
  }
  SECTION("Pareto tail (alpha 1.1) over a 2 ms floor") {
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<uint64_t> v;
    for (int i = 0; i < 50000; ++i)
      v.push_back(static_cast<uint64_t>(2e6 / std::pow(1 - u(rng), 1 / 1.1)));
    CheckTails(v, "pareto");
  }
  SECTION("small runs: 100 and 1000 samples (p999 is the maximum or next to it)") {
    auto a = LogNormalNanos(9, 100, 5e6);
    auto b = LogNormalNanos(10, 1000, 5e6);
    CheckTails(a, "n=100");
    CheckTails(b, "n=1000");
  }
}

TEST_CASE("p99 and p999 match exact order statistics of adversarial samples") {
  SECTION("every value at the top edge of its bucket") {
    // The worst case for a bucket midpoint: the value a bucket's width minus one above its start.
    std::vector<uint64_t> v;
    for (uint64_t base = 1ull << 12; base < (1ull << 36); base <<= 1)
      for (uint64_t k = 1; k <= 1024; k += 37) v.push_back(base + k * (base >> 10) - 1);
    CheckTails(v, "top edges");
  }
  SECTION("every value at the bottom edge of its bucket") {
    std::vector<uint64_t> v;
    for (uint64_t base = 1ull << 12; base < (1ull << 36); base <<= 1)
      for (uint64_t k = 0; k < 1024; k += 41) v.push_back(base + k * (base >> 10));
    CheckTails(v, "bottom edges");
  }
  SECTION("bimodal: the p99 rank falls on the boundary between the modes") {
    // 9,900 fast at 5.0 ms, 100 slow at 400 ms: p99 is the last fast one, p999 a slow one.
    std::vector<uint64_t> v(9900, 5'000'000);
    v.insert(v.end(), 100, 400'000'000);
    CheckTails(v, "bimodal");
    LatencyHistogram h;
    for (uint64_t s : v) h.RecordNanos(s);
    CHECK(h.PercentileSeconds(0.99) == Approx(0.005).epsilon(0.0005));
    CHECK(h.PercentileSeconds(0.991) == Approx(0.4).epsilon(0.0005));
  }
  SECTION("one value repeated, and two values one nanosecond apart") {
    CheckTails(std::vector<uint64_t>(5000, 20'000'001), "constant");
    std::vector<uint64_t> v(9990, 999);
    v.insert(v.end(), 10, 1000);
    CheckTails(v, "999/1000 ns");
  }
  SECTION("a tail spread across one bucket at 20 ms (the old 0.26 ms steps)") {
    std::vector<uint64_t> v(99000, 19'000'000);
    for (uint64_t i = 0; i < 1000; ++i) v.push_back(20'000'000 + i * 262);
    CheckTails(v, "tail inside an old bucket");
  }
}

TEST_CASE("a histogram written with the legacy 64-sub-bucket layout is still read") {
  // {"sub_bucket_bits":6}: bucket 64 + 18*64 + 12 is [2^24 + 12*2^18, 2^24 + 13*2^18) ns.
  auto legacy = nlohmann::json::parse(
      R"({"unit":"ns","sub_bucket_bits":6,"count":3,"min":10,"max":20100000,"sum":40000010,)"
      R"("buckets":[[10,1],[1228,2]]})");
  std::string error;
  auto h = LatencyHistogram::FromJson(legacy, &error);
  REQUIRE(h);
  CHECK(h->count() == 3);
  CHECK(h->PercentileSeconds(0.3) == Approx(10e-9));
  double mid_ns = 16777216.0 + 12.5 * 262144.0;  // the old bucket's middle, as it was reported
  CHECK(h->PercentileSeconds(0.6) * 1e9 ==
        Approx(mid_ns).epsilon(LatencyHistogram::kRelativeError));
}

TEST_CASE("bad histogram JSON is refused with a reason") {
  std::string error;
  CHECK_FALSE(LatencyHistogram::FromJson(nlohmann::json::parse(R"({"unit":"ms"})"), &error));
  CHECK(error.find("unit") != std::string::npos);
  auto bad_index = nlohmann::json::parse(
      R"({"unit":"ns","sub_bucket_bits":10,"min":1,"max":2,"sum":3,"buckets":[[99999999,1]]})");
  CHECK_FALSE(LatencyHistogram::FromJson(bad_index, &error));
  CHECK(error.find("range") != std::string::npos);
  CHECK_FALSE(LatencyHistogram::FromCounts({1, 2, 3}, 0, 0, 0));
}

TEST_CASE("empty and odd inputs do not break the histogram") {
  LatencyHistogram h;
  CHECK(h.PercentileSeconds(0.5) == 0);
  h.RecordSeconds(-1);
  h.RecordSeconds(std::nan(""));
  h.RecordSeconds(1e12);  // beyond the range: clamped into the last bucket, max stays exact
  CHECK(h.count() == 3);
  CHECK(h.min_s() == 0);
  CHECK(h.PercentileSeconds(1.0) == h.max_s());
}

TEST_CASE("memory follows the range recorded, not the layout") {
  LatencyHistogram h;
  CHECK(h.chunks_in_use() == 0);
  // 1 ms .. 8 ms: four powers of two (2^19 .. 2^22 ns, plus 2^23 for exactly 8 ms).
  for (int i = 1000; i <= 8000; ++i) h.RecordNanos(static_cast<uint64_t>(i) * 1000);
  CHECK(h.chunks_in_use() <= 5);
  CHECK(h.PercentileSeconds(0.5) == Approx(4.5e-3).epsilon(0.001));
  // A merge and a dense round trip keep the same chunks and the same answers.
  LatencyHistogram other;
  other.RecordNanos(50);
  h.Merge(other);
  CHECK(h.chunks_in_use() <= 6);
  auto back = LatencyHistogram::FromCounts(h.counts(), h.min_ns(), h.max_ns(), h.sum_ns());
  REQUIRE(back);
  CHECK(back->chunks_in_use() == h.chunks_in_use());
  CHECK(back->PercentileSeconds(0.99) == h.PercentileSeconds(0.99));
  CHECK(back->count() == h.count());
}
