// The process's stop request: SIGINT/SIGTERM (through the CLI's signal watcher) ask every
// measuring loop to end early with a partial result. Set from a signal handler, polled by the
// transport's request loops and the probes between requests and blocks.
#pragma once

#include <string>

namespace feedcheck {

/// Cooperative stop: signal handlers (or the watcher thread) call RequestStop; probe loops poll
/// StopRequested between requests/blocks and end early with a partial result.
void RequestStop(int signal_number);
bool StopRequested();
/// The signal that asked to stop, 0 when none.
int StopSignal();
/// "stopped by SIGINT" / "stopped by SIGTERM" (the partial result's message), "" when none.
std::string StopReason();
/// For tests: clears the request.
void ResetStopRequest();

}  // namespace feedcheck
