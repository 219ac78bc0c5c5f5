// What a command that creates things needs around SIGINT/SIGTERM, for cli/signal_guard: the
// registry of what to undo (test blobs, scratch files) that the workflows fill, and the stop
// request the probes poll. Both live in probes/cleanup_registry; app passes them up so cli/
// depends on app/ only.
#pragma once

#include "probes/cleanup_registry.h"

namespace feedcheck::app {

using feedcheck::CleanupRegistry;

/// Asks every running probe to stop (they end early with a partial result).
inline void RequestStop(int signal_number) { feedcheck::RequestStop(signal_number); }

/// 128 + the signal that asked to stop, 0 when none asked.
inline int InterruptedExitCode() { return StopRequested() ? 128 + StopSignal() : 0; }

}  // namespace feedcheck::app
