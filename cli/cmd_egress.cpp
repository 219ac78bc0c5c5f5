// `feedcheck egress`: how many nodes one storage account feeds at full NIC rate, what each node
// gets beyond that, and how many accounts to replicate the data across (app/egress_workflow).
#include <memory>

#include "app/egress_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupEgress(CLI::App& root, CommandTable& table) {
  auto request = std::make_shared<app::EgressRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "egress", "How many nodes one storage account feeds at full NIC rate, and what beyond");
  sub->add_option("--sku", request->sku,
                  "VM size, e.g. Standard_ND96asr_v4 ('Standard_' optional)");
  sub->add_option("--nic-gbps", request->nic_gbps,
                  "Per-node network rate (Gbit/s, or with a unit)");
  sub->add_option("--nodes", request->nodes, "Nodes reading at once");
  sub->add_option("--region", request->region, "Storage account region, e.g. eastus or 'East US'");
  sub->add_option("--account-egress-gbps", request->account_egress_gbps,
                  "Account egress limit (Gbit/s); overrides the region default");
  sub->add_option("--account-kind", request->account_kind,
                  "Storage target from the knowledge base, e.g. standard_gpv2_legacy_120");
  sub->add_flag("--all", request->all, "One row per known VM size");
  AddOutputFlags(sub, output.get());
  table.Add(sub, [request, output, &table] {
    request->knowledge = table.globals().knowledge;
    output->whole = request->all;  // --all asks for every row
    return Render(app::RunEgress(*request), *output, table.globals(), "egress");
  });
}

}  // namespace feedcheck::cli
