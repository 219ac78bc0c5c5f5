#include <catch2/catch.hpp>

#include "analyzers/bounded_series.h"
#include "analyzers/timestamp.h"

using namespace feedcheck::analyzers;

TEST_CASE("bounded series coarsens instead of growing", "[analyzers][series]") {
  BoundedSeries s(1.0, 100);
  for (int i = 0; i < 100000; ++i) s.Add(i, i % 2 ? 100 : 0);
  CHECK(s.size() <= 100);
  CHECK(s.width() >= 1000);
  double total = 0;
  uint64_t n = 0;
  for (const auto& b : s.Buckets()) {
    total += b.y_sum;
    n += b.count;
    CHECK(b.y_mean == Approx(50).margin(1));
  }
  CHECK(n == 100000);
  CHECK(total == Approx(50.0 * 100000));
}

TEST_CASE("interval merger joins touching intervals and stays bounded", "[analyzers][series]") {
  IntervalMerger m(5, 10);
  m.Add(0, 10);
  m.Add(12, 20);  // within the 5 s gap
  m.Add(100, 110);
  auto r = m.Result();
  REQUIRE(r.size() == 2);
  CHECK(r[0].end == 20);
  for (int i = 0; i < 1000; ++i) m.Add(1000 + i * 100, 1000 + i * 100 + 1);
  CHECK(m.Result().size() <= 10);
}

TEST_CASE("timestamps and ISO durations", "[analyzers][time]") {
  CHECK(*ParseTimestamp("1970-01-01T00:00:00Z") == 0);
  CHECK(*ParseTimestamp("2024/03/15 13:57:59.791") == Approx(1710511079.791));
  CHECK(*ParseTimestamp("2023-05-18 17:14:47,790") == Approx(1684430087.790));
  CHECK(*ParseTimestamp("2024-05-01T12:00:00+02:00") == *ParseTimestamp("2024-05-01T10:00:00Z"));
  CHECK_FALSE(ParseTimestamp("2024-13-01T00:00:00Z"));
  CHECK_FALSE(ParseTimestamp("yesterday"));
  CHECK(*ParseIsoDuration("PT1M") == 60);
  CHECK(*ParseIsoDuration("PT5M") == 300);
  CHECK(*ParseIsoDuration("PT1H") == 3600);
  CHECK(*ParseIsoDuration("P1D") == 86400);
  CHECK(*ParseIsoDuration("PT30S") == 30);
  CHECK_FALSE(ParseIsoDuration("1M"));
  CHECK_FALSE(ParseIsoDuration("P1M30"));
}
