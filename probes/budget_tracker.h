// Enforces a ProbeBudget across threads: a request is admitted only when it fits in what is
// left of the request count, the byte budget (its expected body reserved up front) and time.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "probes/probe.h"

namespace feedcheck {

class BudgetTracker {
 public:
  explicit BudgetTracker(const ProbeBudget& budget);

  /// Admits one request expecting up to `expected_bytes` of body; false when it would break
  /// a limit (the reason is kept for the result message).
  bool TryStart(uint64_t expected_bytes);
  /// Records what the admitted request really received (releases the unused reservation).
  void Finish(uint64_t expected_bytes, uint64_t received_bytes) {
    Finish(expected_bytes, received_bytes, received_bytes);
  }
  /// Same, when the budget is charged more than arrived: a transfer cut short is charged in
  /// full (the server may have sent it), while received_bytes() counts what arrived.
  void Finish(uint64_t expected_bytes, uint64_t charged_bytes, uint64_t received_bytes);

  double ElapsedSeconds() const;
  double RemainingSeconds() const;
  bool Expired() const { return RemainingSeconds() <= 0; }
  /// A per-request timeout that cannot run past the deadline (at least 1 ms).
  double RequestTimeout(double wanted_s) const;

  uint64_t requests() const;
  uint64_t bytes() const;           ///< charged against --max-bytes
  uint64_t received_bytes() const;  ///< body bytes that arrived (<= bytes())
  uint64_t bytes_left() const;
  std::string stop_reason() const;  ///< empty while nothing stopped a request
  const ProbeBudget& budget() const { return budget_; }

 private:
  ProbeBudget budget_;
  std::chrono::steady_clock::time_point start_;
  mutable std::mutex mu_;
  uint64_t requests_ = 0;
  uint64_t bytes_ = 0;     ///< charged
  uint64_t received_ = 0;  ///< arrived
  uint64_t reserved_ = 0;  ///< expected by requests in flight
  std::string stop_reason_;
};

/// "at most 30 s, 100000 requests, 8.00 GiB": what a probe states before it starts.
std::string DescribeBudget(const ProbeBudget& budget);

}  // namespace feedcheck
