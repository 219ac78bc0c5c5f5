// What must not outlive the process when a signal kills it: the temporary file of a write in
// progress (core/atomic_file) and the process group of a child program (app/process_runner).
// Both are kept in fixed slots, so removing them is async-signal-safe: a signal handler (or the
// signal watcher of cli/signal_guard) unlinks the files and kills the groups, then the process
// dies as the signal asked.
#pragma once

#include <sys/types.h>

#include <exception>

namespace feedcheck {

/// Remembers `path` (a temporary file not yet renamed into place); -1 when every slot is taken
/// (the write still happens, only a signal in between may leave the file).
int RegisterTempFile(const char* path);
/// Forgets the file of `slot` (renamed or removed by its writer); -1 is ignored.
void ForgetTempFile(int slot);
/// Remembers a child's process group, to be killed whole if this process is stopped.
int RegisterChildGroup(pid_t pgid);
void ForgetChildGroup(int slot);

/// Unlinks every remembered temporary file and sends SIGKILL to every remembered process
/// group. Async-signal-safe; safe to call more than once.
void RunExitCleanup();

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that run RunExitCleanup and then end the
/// process with the same signal. Only where the signal's action is still the default; a
/// SignalGuard blocks these signals and calls RunExitCleanup from its watcher instead.
void InstallExitCleanupHandlers();

/// A closed standard output (a pager or `head` that quit): SIGPIPE is ignored, so a write fails
/// with EPIPE instead of killing the process before its cleanup, and the failed write (fmt's
/// std::system_error) ends the command quietly in main with this status: 128 + SIGPIPE, what a
/// shell shows for a program SIGPIPE ended.
inline constexpr int kClosedOutputExitCode = 141;
void IgnoreSigpipe();
/// True for the error a write to a closed pipe raises (std::system_error, EPIPE).
bool IsClosedOutputError(const std::exception& e);

}  // namespace feedcheck
