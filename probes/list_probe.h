// `probe list`: what listing costs and what the data looks like. Azure: List Blobs pages (flat
// or with a delimiter) or ADLS List Paths for abfss:// targets; a local or mounted path: a
// streaming readdir walk, then a stat of every entry. Emits probe.list.* and dataset.* facts.
#pragma once

#include <string>

#include "probes/http_probe_env.h"
#include "probes/probe.h"

namespace feedcheck {

struct ListProbeOptions {
  int max_results = 5000;  ///< entries per page (the service caps at 5000)
  int max_pages = 100;     ///< pages (requests) at most; local: max_pages * max_results entries
  std::string delimiter;   ///< "" = flat listing of everything under the prefix; "/" = one level
};

/// Builds the List Blobs (or List Paths, for kDfs) URL of one page, before signing.
std::string ListPageUrl(const Target& target, const ListProbeOptions& options,
                        const std::string& marker);

ProbeResult RunListProbe(const HttpProbeEnv& env, const ListProbeOptions& options);

/// The same on a directory: readdir streaming (time to first entry vs the whole walk) and the
/// cost of stat per entry.
ProbeResult RunLocalListProbe(const std::string& path, const ListProbeOptions& options,
                              const ProbeBudget& budget, const ProgressFn& progress);

}  // namespace feedcheck
