#include "core/exit_cleanup.h"

#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace feedcheck {
namespace {

constexpr int kSlots = 64;

// A slot is free (0), being filled (1) or holding a value (2). Filling takes it from 0 to 1 with
// a compare-exchange, so two threads never share one; a handler reads only slots at 2.
struct TempSlot {
  std::atomic<int> state{0};
  char path[PATH_MAX];
};
struct GroupSlot {
  std::atomic<int> state{0};
  std::atomic<pid_t> pgid{0};
};

TempSlot g_temps[kSlots];
GroupSlot g_groups[kSlots];

template <typename Slot, typename Fill>
int Take(Slot* slots, Fill fill) {
  for (int i = 0; i < kSlots; ++i) {
    int free = 0;
    if (!slots[i].state.compare_exchange_strong(free, 1)) continue;
    fill(slots[i]);
    slots[i].state.store(2);
    return i;
  }
  return -1;
}

void Handler(int sig) {
  RunExitCleanup();
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

int RegisterTempFile(const char* path) {
  if (std::strlen(path) >= PATH_MAX) return -1;
  return Take(g_temps, [&](TempSlot& s) { std::strcpy(s.path, path); });
}

void ForgetTempFile(int slot) {
  if (slot >= 0 && slot < kSlots) g_temps[slot].state.store(0);
}

int RegisterChildGroup(pid_t pgid) {
  if (pgid <= 1) return -1;
  return Take(g_groups, [&](GroupSlot& s) { s.pgid.store(pgid); });
}

void ForgetChildGroup(int slot) {
  if (slot >= 0 && slot < kSlots) g_groups[slot].state.store(0);
}

void RunExitCleanup() {
  for (auto& g : g_groups)
    if (g.state.load() == 2) kill(-g.pgid.load(), SIGKILL);
  for (auto& t : g_temps)
    if (t.state.load() == 2) unlink(t.path);
}

void InstallExitCleanupHandlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction act {};
    act.sa_handler = Handler;
    sigemptyset(&act.sa_mask);
    sigaction(sig, &act, nullptr);
  }
}

void IgnoreSigpipe() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGPIPE, &ignore, nullptr);
}

bool IsClosedOutputError(const std::exception& e) {
  const auto* system = dynamic_cast<const std::system_error*>(&e);
  return system != nullptr && system->code().value() == EPIPE;
}

}  // namespace feedcheck
