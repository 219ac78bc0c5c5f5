// The gaps between span closes: a generator of read streams (steady, Poisson, in bursts) with
// silences written in. The silences stand out from the stream's own pace and are found where
// they are; the stream's ordinary gaps never are.
#include "analyzers/read_gaps.h"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

using feedcheck::analyzers::ReadGaps;

namespace {

enum class Pace { kSteady, kPoisson, kBursts };

struct Stream {
  std::vector<double> closes;
  std::vector<ReadGaps::Silence> silences;
};

// Closes for `hours` at a mean gap of `gap_s`, with a silence of `silence_s` every `every_s`.
Stream Draw(std::mt19937* rng, Pace pace, double gap_s, double silence_s, double every_s,
            double hours) {
  Stream s;
  std::uniform_real_distribution<double> jitter(0.5, 1.5);
  std::exponential_distribution<double> poisson(1 / gap_s);
  const double t0 = 1.7e9, end = t0 + hours * 3600;
  double next_silence = every_s > 0 ? t0 + every_s : end;
  for (double t = t0; t < end;) {
    if (pace == Pace::kBursts) {
      // Sixteen requests in flight answer together, then all wait on the next round.
      for (int k = 0; k < 16; ++k) s.closes.push_back(t + 0.01 * k);
      t += gap_s * jitter(*rng);
    } else {
      s.closes.push_back(t);
      t += pace == Pace::kSteady ? gap_s * jitter(*rng) : poisson(*rng);
    }
    if (t >= next_silence) {
      const double from = s.closes.back();
      t = next_silence + silence_s;
      s.silences.push_back({from, t});
      next_silence += every_s;
    }
  }
  // A silence with no close after it is the stream's end, not a silence.
  if (!s.silences.empty() && s.silences.back().end_s > s.closes.back()) s.silences.pop_back();
  return s;
}

}  // namespace

TEST_CASE("read gaps: silences beyond the stream's pace are found, its own gaps are not",
          "[analyzers][read_gaps]") {
  const auto pace = GENERATE(Pace::kSteady, Pace::kPoisson, Pace::kBursts);
  const double gap_s = GENERATE(0.2, 5.0, 30.0);
  const double silence_s = GENERATE(0.0, 150.0, 600.0);
  std::mt19937 rng(static_cast<unsigned>(static_cast<int>(pace) * 1000 + gap_s * 10 + silence_s));
  for (int k = 0; k < 10; ++k) {
    Stream s = Draw(&rng, pace, gap_s, silence_s, silence_s > 0 ? 1800 : 0, 2);
    ReadGaps gaps;
    for (double t : s.closes) gaps.Add(t);
    REQUIRE(gaps.FenceS());
    CHECK(*gaps.LastS() == s.closes.back());
    const auto found = gaps.Silences();
    INFO("pace " << static_cast<int>(pace) << " gap " << gap_s << " silence " << silence_s
                 << " fence " << *gaps.FenceS() << " found " << found.size());
    // Every silence written in far past the pace (four mean gaps of a steady pace; eight of
    // Poisson's, whose own gaps pass the fence, about 4.7 mean gaps, one time in a hundred) is
    // found, once, at its place; nothing else is, but some of Poisson's own long gaps.
    const double far_s = (pace == Pace::kPoisson ? 8 : 4) * gap_s + ReadGaps::kMinSilenceS;
    size_t matched = 0;
    for (const auto& w : s.silences) {
      size_t hits = 0;
      for (const auto& f : found) hits += f.start_s == w.start_s ? 1 : 0;
      CHECK(hits <= 1);
      if (w.end_s - w.start_s >= far_s) CHECK(hits == 1);
      matched += hits;
    }
    const size_t extra = found.size() - matched;
    if (pace == Pace::kPoisson)
      CHECK(static_cast<double>(extra) <= 2 + 0.02 * static_cast<double>(s.closes.size()));
    else
      CHECK(extra == 0);
    for (size_t i = 1; i < found.size(); ++i) CHECK(found[i - 1].start_s < found[i].start_s);
  }
}

TEST_CASE("read gaps: too few gaps, or two streams interleaved, give no fence",
          "[analyzers][read_gaps]") {
  ReadGaps few;
  for (int i = 0; i < static_cast<int>(ReadGaps::kMinGaps); ++i) few.Add(1.7e9 + 30 * i);
  CHECK_FALSE(few.FenceS());  // kMinGaps closes make one gap fewer
  few.Add(1.7e9 + 30 * ReadGaps::kMinGaps);
  CHECK(few.FenceS());

  // A second node's file, read after the first, starts back in time: gaps across the two mean
  // nothing, so there is neither a fence nor a silence.
  ReadGaps two;
  for (int i = 0; i < 100; ++i) two.Add(1.7e9 + 30 * i + (i >= 50 ? 600 : 0));
  REQUIRE(two.Silences().size() == 1);
  for (int i = 0; i < 100; ++i) two.Add(1.7e9 + 30 * i);  // back by 3,570 s
  CHECK_FALSE(two.FenceS());
  CHECK(two.Silences().empty());
  CHECK_FALSE(two.LastS());
  // Closes in one instant, and lines a second out of order, are one stream still.
  ReadGaps same;
  for (int i = 0; i < 40; ++i) {
    same.Add(1.7e9 + 30 * i);
    same.Add(1.7e9 + 30 * i);
    same.Add(1.7e9 + 30 * i - 0.5);
  }
  CHECK(same.FenceS());
  CHECK(same.Silences().empty());
}

TEST_CASE("read gaps: memory is bounded, the longest silences kept", "[analyzers][read_gaps]") {
  ReadGaps gaps;
  double t = 1.7e9;
  // Ordinary gaps of a second, and more candidate silences (10 s or more) than are kept, the
  // last few much longer than the rest.
  const size_t candidates = ReadGaps::kMaxSilences + 500;
  for (size_t i = 0; i < candidates; ++i) {
    for (int k = 0; k < 40; ++k) gaps.Add(t += 1);
    gaps.Add(t += (i + 5 >= candidates ? 5000 : 11 + static_cast<double>(i % 7)));
  }
  const auto found = gaps.Silences();
  CHECK(found.size() <= ReadGaps::kMaxSilences);
  size_t longest = 0;
  for (const auto& s : found) longest += s.end_s - s.start_s == 5000 ? 1 : 0;
  CHECK(longest == 5);
}
