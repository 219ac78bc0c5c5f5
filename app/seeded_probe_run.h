// What `probe list` and `probe smallfiles` share: a target that is a local directory or storage,
// seeded first with test data under a new unique prefix when --create-test-data asks, and that
// test data removed before the workflow returns (the cleanup registry removes it on a signal).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/probe_report.h"
#include "app/probe_session.h"
#include "probes/cleanup_registry.h"

namespace feedcheck::app {

/// What --create-test-data did, for the report.
struct TestDataOutcome {
  bool used = false;
  std::string location;  ///< prefix URL (redacted) or directory
  size_t objects = 0;
  uint64_t bytes = 0;
  size_t left = 0;  ///< objects that could not be removed
};

struct SeededRunRequest {
  std::string probe;  ///< "list", "smallfiles"
  ProbeSessionRequest session;
  bool create_test_data = false;
  std::vector<uint64_t> test_data_sizes;
  /// Where created test data is registered for removal on a signal; must outlive the run.
  CleanupRegistry* cleanup = nullptr;
  std::string plan;  ///< what the run will do, for the budget statement ("4 sizes, concurrency 4")
};

using LocalRun = std::function<ProbeResult(const std::string& dir, const ProbeBudget& budget,
                                           const ProgressFn& progress)>;
using StorageRun = std::function<ProbeResult(const HttpProbeEnv& env)>;

struct SeededRun {
  ExitStatus status = ExitStatus::kOk;  ///< not kOk: set-up failed, nothing ran
  ProbeResult result;
  ProbeTargetInfo target;
  TestDataOutcome test_data;
};

/// Opens the target, seeds it when asked, runs `local` or `storage`, removes the test data.
SeededRun RunSeeded(const SeededRunRequest& request, const ProbeCallbacks& callbacks,
                    const LocalRun& local, const StorageRun& storage, DiagnosticList* diagnostics);

/// Appends test_data_location, test_data_objects, test_data_bytes, test_data_removed, and an
/// error diagnostic when objects were left behind.
void AddTestDataResult(const TestDataOutcome& test_data, Report* report,
                       DiagnosticList* diagnostics);

}  // namespace feedcheck::app
