// When each request of a throughput step may start: never closer to the previous request's
// start than a share of one request cycle. N connections started together request their next
// block together, share the link together and leave it idle for a round trip together
// (lockstep), and fair sharing keeps them so: in lockstep N lanes carry N*T / (RTT + N*T) of the
// link (T: one block's transfer alone), spread over the cycle they fill it once
// N*T >= RTT + T. At 50 ms RTT with 4 MiB blocks on 1 Gbit/s two connections carry 0.57 of it
// started together, 0.78 spread. A real client's requests are not in lockstep, so the probe's
// are not either.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace feedcheck {

/// The mean duration of one request in a step of `concurrency` lanes that each ran requests
/// back to back for `window_s`: concurrency x window / completed requests. 0 when none did.
double MeanRequestSeconds(int concurrency, double window_s, uint64_t completed_requests);

/// The least time between two request starts when `lanes` lanes run requests of `request_s`
/// back to back: an even share (kSpreadFraction of it), which is the rate the lanes achieve
/// back to back, so the pacing spreads their starts without capping them below it; and at
/// most `max_gap_s` (every lane's first request must start inside the warm-up). 0 when there
/// is nothing to spread.
double RequestGapS(int lanes, double request_s, double max_gap_s);
/// Less than 1 lets a clump re-form at the smaller gap: with 0.9, three lanes at 50 ms RTT
/// settled at starts 35, 35 and 63 ms apart (0.76-0.85 Gbit/s); with 1, 35 ms (0.965).
constexpr double kSpreadFraction = 1.0;

/// Paces the requests of one step's lanes. Each request takes the next slot: no earlier than
/// RequestGapS after the slot before it, for the mean request time of the step so far (a
/// moving average of the requests that were not their lane's first, which carry the connect
/// and slow start). A minimum gap alone is not enough: lanes that share the link drift together
/// until their starts sit at the minimum (measured: four lanes at 50 ms RTT in a clump, 19 ms
/// apart, then idle for 110 ms); with the gap following the request time, a clump that
/// lengthens the requests widens the gap. Before the step's first such request the gap follows
/// the cycle given (the sweep's one-connection step measured it); without one only lane 0
/// runs until its second request gives one, for at most `max_pilot_wait_s`, then the others
/// start unpaced until a request time is known.
class LaneStagger {
 public:
  LaneStagger(int lanes, double cycle_s, double max_pilot_wait_s, double max_gap_s);

  /// Blocks until this request's slot, or until `stop` is set. `first` for a lane's first.
  void AwaitTurn(int lane, bool first, const std::atomic<bool>& stop);

  /// A request of `seconds` completed; `first` when it was its lane's first.
  void RequestDone(bool first, double seconds);

  /// The cycle the step started from (given, or the pilot's; 0 while unknown), and the
  /// least gap between two request starts as it stands.
  double cycle_s() const;
  double gap_s() const;

 private:
  using Clock = std::chrono::steady_clock;
  double GapLocked() const;

  const int lanes_;
  const double max_gap_s_;
  const Clock::time_point pilot_deadline_;
  mutable std::mutex mu_;
  double cycle_s_ = 0;
  double mean_request_s_ = 0;  ///< moving average of the warm requests (cycle_s_ until one)
  bool warm_ = false;          ///< a request that was not its lane's first has completed
  bool have_slot_ = false;
  Clock::time_point last_slot_;
};

}  // namespace feedcheck
