// `feedcheck cleanup URL`: finds the test data --create-test-data left behind when a run was
// killed with no chance to clean up (kill -9, a crashed node) and removes it. Only blobs under a
// prefix segment this tool generates (feedcheck-test-<UTC time>-<pid>-<8 hex digits>/) are ever
// touched; the whole listing is read before the first delete, and a dry run deletes nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck {

/// True for a name segment shaped exactly like UniqueTestPrefix() makes it, without the slash:
/// "feedcheck-test-20261122T035500Z-4242-1a2b3c4d".
bool IsTestDataSegment(std::string_view segment);

/// The test-data prefix a blob name lies under ("data/feedcheck-test-...-1a2b3c4d/"), or "" when
/// it lies under none.
std::string TestDataPrefixOf(std::string_view blob_name);

struct LeftoverCleanupOptions {
  bool dry_run = false;
  int max_pages = 1000;        ///< listing pages of up to 5,000 blobs
  size_t max_blobs = 1000000;  ///< names kept for deletion (memory bound)
};

struct LeftoverPrefix {
  std::string prefix;  ///< full blob-name prefix, ending in '/'
  uint64_t blobs = 0;
  uint64_t bytes = 0;
};

struct LeftoverCleanupResult {
  ProbeResult result;  ///< status, message, requests; probe = "cleanup"
  std::vector<LeftoverPrefix> prefixes;
  uint64_t blobs_found = 0;
  uint64_t blobs_deleted = 0;
  uint64_t delete_failures = 0;
  bool listing_complete = false;
};

LeftoverCleanupResult CleanUpLeftoverTestData(const HttpProbeEnv& env,
                                              const LeftoverCleanupOptions& options);

}  // namespace feedcheck
