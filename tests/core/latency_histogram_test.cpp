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

TEST_CASE("every bucket maps back within the 1% bound") {
  for (uint64_t v : {0ull, 1ull, 63ull, 64ull, 65ull, 127ull, 128ull, 1000ull, 4095ull,
                     123456789ull, 1ull << 40}) {
    double mid = LatencyHistogram::BucketMidNanos(LatencyHistogram::BucketIndex(v));
    if (v < 64) {
      CHECK(mid == static_cast<double>(v));
    } else {
      CHECK(std::abs(mid - static_cast<double>(v)) / static_cast<double>(v) <=
            LatencyHistogram::kRelativeError);
    }
  }
  CHECK(LatencyHistogram::kRelativeError < 0.01);
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

TEST_CASE("bad histogram JSON is refused with a reason") {
  std::string error;
  CHECK_FALSE(LatencyHistogram::FromJson(nlohmann::json::parse(R"({"unit":"ms"})"), &error));
  CHECK(error.find("unit") != std::string::npos);
  auto bad_index = nlohmann::json::parse(
      R"({"unit":"ns","sub_bucket_bits":6,"min":1,"max":2,"sum":3,"buckets":[[999999,1]]})");
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
