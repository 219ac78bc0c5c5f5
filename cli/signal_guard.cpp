#include "cli/signal_guard.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#include "core/exit_cleanup.h"

namespace feedcheck::cli {

namespace {

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  // An SSH session that drops sends SIGHUP; SIGUSR1's default action also kills. Both would
  // leave test data behind, so they stop the run and clean up like SIGTERM.
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGUSR1);
  return set;
}

const char* SignalName(int sig) {
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGUSR1:
      return "SIGUSR1";
  }
  return "a signal";
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

SignalGuard::SignalGuard(app::CleanupRegistry* registry, double grace_s)
    : registry_(registry), grace_s_(grace_s) {
  sigset_t set = StopSignals();
  pthread_sigmask(SIG_BLOCK, &set, &old_mask_);
  // A closed stdout or stderr (`| head`, a dropped terminal) makes writes fail with EPIPE
  // instead of killing the process before it cleans up.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, &old_pipe_);
  watcher_ = std::thread([this] { Watch(); });
}

SignalGuard::~SignalGuard() {
  done_ = true;
  watcher_.join();
  sigaction(SIGPIPE, &old_pipe_, nullptr);
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
}

int SignalGuard::InterruptedExitCode() { return app::InterruptedExitCode(); }

void SignalGuard::Watch() {
  int sig = 0;
  while (!done_ && sig == 0) sig = WaitSignal(0.1);
  if (sig == 0) return;
  app::RequestStop(sig);
  fprintf(stderr, "\nfeedcheck: %s received; stopping%s\n", SignalName(sig),
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
      RunExitCleanup();  // temporary files, child process groups
      _exit(128 + sig);
    }
  }
}

}  // namespace feedcheck::cli
