// Layers knowledge-base facts under declared ones: node.* for the profile's VM size,
// account.* for its storage target or region, and the egress.* figures derived from them.
// Declared facts always win over the knowledge base.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"

namespace feedcheck::rules {

struct KnowledgeRequest {
  std::string sku;      ///< VM size name, may be empty
  std::string region;   ///< storage account region, may be empty
  std::string account;  ///< storage target name, may be empty
  SourceLocation sku_location;
  SourceLocation account_location;
  SourceLocation region_location;
};

/// Adds what the knowledge base knows to `facts` (keeping facts already there), then the
/// egress.* facts when node.nic_gbps and account.egress_gbps are known. Unknown names become
/// diagnostics with a near-miss suggestion. Returns false when the knowledge base could not
/// be used at all.
bool AddKnowledgeFacts(const KnowledgeRequest& request, const std::string& data_dir,
                       const std::vector<std::string>& override_files, FactSet* facts,
                       DiagnosticList* diagnostics);

}  // namespace feedcheck::rules
