// `feedcheck egress`: how many nodes one storage account feeds at full NIC rate, what each node
// gets beyond that, and how many accounts to replicate the data across.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/sizing_common.h"
#include "cli/text_table.h"
#include "core/account_plan.h"
#include "core/egress_calculator.h"
#include "core/evidence.h"
#include "core/evidence_json.h"
#include "core/exit_status.h"
#include "core/json_text.h"

namespace feedcheck::cli {
namespace {

struct EgressOptions {
  std::string sku;
  std::string nic_gbps;
  std::string nodes;
  std::string region;
  std::string account_egress_gbps;
  std::string account_kind;
  bool all = false;
};

std::string Gbps(double v) { return fmt::format("{} Gbit/s", FormatNumber(v)); }

std::string AccountLabel(const AccountChoice& a) {
  std::string where;
  if (!a.region.empty())
    where = fmt::format(" in {}, {}", a.region,
                        a.listed_region ? "a listed region" : "not a listed region");
  if (!a.from_kb)
    return fmt::format("an account{} with {} egress (from --account-egress-gbps)",
                       a.region.empty() ? "" : fmt::format(" in {}", a.region),
                       Gbps(a.target.egress_gbps));
  return fmt::format("one {} account{} ({} egress{})", a.target.name, where,
                     Gbps(a.target.egress_gbps),
                     a.egress_from_flag ? ", from --account-egress-gbps" : "");
}

nlohmann::json AccountJson(const AccountChoice& a) {
  nlohmann::json j = {{"name", a.target.name},
                      {"kind", a.target.kind},
                      {"egress_gbps", a.target.egress_gbps},
                      {"egress_from_flag", a.egress_from_flag}};
  if (!a.region.empty()) {
    j["region"] = a.region;
    j["listed_region"] = a.listed_region;
  }
  if (a.from_kb) j["source"] = RowRef(a.target.file, a.target.line) + " " + a.target.source;
  return j;
}

nlohmann::json ResultJson(const EgressResult& r) {
  nlohmann::json j = {{"saturation_nodes", r.saturation_nodes},
                      {"full_rate_nodes", r.full_rate_nodes},
                      {"degrade_from_nodes", r.degrade_from_nodes}};
  if (r.nodes_given) {
    j["nodes"] = r.nodes;
    j["per_node_gbps"] = r.per_node_gbps;
    j["aggregate_gbps"] = r.aggregate_gbps;
    j["accounts_needed"] = r.accounts_needed;
    j["degraded"] = r.degraded;
  }
  return j;
}

int RunAll(const KnowledgeBase& kb, const AccountChoice& account, int nodes, bool json) {
  TextTable table(
      nodes > 0
          ? std::vector<std::string>{"Size", "GPUs", "NIC", "Full-rate nodes", "Degrades from",
                                     fmt::format("Per node at {}", nodes), "Accounts"}
          : std::vector<std::string>{"Size", "GPUs", "NIC", "Full-rate nodes", "Degrades from"});
  for (size_t c = 2; c < 7; ++c) table.AlignRight(c);
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& vm : kb.vms()) {
    EgressResult r;
    std::string error;
    if (!ComputeEgress({vm.nic_gbps, account.target.egress_gbps, nodes}, &r, &error)) continue;
    std::string gpus = vm.gpus > 0 ? fmt::format("{} x {}", vm.gpus, vm.gpu_model) : "-";
    std::vector<std::string> cells{VmLabel(vm), gpus, Gbps(vm.nic_gbps),
                                   std::to_string(r.full_rate_nodes),
                                   std::to_string(r.degrade_from_nodes)};
    if (nodes > 0) {
      cells.push_back(Gbps(r.per_node_gbps));
      cells.push_back(std::to_string(r.accounts_needed));
    }
    table.AddRow(std::move(cells));
    nlohmann::json row = ResultJson(r);
    row["sku"] = vm.name;
    row["gpus"] = vm.gpus;
    row["gpu_model"] = vm.gpu_model;
    if (!vm.retired_on.empty()) row["retired_on"] = vm.retired_on;
    row["nic_gbps"] = vm.nic_gbps;
    row["source"] = RowRef(vm.file, vm.line);
    rows.push_back(std::move(row));
  }
  if (json) {
    nlohmann::json out = {{"schema_version", kEvidenceSchemaVersion},
                          {"command", "egress"},
                          {"account", AccountJson(account)},
                          {"rows", rows}};
    if (nodes > 0) out["nodes"] = nodes;
    if (!account.assumption.empty()) out["assumptions"] = {account.assumption};
    fmt::print("{}\n", JsonText(out, 2));
    return ToInt(ExitStatus::kOk);
  }
  fmt::print("Nodes that {} feeds at full NIC rate:\n\n{}", AccountLabel(account), table.Render());
  if (!account.assumption.empty()) fmt::print("\nNote: {}\n", account.assumption);
  return ToInt(ExitStatus::kOk);
}

int Run(const EgressOptions& o, const GlobalOptions& globals) {
  auto usage = [](const std::string& message) {
    fmt::print(stderr, "feedcheck egress: {}\n", message);
    return ToInt(ExitStatus::kUsage);
  };
  KnowledgeBase kb;
  if (int code = LoadKnowledgeBase(globals, &kb)) return code;

  FlagError error;
  int nodes = 0;
  if (!o.nodes.empty()) {
    auto n = ParseCountFlag("--nodes", o.nodes, &error);
    if (!n) return usage(error.message);
    if (*n < 1 || *n > 1e6) return usage("--nodes: must be between 1 and 1,000,000");
    nodes = static_cast<int>(*n);
  }
  AccountChoice account;
  if (!ResolveAccount(kb, o.region, o.account_kind, o.account_egress_gbps, &account, &error))
    return usage(error.message);
  if (!(account.target.egress_gbps > 0))
    return usage(fmt::format("{} has no published egress limit ({}); give --account-egress-gbps",
                             account.target.name, account.target.source));
  if (o.all) {
    if (!o.sku.empty() || !o.nic_gbps.empty())
      return usage("--all lists every size: drop --sku/--nic-gbps");
    return RunAll(kb, account, nodes, globals.json);
  }
  if (o.sku.empty() && o.nic_gbps.empty())
    return usage("give --sku SIZE or --nic-gbps G (or --all)");
  NodeChoice node;
  if (!ResolveNode(kb, o.sku, o.nic_gbps, &node, &error)) return usage(error.message);

  EgressResult r;
  std::string why;
  if (!ComputeEgress({node.nic_gbps, account.target.egress_gbps, nodes}, &r, &why))
    return usage(why);

  Evidence evidence;
  AddChoiceFacts(kb, node, account, nodes, &evidence.facts);
  AddEgressFacts(r,
                 fmt::format("egress calculator: floor({} / {})",
                             FormatNumber(account.target.egress_gbps), FormatNumber(node.nic_gbps)),
                 &evidence.facts);

  if (globals.json) {
    nlohmann::json facts = nlohmann::json::array();
    for (const auto& [key, fact] : evidence.facts) facts.push_back(FactToJson(fact));
    nlohmann::json out = {{"schema_version", kEvidenceSchemaVersion},
                          {"command", "egress"},
                          {"node",
                           {{"sku", node.vm ? node.vm->name : ""},
                            {"nic_gbps", node.nic_gbps},
                            {"retired_on", node.vm && !node.vm->retired_on.empty()
                                               ? nlohmann::json(node.vm->retired_on)
                                               : nlohmann::json(nullptr)}}},
                          {"account", AccountJson(account)},
                          {"result", ResultJson(r)},
                          {"facts", facts}};
    if (!account.assumption.empty()) out["assumptions"] = {account.assumption};
    AccountPlan plan;
    if (r.nodes_given && PlanAccounts(r.nodes, node.nic_gbps, account.target.egress_gbps, &plan))
      out["plan"] = {{"accounts", plan.accounts},
                     {"striped", plan.striped},
                     {"accounts_per_node", plan.accounts_per_node},
                     {"node_split", NodeSplitText(plan)},
                     {"summary", AccountPlanSummary(plan)}};
    fmt::print("{}\n", JsonText(out, 2));
    return ToInt(ExitStatus::kOk);
  }

  std::string who =
      node.vm ? fmt::format("{} ({}{} NIC{})", VmLabel(*node.vm),
                            node.vm->gpus > 0
                                ? fmt::format("{} x {}, ", node.vm->gpus, node.vm->gpu_model)
                                : "",
                            Gbps(node.nic_gbps), node.nic_from_flag ? " from --nic-gbps" : "")
              : fmt::format("nodes with a {} NIC", Gbps(node.nic_gbps));
  fmt::print("{} reading {}\n\n", who, AccountLabel(account));
  TextTable t;
  t.AlignRight(1);
  t.AddRow({"Nodes at full NIC rate", std::to_string(r.full_rate_nodes),
            fmt::format("floor({} / {}) = floor({})", FormatNumber(account.target.egress_gbps),
                        FormatNumber(node.nic_gbps), FormatNumber(r.saturation_nodes))});
  t.AddRow({"Per-node rate falls from", std::to_string(r.degrade_from_nodes),
            fmt::format("{} ({} / {} = {} each)", r.degrade_from_nodes == 1 ? "node" : "nodes",
                        FormatNumber(account.target.egress_gbps), r.degrade_from_nodes,
                        Gbps(account.target.egress_gbps / r.degrade_from_nodes))});
  if (r.nodes_given) {
    t.AddRow({fmt::format("Per node at {} node{}", r.nodes, r.nodes == 1 ? "" : "s"),
              Gbps(r.per_node_gbps),
              r.degraded ? fmt::format("{}% of the NIC",
                                       FormatNumber(100 * r.per_node_gbps / node.nic_gbps))
                         : "full NIC rate"});
    t.AddRow(
        {fmt::format("Aggregate at {} node{}", r.nodes, r.nodes == 1 ? "" : "s"),
         Gbps(r.aggregate_gbps),
         r.degraded ? "the account limit" : fmt::format("{} x {}", r.nodes, Gbps(node.nic_gbps))});
    // The same plan as the advice (core/account_plan.h): a node split, or striping when one
    // node's NIC or a block of nodes is above the account's egress.
    AccountPlan plan;
    PlanAccounts(r.nodes, node.nic_gbps, account.target.egress_gbps, &plan);
    t.AddRow({"Accounts for full rate", std::to_string(plan.accounts), AccountPlanSummary(plan)});
  }
  fmt::print("{}", t.Render());
  fmt::print("\nSources:\n");
  if (node.vm)
    fmt::print("  {} {}: {}\n", RowRef(node.vm->file, node.vm->line), node.vm->name,
               node.vm->source);
  if (node.vm && !node.vm->note.empty()) fmt::print("    note: {}\n", node.vm->note);
  if (node.vm && !node.vm->retired_on.empty())
    fmt::print("    retired {}: {}\n", node.vm->retired_on, node.vm->retired_source);
  if (account.from_kb)
    fmt::print("  {} {}: {}\n", RowRef(account.target.file, account.target.line),
               account.target.name, account.target.source);
  if (!account.assumption.empty()) fmt::print("\nNote: {}\n", account.assumption);
  return ToInt(ExitStatus::kOk);
}

}  // namespace

void SetupEgress(CLI::App& root, CommandTable& table) {
  auto o = std::make_shared<EgressOptions>();
  CLI::App* sub = root.add_subcommand(
      "egress", "How many nodes one storage account feeds at full NIC rate, and what beyond");
  sub->add_option("--sku", o->sku, "VM size, e.g. Standard_ND96asr_v4 ('Standard_' optional)");
  sub->add_option("--nic-gbps", o->nic_gbps, "Per-node network rate (Gbit/s, or with a unit)");
  sub->add_option("--nodes", o->nodes, "Nodes reading at once");
  sub->add_option("--region", o->region, "Storage account region, e.g. eastus or 'East US'");
  sub->add_option("--account-egress-gbps", o->account_egress_gbps,
                  "Account egress limit (Gbit/s); overrides the region default");
  sub->add_option("--account-kind", o->account_kind,
                  "Storage target from the knowledge base, e.g. standard_gpv2_legacy_120");
  sub->add_flag("--all", o->all, "One row per known VM size");
  table.Add(sub, [o, &table] { return Run(*o, table.globals()); });
}

}  // namespace feedcheck::cli
