// `plan`: from a dataset shape and a node/account, the requests, listing cost, load time, disk
// fit, epoch lower bound and small-file overhead of reading the data.
#pragma once

#include <string>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"

namespace feedcheck::app {

/// The flags as the user wrote them ("1TB", "2,000,000", "500 KB"); "" when not given.
struct PlanRequest {
  KnowledgeInputs knowledge;
  std::string bytes, files, mean_file_bytes, median_file_bytes, dirs, files_per_dir;
  std::string block = "4MiB";
  std::string sku, nic_gbps, nodes = "1", region, account_egress_gbps, account_kind;
  std::string epochs = "1", request_latency_ms;
};

/// The Report's `result` has the plan's totals (get_requests, list_requests_*, load_s_*,
/// fits_on_disk, epoch_s_min, small_files, ...), its tables the costs with how each was
/// reckoned, its facts the inputs with provenance. Bad flags or an incomplete shape: kUsage.
Outcome RunPlan(const PlanRequest& request);

}  // namespace feedcheck::app
