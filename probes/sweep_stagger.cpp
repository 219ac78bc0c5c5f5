#include "probes/sweep_stagger.h"

#include <algorithm>
#include <thread>

namespace feedcheck {

double MeanRequestSeconds(int concurrency, double window_s, uint64_t completed_requests) {
  if (concurrency <= 0 || !(window_s > 0) || completed_requests == 0) return 0;
  return concurrency * window_s / static_cast<double>(completed_requests);
}

double RequestGapS(int lanes, double request_s, double max_gap_s) {
  if (lanes <= 1 || !(request_s > 0)) return 0;
  return std::min(kSpreadFraction * request_s / lanes, std::max(0.0, max_gap_s));
}

namespace {

std::chrono::steady_clock::duration Seconds(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(std::max(0.0, s)));
}

// Sleeps until `until` in short slices: `stop` (Ctrl-C, the budget) is checked between them.
void SleepUntil(std::chrono::steady_clock::time_point until, const std::atomic<bool>& stop) {
  constexpr auto kSlice = std::chrono::milliseconds(20);
  while (!stop.load(std::memory_order_relaxed)) {
    auto now = std::chrono::steady_clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(until - now, kSlice));
  }
}

}  // namespace

LaneStagger::LaneStagger(int lanes, double cycle_s, double max_pilot_wait_s, double max_gap_s)
    : lanes_(lanes),
      max_gap_s_(max_gap_s),
      pilot_deadline_(Clock::now() + Seconds(max_pilot_wait_s)),
      cycle_s_(lanes > 1 && cycle_s > 0 ? cycle_s : 0),
      mean_request_s_(cycle_s_) {}

double LaneStagger::GapLocked() const { return RequestGapS(lanes_, mean_request_s_, max_gap_s_); }

void LaneStagger::AwaitTurn(int lane, bool first, const std::atomic<bool>& stop) {
  if (lanes_ <= 1) return;
  std::unique_lock<std::mutex> lock(mu_);
  // The pilot: the other lanes' first requests wait for a cycle or for the deadline.
  while (first && lane > 0 && cycle_s_ == 0 && Clock::now() < pilot_deadline_ &&
         !stop.load(std::memory_order_relaxed)) {
    lock.unlock();
    SleepUntil(std::min(pilot_deadline_, Clock::now() + std::chrono::milliseconds(20)), stop);
    lock.lock();
  }
  auto now = Clock::now();
  auto slot = have_slot_ ? std::max(now, last_slot_ + Seconds(GapLocked())) : now;
  last_slot_ = slot;
  have_slot_ = true;
  lock.unlock();
  SleepUntil(slot, stop);
}

void LaneStagger::RequestDone(bool first, double seconds) {
  if (first || !(seconds > 0) || lanes_ <= 1) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (cycle_s_ == 0) cycle_s_ = seconds;  // the pilot
  if (!warm_) {
    mean_request_s_ = seconds;  // the step's own requests replace the given cycle at once
    warm_ = true;
    return;
  }
  // About one round of all lanes' requests: follows a clump forming within a cycle or two.
  double weight = 1.0 / std::max(4, lanes_);
  mean_request_s_ += weight * (seconds - mean_request_s_);
}

double LaneStagger::cycle_s() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cycle_s_;
}

double LaneStagger::gap_s() const {
  std::lock_guard<std::mutex> lock(mu_);
  return GapLocked();
}

}  // namespace feedcheck
