#include "cli/signal_guard.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace feedcheck::cli {

namespace {

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

// Waits up to `seconds` for a stop signal; returns it, or 0 on timeout.
int WaitSignal(double seconds) {
  sigset_t set = StopSignals();
  timespec ts{
      static_cast<time_t>(seconds),
      static_cast<long>((seconds - static_cast<double>(static_cast<time_t>(seconds))) * 1e9)};
  siginfo_t info{};
  int sig = sigtimedwait(&set, &info, &ts);
  return sig > 0 ? sig : 0;
}

}  // namespace

SignalGuard::SignalGuard(CleanupRegistry* registry, double grace_s)
    : registry_(registry), grace_s_(grace_s) {
  sigset_t set = StopSignals();
  pthread_sigmask(SIG_BLOCK, &set, &old_mask_);
  watcher_ = std::thread([this] { Watch(); });
}

SignalGuard::~SignalGuard() {
  done_ = true;
  watcher_.join();
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

int SignalGuard::InterruptedExitCode() { return StopRequested() ? 128 + StopSignal() : 0; }

void SignalGuard::Watch() {
  int sig = 0;
  while (!done_ && sig == 0) sig = WaitSignal(0.1);
  if (sig == 0) return;
  RequestStop(sig);
  fprintf(stderr, "\nfeedcheck: %s received; stopping%s\n", sig == SIGINT ? "SIGINT" : "SIGTERM",
          registry_ ? " and cleaning up" : "");
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(grace_s_));
  while (!done_) {
    int again = WaitSignal(0.1);
    if (again != 0 || std::chrono::steady_clock::now() > deadline) {
      // The probe did not get back in time (or the user insists): clean up from here.
      fprintf(stderr, "feedcheck: cleaning up now\n");
      if (registry_) registry_->RunAll();
      _exit(128 + sig);
    }
  }
}

}  // namespace feedcheck::cli
