#include "probes/budget_tracker.h"

#include <algorithm>

#include "core/units.h"
#include "probes/cleanup_registry.h"

namespace feedcheck {

BudgetTracker::BudgetTracker(const ProbeBudget& budget)
    : budget_(budget), start_(std::chrono::steady_clock::now()) {}

bool BudgetTracker::TryStart(uint64_t expected_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  // SIGINT/SIGTERM end every probe's budget at once: no new request after a stop request.
  if (StopRequested()) {
    if (stop_reason_.empty()) stop_reason_ = StopReason();
    return false;
  }
  if (ElapsedSeconds() >= budget_.duration_s) {
    if (stop_reason_.empty()) stop_reason_ = "duration budget reached";
    return false;
  }
  if (requests_ >= budget_.max_requests) {
    if (stop_reason_.empty()) stop_reason_ = "request budget reached";
    return false;
  }
  if (bytes_ + reserved_ + expected_bytes > budget_.max_bytes) {
    if (stop_reason_.empty()) stop_reason_ = "byte budget reached";
    return false;
  }
  ++requests_;
  reserved_ += expected_bytes;
  return true;
}

void BudgetTracker::Finish(uint64_t expected_bytes, uint64_t charged_bytes,
                           uint64_t received_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  reserved_ -= std::min(reserved_, expected_bytes);
  bytes_ += std::max(charged_bytes, received_bytes);
  received_ += received_bytes;
}

double BudgetTracker::ElapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double BudgetTracker::RemainingSeconds() const { return budget_.duration_s - ElapsedSeconds(); }

double BudgetTracker::RequestTimeout(double wanted_s) const {
  return std::max(0.001, std::min(wanted_s, RemainingSeconds()));
}

uint64_t BudgetTracker::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

uint64_t BudgetTracker::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

uint64_t BudgetTracker::received_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return received_;
}

uint64_t BudgetTracker::bytes_left() const {
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t used = bytes_ + reserved_;
  return used >= budget_.max_bytes ? 0 : budget_.max_bytes - used;
}

std::string BudgetTracker::stop_reason() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_reason_;
}

std::string DescribeBudget(const ProbeBudget& budget) {
  return "at most " + FormatSeconds(budget.duration_s) + ", " +
         std::to_string(budget.max_requests) + " requests, " +
         FormatBytes(static_cast<double>(budget.max_bytes));
}

}  // namespace feedcheck
