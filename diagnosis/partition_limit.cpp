#include "diagnosis/partition_limit.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "core/units.h"

namespace feedcheck::diagnosis {

namespace {

// A blob serves up to 500 requests/s (the targets page); 400 in one logged second is near it.
constexpr double kNearBlobTargetPerS = 400;

}  // namespace

PartitionLimit PartitionTargetHit(const FactSet& facts) {
  PartitionLimit out;
  double refused = facts.NumberOr("metrics.throttled_total", 0);
  for (const auto& [key, fact] : facts)
    if (key.rfind("runtime.throttled.", 0) == 0 && fact.is_number()) refused += fact.number();
  if (refused <= 0) return out;
  // A ResponseType that names an account limit settles it the other way.
  if (facts.NumberOr("metrics.throttled.ClientAccountBandwidthThrottlingError", 0) > 0 ||
      facts.NumberOr("metrics.throttled.ClientAccountRequestThrottlingError", 0) > 0 ||
      facts.NumberOr("runtime.throttled.egress", 0) > 0 ||
      facts.NumberOr("runtime.throttled.ingress", 0) > 0 ||
      facts.NumberOr("runtime.throttled.requests", 0) > 0)
    return out;
  auto egress = facts.Number("metrics.egress_gbps_peak");
  auto egress_limit = facts.Number("account.egress_gbps");
  auto requests = facts.Number("metrics.requests_per_s_peak");
  auto requests_limit = facts.Number("account.requests_per_s");
  if (!egress || !egress_limit || !requests || !requests_limit || *egress_limit <= 0 ||
      *requests_limit <= 0)
    return out;
  if (*egress >= 0.5 * *egress_limit || *requests >= 0.5 * *requests_limit) return out;
  out.applies = true;
  out.confirmed = facts.NumberOr("metrics.bloblog.throttled", 0) > 0;
  out.figures = fmt::format(
      "egress peaked at {:.1f} of the account's {:.0f} Gbit/s and transactions at {} of "
      "its {}/s",
      *egress, *egress_limit, FormatGrouped(std::round(*requests), 9),
      FormatGrouped(*requests_limit, 9));
  const Fact* hot = facts.Find("metrics.bloblog.hot_blob");
  if (!out.confirmed || !hot || !hot->is_text()) return out;
  out.hot_blob = hot->text();
  const double share = facts.NumberOr("metrics.bloblog.hot_blob_throttled_share", 0);
  const double peak_per_s = facts.NumberOr("metrics.bloblog.hot_blob_requests_per_s_peak", 0);
  out.one_blob = share >= 0.5 || peak_per_s >= kNearBlobTargetPerS;
  out.figures += out.one_blob ? fmt::format(
                                    "; StorageBlobLogs put {:.0f}% of the refused requests on one "
                                    "blob, {}, which met up to {:.0f} requests in a second",
                                    100 * share, out.hot_blob, peak_per_s)
                              : fmt::format(
                                    "; StorageBlobLogs spread the refused requests over many "
                                    "blobs, the most refused ({}, {:.0f}% of them) meeting at "
                                    "most {:.0f} requests in a second: the blobs' partition, not "
                                    "one blob",
                                    out.hot_blob, 100 * share, peak_per_s);
  return out;
}

}  // namespace feedcheck::diagnosis
