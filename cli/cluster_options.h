// The cluster a workflow judges: VM size, node count and storage account, from flags shared by
// `preflight` and `postmortem`. Flag facts win over a profile; the knowledge base fills in
// only what neither gave.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/sizing_common.h"
#include "core/fact_set.h"
#include "core/knowledge_base.h"

namespace feedcheck::cli {

struct ClusterFlags {
  std::string sku;
  int nodes = 0;
  std::string region;
  std::string account_kind;
  std::string account_egress;
};

/// Adds --sku, --nodes, --region, --account-kind, --account-egress-gbps.
void AddClusterOptions(CLI::App* app, ClusterFlags* flags);

struct ClusterChoice {
  NodeChoice node;
  AccountChoice account;
  bool account_given = false;  ///< --region, --account-kind or --account-egress-gbps was given
};

/// Resolves the flags against the knowledge base; false with a message naming the flag.
bool ResolveCluster(const KnowledgeBase& kb, const ClusterFlags& flags, ClusterChoice* out,
                    FlagError* error);

/// What the flags declared (node.count, node.sku, account.region, account.egress_gbps), to
/// layer over a profile.
FactSet ClusterFlagFacts(const ClusterFlags& flags, const ClusterChoice& choice);

/// Adds the knowledge base's node.* and account.* facts for the choice under `facts` (keeping
/// what is there), then the supply.* figures. The default account (a standard account in a
/// listed region) is used only when `use_default_account`, else only an account the flags
/// named.
void AddClusterKnowledge(const KnowledgeBase& kb, const ClusterChoice& choice,
                         bool use_default_account, FactSet* facts);

}  // namespace feedcheck::cli
