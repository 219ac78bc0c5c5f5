// --create-test-data: seeds objects for the probes under a prefix it creates itself, and removes
// exactly those objects afterwards — on normal exit, on error and on SIGINT/SIGTERM (through the
// cleanup registry). It never writes outside that prefix and never deletes anything it did not
// create, so pre-existing data is never touched. Works on storage targets (Put Blob / Delete
// Blob; needs Shared Key or a SAS with write and delete) and on directories.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "probes/cleanup_registry.h"
#include "probes/http_probe_env.h"

namespace feedcheck {

struct TestDataSpec {
  std::vector<uint64_t> sizes = {4ull << 10, 16ull << 10, 64ull << 10, 256ull << 10,
                                 1ull << 20, 4ull << 20,  16ull << 20, 64ull << 20};
  int copies_per_size = 4;
  uint64_t max_total_bytes = 512ull << 20;  ///< big sizes get fewer copies to stay under this
};

/// The objects a spec creates: name (relative to the new prefix) and size, in creation order.
std::vector<std::pair<std::string, uint64_t>> PlanTestObjects(const TestDataSpec& spec);

/// What --create-test-data may spend of a run's budget, so setup and cleanup count like any
/// other request: the emptiness check, the PUTs and the DELETEs that undo them take at most half
/// of --max-requests, the uploaded bytes at most half of --max-bytes, the uploads at most a third
/// of --duration; the probe gets the rest. Fewer copies are planned when that is all that fits.
/// False with `error` naming the flag and what would fit when not even one object of each size
/// fits: then nothing may be written.
bool PlanTestDataWithin(const TestDataSpec& spec, const ProbeBudget& budget,
                        std::vector<std::pair<std::string, uint64_t>>* plan, std::string* error);

/// `size` deterministic bytes from `seed` that do not compress to nothing (a proxy or a disk
/// could cheat on zeros): the content of every object the tools here write.
std::string TestContent(uint64_t size, uint64_t seed);

/// A unique prefix/dir name: "feedcheck-test-20261122T035500Z-4242-1a2b3c4d/".
std::string UniqueTestPrefix();

class TestData {
 public:
  TestData() = default;
  ~TestData();  // removes what it created (also done by the registry on a signal)
  TestData(const TestData&) = delete;
  TestData& operator=(const TestData&) = delete;

  /// Seeds a storage target within env.budget (PlanTestDataWithin). On success `env_out` is
  /// `env` pointed at the new prefix, with a budget of what setup and the reserved cleanup
  /// leave (requests, bytes and time).
  bool CreateInStorage(const HttpProbeEnv& env, const TestDataSpec& spec, CleanupRegistry* registry,
                       HttpProbeEnv* env_out, std::string* error);
  /// Seeds a new directory inside `dir`; `dir_out` is its path.
  bool CreateInDirectory(const std::string& dir, const TestDataSpec& spec,
                         CleanupRegistry* registry, std::string* dir_out, std::string* error);

  /// Removes everything created (idempotent). Returns how many objects could not be removed.
  size_t Remove();
  const std::string& location() const;  ///< prefix URL or directory, for messages
  size_t created() const;
  uint64_t created_bytes() const;

  struct State;  // shared with the registry's cleanup action

 private:
  std::shared_ptr<State> state_;
  CleanupRegistry* registry_ = nullptr;
  CleanupRegistry::Id cleanup_id_ = 0;
};

}  // namespace feedcheck
