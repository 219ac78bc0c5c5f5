// `egress`: how many nodes one storage account feeds at full NIC rate, what each node gets
// beyond that, and how many accounts to replicate the data across; or that table for every
// known VM size.
#pragma once

#include <string>

#include "app/knowledge_inputs.h"
#include "app/outcome.h"

namespace feedcheck::app {

/// The flags as the user wrote them (values with units are parsed here, errors name the flag).
struct EgressRequest {
  KnowledgeInputs knowledge;
  std::string sku;
  std::string nic_gbps;
  std::string nodes;  ///< "" when not given
  std::string region;
  std::string account_egress_gbps;
  std::string account_kind;
  bool all = false;  ///< one row per known VM size
};

/// The Report has the headline numbers in `result` (full_rate_nodes, degrade_from_nodes, ...),
/// the derivation as a table and the facts with provenance. Bad flags: kUsage; a broken
/// knowledge-base file: kInputError.
Outcome RunEgress(const EgressRequest& request);

}  // namespace feedcheck::app
