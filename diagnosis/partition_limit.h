// Throttling that no account limit explains: storage refused requests while every account figure
// the metrics show (Egress, Transactions) stayed far below the account's limits and no
// ResponseType names an account limit. What was hit is then a per-blob or per-partition target
// (one blob serves up to 500 requests/s), not the account; this says so only when the metrics
// and the account's limits are there to show it.
#pragma once

#include <string>

#include "core/fact_set.h"

namespace feedcheck::diagnosis {

/// Public source of the per-blob and partition targets.
inline constexpr const char* kBlobTargetsSource =
    "\"Scalability and performance targets for Blob storage\", "
    "https://learn.microsoft.com/azure/storage/blobs/scalability-targets";

struct PartitionLimit {
  bool applies = false;
  std::string figures;  ///< "egress peaked at 3.1 of 200 Gbit/s, transactions at 1,200 of 40,000/s"
  bool confirmed = false;  ///< StorageBlobLogs show the refused requests themselves
  /// From StorageBlobLogs' Uri column, when it was there: the blob most refused requests were on.
  std::string hot_blob;
  bool one_blob = false;  ///< most refusals on it, or it met near a blob's 500 requests/s
};

/// applies when storage refused requests (rslex 503s, or throttling ResponseTypes) while
/// metrics.egress_gbps_peak and metrics.requests_per_s_peak were both under half of
/// account.egress_gbps and account.requests_per_s, and no ResponseType named an account limit.
/// figures then also say where StorageBlobLogs put the refused requests (metrics.bloblog.hot_blob):
/// on one blob (half of them or more, or near its 500 requests/s) or spread over many blobs
/// none of which came near it, which is a partition's target rather than a blob's.
PartitionLimit PartitionTargetHit(const FactSet& facts);

}  // namespace feedcheck::diagnosis
