// What must be undone before the process exits (probe scratch files, test blobs), and the stop
// request that SIGINT/SIGTERM raise. Probes register an undo action when they create something
// and remove it once they have undone it themselves; whatever is still registered runs when the
// CLI finishes, on an error, or from the signal watcher when a probe does not stop in time.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/stop_request.h"  // the stop request the cleanup runs on

namespace feedcheck {

class CleanupRegistry {
 public:
  using Id = uint64_t;

  /// Registers `action` (described for the log, e.g. "delete 12 blobs under fch-…/").
  Id Add(std::string description, std::function<void()> action);
  /// Forgets an action without running it (its owner undid the work itself).
  void Remove(Id id);
  /// Runs one action now (if still registered) and forgets it.
  void Run(Id id);
  /// Runs every registered action, newest first, each at most once. Exceptions are swallowed
  /// (a failed cleanup must not stop the others) and counted. Safe to call from any thread and
  /// more than once.
  void RunAll();
  size_t pending() const;
  size_t failures() const;
  std::vector<std::string> PendingDescriptions() const;

 private:
  struct Entry {
    Id id;
    std::string description;
    std::function<void()> action;
  };
  mutable std::mutex mutex_;
  std::mutex run_mutex_;  // serialises running actions (the CLI and the signal watcher)
  std::vector<Entry> entries_;
  Id next_id_ = 1;
  size_t failures_ = 0;
};

/// Registers an action for the lifetime of a scope: it runs when the scope ends (normal return
/// or exception), or earlier through the registry if the process is being torn down.
class ScopedCleanup {
 public:
  ScopedCleanup(CleanupRegistry* registry, std::string description, std::function<void()> action);
  ~ScopedCleanup();
  ScopedCleanup(const ScopedCleanup&) = delete;
  ScopedCleanup& operator=(const ScopedCleanup&) = delete;

 private:
  CleanupRegistry* registry_;
  CleanupRegistry::Id id_ = 0;
  std::function<void()> action_;  // used when no registry was given
};

}  // namespace feedcheck
