#include "app/process_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/exit_cleanup.h"
#include "core/redact.h"

extern char** environ;

namespace feedcheck::app {
namespace {

void Close(int* fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

}  // namespace

ProcessResult RunProcess(const std::vector<std::string>& argv, double timeout_s) {
  ProcessResult r;
  if (argv.empty()) {
    r.start_error = "no program given";
    return r;
  }
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.start_error = std::strerror(errno);
    return r;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.start_error = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  // A process group of its own, so the time limit (and a signal that stops feedcheck) ends the
  // program and every child it started; default signal actions and an empty mask, whatever
  // this process blocks or ignores (SignalGuard blocks SIGINT/SIGTERM, ignores SIGPIPE).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGUSR1}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    r.start_error = std::strerror(rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return r;
  }
  r.started = true;
  const int group = RegisterChildGroup(pid);
  int fds[2] = {out_pipe[0], err_pipe[0]};
  std::string* sinks[2] = {&r.out, &r.err};
  bool dropped = false;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  // Output is read until the program exits; then whatever it started is killed with it and the
  // pipes are drained (a child left holding stdout must not hold the run to the time limit).
  int status = 0;
  bool exited = false;
  std::chrono::steady_clock::time_point drain_until{};
  while (fds[0] >= 0 || fds[1] >= 0 || !exited) {
    if (!exited) {
      // Seen exited but not reaped yet (WNOWAIT): its pid, the group's id, cannot be reused
      // before the group is killed.
      siginfo_t info{};
      const int seen = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
      if ((seen == 0 && info.si_pid == pid) || (seen < 0 && errno != EINTR)) {
        exited = true;
        kill(-pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        drain_until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (!exited && now >= deadline) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      exited = true;
      drain_until = now + std::chrono::seconds(2);
      continue;
    }
    if (exited && (now >= drain_until || (fds[0] < 0 && fds[1] < 0))) break;
    const auto limit = exited ? drain_until : deadline;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(limit - now).count();
    pollfd p[2];
    int n = 0;
    int which[2];
    for (int i = 0; i < 2; ++i)
      if (fds[i] >= 0) {
        p[n] = {fds[i], POLLIN, 0};
        which[n++] = i;
      }
    // Short waits while the program runs: its exit is noticed within 50 ms.
    const int ready =
        poll(p, n, static_cast<int>(std::max<long long>(0, std::min<long long>(left, 50))));
    if (ready < 0 && errno != EINTR) break;
    for (int k = 0; k < n && ready > 0; ++k) {
      if (!(p[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t got = read(p[k].fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        Close(&fds[which[k]]);
        continue;
      }
      std::string* sink = sinks[which[k]];
      if (sink->size() + static_cast<size_t>(got) <= kMaxProcessOutputBytes)
        sink->append(buf, static_cast<size_t>(got));
      else
        dropped = true;
    }
  }
  Close(&fds[0]);
  Close(&fds[1]);
  ForgetChildGroup(group);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (dropped) r.err += "\n[feedcheck: output past 64 MiB dropped]";
  // One redaction of every secret shape on all of a child's output, before anything reads it.
  r.out = RedactText(r.out);
  r.err = RedactText(r.err);
  return r;
}

}  // namespace feedcheck::app
