// Finds what a read probe reads: the target itself when it is one object (HEAD answers 200),
// else the blobs under the target prefix (one List Blobs page). Every request goes through the
// budget like any other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probes/budget_tracker.h"
#include "probes/http_probe_env.h"
#include "transport/http_errors.h"

namespace feedcheck {

struct ObjectInfo {
  std::string name;  ///< blob name ("" for a plain URL)
  std::string url;   ///< unsigned URL
  uint64_t size_bytes = 0;
};

struct DiscoveryResult {
  std::vector<ObjectInfo> objects;  ///< non-empty objects only
  bool unreachable = false;         ///< no HTTP answer at all
  bool missing = false;             ///< answered: nothing there (HTTP 404, no non-empty blob)
  std::string error;                ///< why nothing was found (redacted)
  std::string skipped;  ///< listed blobs left out (an impossible size), for the result message
};

/// Finds up to `max_objects` non-empty objects at the target: the object itself, or the largest
/// `max_objects` of the first List Blobs page (5,000 entries) under the prefix.
DiscoveryResult DiscoverObjects(const HttpProbeEnv& env, HttpClient* client, BudgetTracker* budget,
                                ErrorTally* errors, size_t max_objects);

/// What a probe that found nothing to read reports (the exit codes of core/exit_status.h, through
/// the CLI): kUnreachable (exit 3, a target error) when there was no HTTP answer or the target does
/// not exist; kFailed (exit 4) when the target answered but refused, throttled or failed every
/// attempt: it was reached, the probe could not measure.
ProbeStatus DiscoveryStatus(const DiscoveryResult& found);

/// Blob names and sizes from one List Blobs XML page (no BlobPrefix entries); `next_marker`
/// receives <NextMarker> verbatim; entries whose size no blob can have are left out and named
/// in `invalid` (may be null). Exposed for tests.
std::vector<ObjectInfo> ParseListBlobsPage(const std::string& xml, std::string* next_marker,
                                           std::vector<std::string>* invalid = nullptr);

}  // namespace feedcheck
