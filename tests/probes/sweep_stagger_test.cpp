#include "probes/sweep_stagger.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using namespace feedcheck;
using Clock = std::chrono::steady_clock;

namespace {

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

TEST_CASE("a step's mean request time comes from its lanes and completed requests",
          "[probes][sweep]") {
  // One lane, 2.5 s, 29 blocks of 4 MiB: 86 ms per request (50 ms RTT + 35 ms of transfer).
  CHECK(MeanRequestSeconds(1, 2.5, 29) == Approx(0.0862).epsilon(1e-3));
  // Four lanes sharing the link: each request takes four times as long as its share of the time.
  CHECK(MeanRequestSeconds(4, 2.0, 100) == Approx(0.08));
  CHECK(MeanRequestSeconds(4, 2.0, 0) == 0);
  CHECK(MeanRequestSeconds(0, 2.0, 10) == 0);
  CHECK(MeanRequestSeconds(2, 0, 10) == 0);
}

TEST_CASE("requests are paced at most an even share of the cycle apart", "[probes][sweep]") {
  // 4 lanes of 80 ms requests start one per 20 ms when spread evenly; the pacing allows no
  // fewer (it never caps them below 4 a cycle) and no clump closer than that.
  CHECK(RequestGapS(4, 0.08, 1) == Approx(0.02));
  CHECK(RequestGapS(4, 0.08, 0.01) == Approx(0.01));  // capped so all start in the warm-up
  CHECK(RequestGapS(1, 0.08, 1) == 0);                // a single lane has nothing to spread
  CHECK(RequestGapS(4, 0, 1) == 0);
  CHECK(RequestGapS(4, 0.08, -1) == 0);
}

namespace {

// Runs `lanes` lanes of `requests` requests each through `stagger`, each request taking
// `request_s`; returns every request's start, in seconds after the call, in start order.
std::vector<double> Starts(LaneStagger* stagger, int lanes, int requests, double request_s) {
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::vector<double> starts;
  auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int lane = 0; lane < lanes; ++lane)
    threads.emplace_back([&, lane] {
      for (int i = 0; i < requests; ++i) {
        stagger->AwaitTurn(lane, i == 0, stop);
        {
          std::lock_guard<std::mutex> lock(mu);
          starts.push_back(SecondsSince(t0));
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(request_s));
        stagger->RequestDone(i == 0, request_s);
      }
    });
  for (auto& t : threads) t.join();
  std::sort(starts.begin(), starts.end());
  return starts;
}

}  // namespace

TEST_CASE("with a known cycle no two requests start closer than the gap", "[probes][sweep]") {
  // Lanes that would all start together (lockstep) are spread: lower bounds only, a loaded
  // machine may start a request late, never early.
  LaneStagger stagger(4, 0.2, 1.0, 1.0);
  CHECK(stagger.cycle_s() == Approx(0.2));
  CHECK(stagger.gap_s() == Approx(0.05));
  std::vector<double> starts = Starts(&stagger, 4, 3, 0.2);
  REQUIRE(starts.size() == 12);
  // Slot k is at least k gaps after the first (a late wake-up delays only its own start).
  for (size_t k = 1; k < starts.size(); ++k)
    CHECK(starts[k] >= 0.05 * static_cast<double>(k) - 1e-3);
  CHECK(stagger.cycle_s() == Approx(0.2));
}

TEST_CASE("the gap follows the step's mean request time", "[probes][sweep]") {
  LaneStagger stagger(4, 0.08, 1.0, 1.0);
  CHECK(stagger.gap_s() == Approx(0.02));
  stagger.RequestDone(true, 0.5);  // a lane's first (connect, slow start) says nothing
  CHECK(stagger.gap_s() == Approx(0.02));
  stagger.RequestDone(false, 0.16);  // the step's first warm request replaces the given cycle
  CHECK(stagger.gap_s() == Approx(0.04));
  // Lanes that clumped share the link and take twice as long: the gap widens with them.
  for (int i = 0; i < 40; ++i) stagger.RequestDone(false, 0.32);
  CHECK(stagger.gap_s() == Approx(0.08).epsilon(0.01));
  stagger.RequestDone(false, 0.16);  // a moving average: one request moves it by a quarter
  CHECK(stagger.gap_s() == Approx((0.32 - 0.04) / 4).epsilon(0.01));
  CHECK(stagger.cycle_s() == Approx(0.08));  // the cycle it started from stays
}

TEST_CASE("without a cycle only lane 0 runs until its second request", "[probes][sweep]") {
  std::atomic<bool> stop{false};
  LaneStagger stagger(2, 0, 30.0, 1.0);
  CHECK(stagger.cycle_s() == 0);
  std::atomic<bool> lane1_started{false};
  std::thread lane1([&] {
    stagger.AwaitTurn(1, true, stop);
    lane1_started = true;
  });
  stagger.AwaitTurn(0, true, stop);  // lane 0 never waits for the pilot
  stagger.RequestDone(true, 0.9);    // the first carries the connect and slow start
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(lane1_started.load());
  CHECK(stagger.cycle_s() == 0);
  stagger.AwaitTurn(0, false, stop);
  auto second_sent = Clock::now();
  stagger.RequestDone(false, 0.1);
  lane1.join();
  CHECK(SecondsSince(second_sent) >= 0.05 - 1e-3);  // half the cycle after it
  CHECK(stagger.cycle_s() == Approx(0.1));
  CHECK(stagger.gap_s() == Approx(0.05));
  stagger.RequestDone(false, 7.0);  // the pilot's cycle stays; the gap moves on
  CHECK(stagger.cycle_s() == Approx(0.1));
  CHECK(stagger.gap_s() > 0.05);
}

TEST_CASE("a pilot that takes too long lets the lanes start unpaced", "[probes][sweep]") {
  std::atomic<bool> stop{false};
  LaneStagger stagger(3, 0, 0.05, 1.0);
  auto created = Clock::now();
  std::thread lane2([&] { stagger.AwaitTurn(2, true, stop); });
  lane2.join();  // released at the deadline, though lane 0 never reported
  CHECK(SecondsSince(created) >= 0.05 - 1e-3);
  CHECK(stagger.cycle_s() == 0);
  CHECK(stagger.gap_s() == 0);
}

TEST_CASE("a stop releases every waiting lane", "[probes][sweep]") {
  std::atomic<bool> stop{false};
  LaneStagger pilot(3, 0, 3600, 3600);
  LaneStagger slots(2, 3600, 1, 3600);
  slots.AwaitTurn(0, true, stop);  // takes the first slot; the next is 1800 s later
  std::thread a([&] { pilot.AwaitTurn(1, true, stop); });
  std::thread b([&] { slots.AwaitTurn(1, true, stop); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  stop = true;
  a.join();  // would hang for an hour without the stop
  b.join();
  CHECK(pilot.cycle_s() == 0);
}

TEST_CASE("one lane is never held", "[probes][sweep]") {
  std::atomic<bool> stop{false};
  LaneStagger one(1, 0.2, 3600, 3600);
  auto t0 = Clock::now();
  for (int i = 0; i < 100; ++i) one.AwaitTurn(0, i == 0, stop);
  CHECK(SecondsSince(t0) < 1);  // 100 slots of a 0.1 s gap would take 10 s
  CHECK(one.cycle_s() == 0);
  CHECK(one.gap_s() == 0);
}
