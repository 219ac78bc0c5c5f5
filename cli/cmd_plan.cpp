// `feedcheck plan`: from a dataset shape and a node/account, the requests, listing cost, load
// time, disk fit, epoch lower bound and small-file overhead of reading the data
// (app/plan_workflow).
#include <memory>

#include "app/plan_workflow.h"
#include "cli/command.h"
#include "cli/report_output.h"

namespace feedcheck::cli {

void SetupPlan(CLI::App& root, CommandTable& table) {
  auto o = std::make_shared<app::PlanRequest>();
  auto output = std::make_shared<OutputFlags>();
  CLI::App* sub = root.add_subcommand(
      "plan", "Requests, listing cost, load time and disk fit of reading a dataset");
  sub->add_option("--bytes", o->bytes, "Total dataset size, e.g. 1TB, 50GB, 2.5TiB");
  sub->add_option("--files", o->files, "Number of files (blobs)");
  sub->add_option("--mean-file-bytes", o->mean_file_bytes, "Mean file size, e.g. 500KB");
  sub->add_option("--median-file-bytes", o->median_file_bytes,
                  "Median file size (for the small-file warning)");
  sub->add_option("--dirs", o->dirs, "Directories (layout: dirs x files per dir)");
  sub->add_option("--files-per-dir", o->files_per_dir, "Files per directory");
  sub->add_option("--block", o->block, "Read block size")->capture_default_str();
  sub->add_option("--sku", o->sku, "VM size of the nodes");
  sub->add_option("--nic-gbps", o->nic_gbps,
                  "Per-node network rate (Gbit/s); overrides the size's");
  sub->add_option("--nodes", o->nodes, "Nodes reading at once")->capture_default_str();
  sub->add_option("--region", o->region, "Storage account region, e.g. eastus");
  sub->add_option("--account-egress-gbps", o->account_egress_gbps, "Account egress limit (Gbit/s)");
  sub->add_option("--account-kind", o->account_kind, "Storage target from the knowledge base");
  sub->add_option("--epochs", o->epochs, "Passes over the data")->capture_default_str();
  sub->add_option("--request-latency-ms", o->request_latency_ms,
                  "Per-request latency for the overhead estimate (default: assumed 10 ms)");
  AddOutputFlags(sub, output.get());
  table.Add(sub, [o, output, &table] {
    o->knowledge = table.globals().knowledge;
    return Render(app::RunPlan(*o), *output, table.globals(), "plan");
  });
}

}  // namespace feedcheck::cli
