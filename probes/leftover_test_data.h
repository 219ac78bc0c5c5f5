// `feedcheck cleanup URL`: finds the test data --create-test-data left behind when a run was
// killed with no chance to clean up (kill -9, a crashed node) and removes it. Only blobs under a
// prefix segment this tool generates (feedcheck-test-<UTC time>-<pid>-<8 hex digits>/, the
// grammar of test_prefix_name.h) and under the prefix asked for are ever touched; nothing is
// deleted unless the whole listing was read; prefixes from the last 24 hours (a run may still be
// using them) are skipped unless forced; a dry run deletes nothing.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck {

/// True for a name segment exactly as UniqueTestPrefix() makes it, without the slash:
/// "feedcheck-test-20261122T035500Z-4242-1a2b3c4d" (ParseTestPrefixSegment).
bool IsTestDataSegment(std::string_view segment);

/// How close to now a prefix's time must be for cleanup to take it as a live run's.
inline constexpr double kRecentTestPrefixS = 24 * 3600;

/// The test-data prefix a blob name lies under ("data/feedcheck-test-...-1a2b3c4d/"), or "" when
/// it lies under none.
std::string TestDataPrefixOf(std::string_view blob_name);

struct LeftoverCleanupOptions {
  bool dry_run = false;
  int max_pages = 1000;        ///< listing pages of up to 5,000 blobs
  size_t max_blobs = 1000000;  ///< names kept for deletion (memory bound)
  /// Also delete prefixes whose time is within kRecentTestPrefixS of now (a live run's).
  bool force = false;
  std::time_t now_utc_s = 0;  ///< 0: the clock
};

struct LeftoverPrefix {
  std::string prefix;  ///< full blob-name prefix, ending in '/'
  uint64_t blobs = 0;
  uint64_t bytes = 0;
  bool recent = false;  ///< within kRecentTestPrefixS of now: skipped unless forced
};

struct LeftoverCleanupResult {
  ProbeResult result;  ///< status, message, requests; probe = "cleanup"
  std::vector<LeftoverPrefix> prefixes;
  uint64_t blobs_found = 0;
  uint64_t blobs_deleted = 0;
  uint64_t delete_failures = 0;
  uint64_t blobs_skipped_recent = 0;  ///< under recent prefixes, left alone
  uint64_t outside_prefix = 0;        ///< listed names not under the prefix asked for: ignored
  bool listing_complete = false;
};

LeftoverCleanupResult CleanUpLeftoverTestData(const HttpProbeEnv& env,
                                              const LeftoverCleanupOptions& options);

}  // namespace feedcheck
