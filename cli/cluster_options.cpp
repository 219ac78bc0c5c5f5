#include "cli/cluster_options.h"

#include "core/supply_model.h"

namespace feedcheck::cli {

void AddClusterOptions(CLI::App* app, ClusterFlags* flags) {
  app->add_option("--sku", flags->sku, "VM size of the cluster's nodes (knowledge base)");
  app->add_option("--nodes", flags->nodes, "Nodes that read at once")->check(CLI::Range(1, 100000));
  app->add_option("--region", flags->region, "Storage account region (its egress limit)");
  app->add_option(
      "--account-kind", flags->account_kind,
      "Storage target from the knowledge base (standard_gpv2, premium_block_blob, ...)");
  app->add_option("--account-egress-gbps", flags->account_egress,
                  "Account egress limit, overriding the knowledge base");
}

bool ResolveCluster(const KnowledgeBase& kb, const ClusterFlags& flags, ClusterChoice* out,
                    FlagError* error) {
  ClusterChoice c;
  if (!flags.sku.empty() && !ResolveNode(kb, flags.sku, "", &c.node, error)) return false;
  if (!ResolveAccount(kb, flags.region, flags.account_kind, flags.account_egress, &c.account,
                      error))
    return false;
  c.account_given =
      !flags.region.empty() || !flags.account_kind.empty() || !flags.account_egress.empty();
  *out = c;
  return true;
}

FactSet ClusterFlagFacts(const ClusterFlags& flags, const ClusterChoice& choice) {
  FactSet f;
  if (flags.nodes > 0)
    f.Set(NumberFact("node.count", flags.nodes, Unit::kCount, Declared("--nodes")));
  if (!flags.sku.empty()) f.Set(TextFact("node.sku", flags.sku, Declared("--sku")));
  if (!flags.region.empty()) f.Set(TextFact("account.region", flags.region, Declared("--region")));
  if (choice.account.egress_from_flag)
    f.Set(NumberFact("account.egress_gbps", choice.account.target.egress_gbps, Unit::kGbps,
                     Declared("--account-egress-gbps")));
  return f;
}

void AddClusterKnowledge(const KnowledgeBase& kb, const ClusterChoice& choice,
                         bool use_default_account, FactSet* facts) {
  AccountChoice account = choice.account;
  if (!choice.account_given && !use_default_account) account.from_kb = false;
  FactSet known;
  AddChoiceFacts(kb, choice.node, account, 0, &known);
  facts->Merge(known, /*keep_existing=*/true);
  AddSupplyFacts(facts);
}

}  // namespace feedcheck::cli
