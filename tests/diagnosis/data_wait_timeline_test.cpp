// The steps' data-wait share for the timeline: each step number's ranks together, in percent, at
// their mean start; ranks not placed on the wall clock left out; the title says which steps.
#include "diagnosis/data_wait_timeline.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>

namespace fa = feedcheck::analyzers;
namespace fd = feedcheck::diagnosis;

TEST_CASE("data wait timeline: each step's share, the ranks together", "[data_wait]") {
  std::mt19937 rng(static_cast<unsigned>(Catch::rngSeed()) + 7);
  const int ranks_n = GENERATE(1, 2, 5);
  const int first = GENERATE(1, 101);
  std::uniform_real_distribution<double> share(0, 1), dur(0.05, 2);
  std::vector<fa::RankFigures> ranks(static_cast<size_t>(ranks_n) + 1);
  std::map<int64_t, std::pair<double, double>> sums;  // step -> wait, step time
  std::map<int64_t, double> starts;
  for (size_t i = 0; i < ranks.size(); ++i) {
    fa::RankFigures& r = ranks[i];
    r.rank = std::to_string(i);
    // The last rank has no clock: it cannot be lined up with GPU samples.
    const bool placed = i + 1 < ranks.size();
    r.clock = placed ? (i % 2 ? fa::TraceClock::kFileStamp : fa::TraceClock::kBaseTime)
                     : fa::TraceClock::kNone;
    for (int k = 0; k < 8; ++k) {
      fa::StepFigures f;
      f.number = first + k;
      f.step_s = dur(rng);
      f.wait_s = f.step_s * share(rng);
      f.start_epoch_s = 1.8e9 + 10 * k + 0.1 * static_cast<double>(i);
      r.steps.push_back(f);
      if (!placed) continue;
      sums[f.number].first += f.wait_s;
      sums[f.number].second += f.step_s;
      starts[f.number] += f.start_epoch_s / ranks_n;
    }
  }
  auto s = fd::DataWaitTimeline(ranks);
  REQUIRE(s);
  CHECK(s->key == fd::kDataWaitSeries);
  CHECK(s->y_unit == feedcheck::Unit::kPercent);
  REQUIRE(s->points.size() == 8);
  size_t k = 0;
  for (const auto& [number, sum] : sums) {
    CHECK(s->points[k].y == Approx(100 * sum.first / sum.second));
    CHECK(s->points[k].x == Approx(starts[number]));
    CHECK(s->points[k].y >= 0);
    CHECK(s->points[k].y <= 100);
    ++k;
  }
  CHECK(s->title.find(fmt::format("{} rank{}, 8 steps: #{}-#{}", ranks_n, ranks_n == 1 ? "" : "s",
                                  first, first + 7)) != std::string::npos);
  // A legacy trace is placed by its file name's stamp: approximate, and said.
  CHECK((s->title.find("approximately") != std::string::npos) == (ranks_n > 1));
}

TEST_CASE("data wait timeline: nothing placed, nothing drawn", "[data_wait]") {
  CHECK_FALSE(fd::DataWaitTimeline({}));
  fa::RankFigures unplaced;
  unplaced.steps.push_back({1, 0, 1, 0.5});
  CHECK_FALSE(fd::DataWaitTimeline({unplaced}));
  fa::RankFigures empty;
  empty.clock = fa::TraceClock::kEpoch;
  CHECK_FALSE(fd::DataWaitTimeline({empty}));
}
