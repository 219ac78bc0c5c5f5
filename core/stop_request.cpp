#include "core/stop_request.h"

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

}  // namespace feedcheck
