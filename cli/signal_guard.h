// SIGINT/SIGTERM (and SIGHUP, SIGUSR1; SIGPIPE is ignored) for commands that create things: the
// first signal asks the probe to stop (probes poll StopRequested) so the command can clean up on
// its normal path; if it has not finished within a grace period, or a second signal comes, the
// watcher thread runs the cleanup registry itself and exits with 128 + signal.
#pragma once

#include <signal.h>

#include <atomic>
#include <thread>

#include "app/stop_request.h"

namespace feedcheck::cli {

class SignalGuard {
 public:
  /// Blocks SIGINT, SIGTERM, SIGHUP and SIGUSR1 in this thread (threads started later inherit the
  /// mask) and starts the watcher. Construct it before any probe thread starts.
  explicit SignalGuard(app::CleanupRegistry* registry, double grace_s = 30);
  ~SignalGuard();
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;

  /// 128 + the signal that stopped the run, or 0.
  static int InterruptedExitCode();

 private:
  void Watch();
  app::CleanupRegistry* registry_;
  double grace_s_;
  sigset_t old_mask_;
  struct sigaction old_pipe_ {};
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

}  // namespace feedcheck::cli
