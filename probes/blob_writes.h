// The two guards every write of test data goes through (feedcheck-seed, --create-test-data): a
// prefix counts as empty only when its whole listing says so, following NextMarker through empty
// pages (Azure may send a page with no entries and a marker), and each Put Blob is conditional
// (If-None-Match: *), so a blob another writer created after the check is reported, not replaced.
#pragma once

#include <cstdint>
#include <string>

#include "probes/http_probe_env.h"

namespace feedcheck {

struct PrefixCheck {
  bool answered = false;   ///< false: `error` says why the listing could not be read
  bool empty = false;      ///< meaningful when answered
  std::string first_name;  ///< a blob (or BlobPrefix) found there, when not empty
  std::string error;
  uint64_t requests = 0;        ///< listing pages asked for
  uint64_t response_bytes = 0;  ///< their body bytes
  double first_round_trip_s = 0;
};

/// Lists `prefix` of env.target's container one entry a page, until an entry or the end of the
/// listing, at most `max_pages` pages (then not answered: "could not tell"). A NextMarker that
/// repeats ends it the same way. `timeout_s` bounds each page.
PrefixCheck CheckPrefixEmpty(const HttpProbeEnv& env, HttpClient* client, const std::string& prefix,
                             int max_pages, double timeout_s);

/// A signed Put Blob of `body` to blob `name` that only creates: "If-None-Match: *" unless
/// `unconditional` (feedcheck-seed --overwrite, where replacing was asked for).
HttpRequest PutBlobRequest(const HttpProbeEnv& env, const std::string& name, std::string body,
                           bool unconditional = false);

/// The words for a Put Blob the service refused because the name exists (409 BlobAlreadyExists or
/// 412 ConditionNotMet); empty for any other answer. Such a refusal is never retried as a write.
std::string ExistingBlobRefusal(const HttpResponse& response, const std::string& name);

}  // namespace feedcheck
