#include "probes/cleanup_registry.h"

#include <algorithm>
#include <atomic>
#include <csignal>

namespace feedcheck {

namespace {
// Lock-free so it is async-signal-safe to set from a handler.
std::atomic<int> g_stop_signal{0};
std::atomic<bool> g_stop_requested{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);
}  // namespace

void RequestStop(int signal_number) {
  g_stop_signal.store(signal_number, std::memory_order_relaxed);
  g_stop_requested.store(true, std::memory_order_release);
}
std::string StopReason() {
  if (!StopRequested()) return "";
  int sig = StopSignal();
  return sig == SIGTERM   ? "stopped by SIGTERM"
         : sig == SIGINT  ? "stopped by SIGINT"
         : sig == SIGHUP  ? "stopped by SIGHUP"
         : sig == SIGUSR1 ? "stopped by SIGUSR1"
                          : "stopped by signal " + std::to_string(sig);
}

bool StopRequested() { return g_stop_requested.load(std::memory_order_acquire); }
int StopSignal() { return g_stop_signal.load(std::memory_order_relaxed); }
void ResetStopRequest() {
  g_stop_signal.store(0);
  g_stop_requested.store(false);
}

CleanupRegistry::Id CleanupRegistry::Add(std::string description, std::function<void()> action) {
  std::lock_guard<std::mutex> lock(mutex_);
  Id id = next_id_++;
  entries_.push_back({id, std::move(description), std::move(action)});
  return id;
}

void CleanupRegistry::Remove(Id id) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.erase(
      std::remove_if(entries_.begin(), entries_.end(), [id](const Entry& e) { return e.id == id; }),
      entries_.end());
}

void CleanupRegistry::Run(Id id) {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  std::function<void()> action;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it =
        std::find_if(entries_.begin(), entries_.end(), [id](const Entry& e) { return e.id == id; });
    if (it == entries_.end()) return;
    action = std::move(it->action);
    entries_.erase(it);
  }
  try {
    if (action) action();
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++failures_;
  }
}

void CleanupRegistry::RunAll() {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  for (;;) {
    std::function<void()> action;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (entries_.empty()) return;
      action = std::move(entries_.back().action);  // newest first: undo in reverse order
      entries_.pop_back();
    }
    try {
      if (action) action();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++failures_;
    }
  }
}

size_t CleanupRegistry::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

size_t CleanupRegistry::failures() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

std::vector<std::string> CleanupRegistry::PendingDescriptions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.description);
  return out;
}

ScopedCleanup::ScopedCleanup(CleanupRegistry* registry, std::string description,
                             std::function<void()> action)
    : registry_(registry) {
  if (registry_) {
    id_ = registry_->Add(std::move(description), std::move(action));
  } else {
    action_ = std::move(action);
  }
}

ScopedCleanup::~ScopedCleanup() {
  if (registry_) {
    registry_->Run(id_);  // no-op when the registry already ran it
  } else if (action_) {
    try {
      action_();
    } catch (...) {
    }
  }
}

}  // namespace feedcheck
