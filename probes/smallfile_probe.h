// `probe smallfiles`: what each object costs beyond its bytes. Reads objects of several sizes
// (4 KiB ... 64 MiB) at a fixed concurrency, fits time = overhead + in flight x size / bandwidth
// (core/smallfile_fit), and reports the per-request overhead and the path's aggregate bandwidth,
// both independent of the concurrency, and the break-even size at that concurrency. Works against a
// storage prefix (GET per object, or ranged GETs of a larger blob when no object of a size
// exists) and against a directory (open/read/close).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probes/http_probe_env.h"
#include "probes/probe.h"
#include "transport/list_blobs_xml.h"

namespace feedcheck {

struct SmallFileOptions {
  std::vector<uint64_t> sizes = {4ull << 10, 16ull << 10, 64ull << 10, 256ull << 10,
                                 1ull << 20, 4ull << 20,  16ull << 20, 64ull << 20};
  int concurrency = 4;
  int requests_per_size = 16;  ///< fewer for large sizes when the byte budget says so
};

/// One read: a whole object, or `bytes` from `offset` of a larger one.
struct SmallFileRead {
  std::string name;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  bool ranged = false;
};

struct SizeClassPlan {
  uint64_t size = 0;
  std::vector<SmallFileRead> reads;
  std::string how;  ///< "12 objects of ~64 KiB" or "ranged reads of big.bin"
};

/// Chooses what to read for each size from the objects a listing found: objects within 20% of
/// the size if there are any, else ranges of the smallest object that is large enough. Sizes
/// with neither are left out. Requests per size shrink so all classes together stay within
/// `max_bytes`.
std::vector<SizeClassPlan> PlanSmallFileReads(const std::vector<ListedEntry>& objects,
                                              const SmallFileOptions& options, uint64_t max_bytes);

ProbeResult RunSmallFileProbe(const HttpProbeEnv& env, const SmallFileOptions& options);
ProbeResult RunLocalSmallFileProbe(const std::string& dir, const SmallFileOptions& options,
                                   const ProbeBudget& budget, const ProgressFn& progress);

}  // namespace feedcheck
