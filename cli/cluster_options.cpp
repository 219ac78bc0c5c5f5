#include "cli/cluster_options.h"

namespace feedcheck::cli {

void AddClusterOptions(CLI::App* app, app::ClusterSpec* flags) {
  app->add_option("--sku", flags->sku, "VM size of the cluster's nodes (knowledge base)");
  app->add_option("--nic-gbps", flags->nic_gbps,
                  "Per-node network rate, for a size the knowledge base does not know (or to "
                  "override it): 24, 1500Mbit/s");
  app->add_option("--nodes", flags->nodes, "Nodes that read at once")->check(CLI::Range(1, 100000));
  app->add_option("--region", flags->region, "Storage account region (its egress limit)");
  app->add_option(
      "--account-kind", flags->account_kind,
      "Storage target from the knowledge base (standard_gpv2, premium_block_blob, ...)");
  app->add_option("--account-egress-gbps", flags->account_egress,
                  "Account egress limit, overriding the knowledge base");
}

}  // namespace feedcheck::cli
