#include "app/egress_workflow.h"

#include <fmt/format.h>

#include "app/cluster_choice.h"
#include "app/fact_gathering.h"
#include "core/account_plan.h"
#include "core/diagnostic_codes.h"
#include "core/egress_calculator.h"
#include "core/units.h"

namespace feedcheck::app {
namespace {

std::string Gbps(double v) { return fmt::format("{} Gbit/s", FormatNumber(v)); }

// What one storage target is: an Azure Files target is a share, NetApp Files a volume, the
// rest storage accounts; the words of the tables follow.
std::string TargetUnit(const AccountChoice& a) {
  if (a.target.kind.rfind("azure_files", 0) == 0) return "share";
  if (a.target.kind.rfind("netapp_files", 0) == 0) return "volume";
  return "account";
}

std::string Capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string AccountLabel(const AccountChoice& a) {
  std::string where;
  if (!a.region.empty())
    where = fmt::format(" in {}, {}", a.region,
                        a.listed_region ? "a listed region" : "not a listed region");
  if (!a.from_kb)
    return fmt::format("an account{} with {} egress (from --account-egress-gbps)",
                       a.region.empty() ? "" : fmt::format(" in {}", a.region),
                       Gbps(a.target.egress_gbps));
  return fmt::format("one {} {}{} ({} egress{})", a.target.name, TargetUnit(a), where,
                     Gbps(a.target.egress_gbps),
                     a.egress_from_flag ? ", from --account-egress-gbps" : "");
}

void AddResult(Report* report, std::string key, double value, std::string unit, std::string label) {
  report->result.push_back({std::move(key), value, std::move(unit), std::move(label)});
}

// The account the numbers are for, in `result` too: scripts read its limit there.
void AddAccountResult(const AccountChoice& a, Report* report) {
  AddResult(report, "account_egress_gbps", a.target.egress_gbps, "Gbit/s", "Account egress");
  report->result.push_back({"account_kind", a.target.kind, "", "Account kind"});
  if (!a.region.empty()) {
    report->result.push_back({"account_region", a.region, "", "Account region"});
    report->result.push_back({"listed_region", a.listed_region, "", "Listed region"});
  }
}

TableCell NodesCell(double n) { return {fmt::format("{}", FormatNumber(n)), n}; }

Report AllSizes(const KnowledgeBase& kb, const AccountChoice& account, int nodes) {
  Report report;
  report.context = CurrentRunContext("egress");
  report.title = "Egress";
  report.verdict_detail =
      fmt::format("Nodes that {} feeds at full NIC rate", AccountLabel(account));
  AddAccountResult(account, &report);
  if (nodes > 0) AddResult(&report, "nodes", nodes, "", "Nodes");
  ReportTable table;
  table.title = "By VM size";
  table.columns = {{"sku", "Size"},
                   {"gpus", "GPUs"},
                   {"nic_gbps", "NIC", true},
                   {"full_rate_nodes", "Full-rate nodes", true},
                   {"degrade_from_nodes", "Degrades from", true},
                   {"retired_on", "Retired"}};
  if (nodes > 0) {
    table.columns.push_back({"per_node_gbps", fmt::format("Per node at {}", nodes), true});
    table.columns.push_back({"accounts_needed", "Accounts", true});
  }
  for (const auto& vm : kb.vms()) {
    EgressResult r;
    std::string error;
    if (!ComputeEgress({vm.nic_gbps, account.target.egress_gbps, nodes}, &r, &error)) continue;
    std::vector<TableCell> row{
        // The name alone, so a program can match it; retirement has its own column.
        {vm.name, std::nullopt},
        {vm.gpus > 0 ? fmt::format("{} x {}", vm.gpus, vm.gpu_model) : "-", std::nullopt},
        {Gbps(vm.nic_gbps), vm.nic_gbps},
        NodesCell(r.full_rate_nodes),
        NodesCell(r.degrade_from_nodes),
        {vm.retired_on, std::nullopt}};
    if (nodes > 0) {
      row.push_back({Gbps(r.per_node_gbps), r.per_node_gbps});
      row.push_back(NodesCell(r.accounts_needed));
    }
    table.rows.push_back(std::move(row));
  }
  if (!account.assumption.empty()) table.notes.push_back("Note: " + account.assumption);
  report.tables.push_back(std::move(table));
  return report;
}

Report OneSize(const KnowledgeBase& kb, const NodeChoice& node, const AccountChoice& account,
               int nodes, const EgressResult& r) {
  Report report;
  report.context = CurrentRunContext("egress");
  report.title = "Egress";
  std::string who =
      node.vm ? fmt::format("{} ({}{} NIC{})", VmLabel(*node.vm),
                            node.vm->gpus > 0
                                ? fmt::format("{} x {}, ", node.vm->gpus, node.vm->gpu_model)
                                : "",
                            Gbps(node.nic_gbps), node.nic_from_flag ? " from --nic-gbps" : "")
      : !node.unknown_sku.empty()
          ? fmt::format("{} (not in the knowledge base; {} NIC from --nic-gbps)", node.unknown_sku,
                        Gbps(node.nic_gbps))
          : fmt::format("nodes with a {} NIC", Gbps(node.nic_gbps));
  report.verdict_detail = fmt::format("{} reading {}", who, AccountLabel(account));
  AddChoiceFacts(kb, node, account, nodes, &report.evidence.facts);
  AddEgressFacts(r,
                 fmt::format("egress calculator: floor({} / {})",
                             FormatNumber(account.target.egress_gbps), FormatNumber(node.nic_gbps)),
                 &report.evidence.facts);

  AddResult(&report, "saturation_nodes", r.saturation_nodes, "",
            Capitalized(TargetUnit(account)) + " egress / NIC");
  AddResult(&report, "full_rate_nodes", r.full_rate_nodes, "", "Nodes at full NIC rate");
  AddResult(&report, "degrade_from_nodes", r.degrade_from_nodes, "", "Per-node rate falls from");
  if (node.vm) report.result.push_back({"sku", node.vm->name, "", "VM size"});
  if (node.vm && !node.vm->retired_on.empty())
    report.result.push_back({"retired_on", node.vm->retired_on, "", "Retired on"});
  AddResult(&report, "nic_gbps", node.nic_gbps, "Gbit/s", "NIC");
  AddAccountResult(account, &report);

  ReportTable t;
  t.title = fmt::format("Nodes one {} feeds", TargetUnit(account));
  t.columns = {{"what", ""}, {"value", "", true}, {"how", ""}};
  t.rows.push_back(
      {{"Nodes at full NIC rate", std::nullopt},
       NodesCell(r.full_rate_nodes),
       {fmt::format("floor({} / {}) = floor({})", FormatNumber(account.target.egress_gbps),
                    FormatNumber(node.nic_gbps), FormatNumber(r.saturation_nodes)),
        std::nullopt}});
  t.rows.push_back(
      {{"Per-node rate falls from", std::nullopt},
       NodesCell(r.degrade_from_nodes),
       {fmt::format("{} ({} / {} = {} each)", r.degrade_from_nodes == 1 ? "node" : "nodes",
                    FormatNumber(account.target.egress_gbps), r.degrade_from_nodes,
                    Gbps(account.target.egress_gbps / r.degrade_from_nodes)),
        std::nullopt}});
  if (r.nodes_given) {
    const std::string at = fmt::format("{} node{}", r.nodes, r.nodes == 1 ? "" : "s");
    AddResult(&report, "nodes", r.nodes, "", "Nodes");
    AddResult(&report, "per_node_gbps", r.per_node_gbps, "Gbit/s", "Per node at " + at);
    AddResult(&report, "aggregate_gbps", r.aggregate_gbps, "Gbit/s", "Aggregate at " + at);
    AddResult(&report, "accounts_needed", r.accounts_needed, "",
              Capitalized(TargetUnit(account)) + "s for full rate");
    report.result.push_back({"degraded", r.degraded, "", "Below the NIC rate"});
    t.rows.push_back({{"Per node at " + at, std::nullopt},
                      {Gbps(r.per_node_gbps), r.per_node_gbps},
                      {r.degraded ? fmt::format("{}% of the NIC",
                                                FormatNumber(100 * r.per_node_gbps / node.nic_gbps))
                                  : "full NIC rate",
                       std::nullopt}});
    t.rows.push_back({{"Aggregate at " + at, std::nullopt},
                      {Gbps(r.aggregate_gbps), r.aggregate_gbps},
                      {r.degraded ? fmt::format("the {} limit", TargetUnit(account))
                                  : fmt::format("{} x {}", r.nodes, Gbps(node.nic_gbps)),
                       std::nullopt}});
    // The same plan as the advice (core/account_plan.h): a node split, or striping when one
    // node's NIC or a block of nodes is above the account's egress.
    AccountPlan plan;
    if (PlanAccounts(r.nodes, node.nic_gbps, account.target.egress_gbps, &plan)) {
      AddResult(&report, "accounts", plan.accounts, "", "Accounts in the plan");
      report.result.push_back({"accounts_striped", plan.striped, "", "Shards striped"});
      AddResult(&report, "accounts_per_node", plan.accounts_per_node, "", "Accounts per node");
      report.result.push_back(
          {"node_split", NodeSplitText(plan, TargetUnit(account)), "", "Node split"});
      report.result.push_back(
          {"account_plan", AccountPlanSummary(plan, account.target.kind), "", "Account plan"});
      t.rows.push_back({{Capitalized(TargetUnit(account)) + "s for full rate", std::nullopt},
                        NodesCell(plan.accounts),
                        {AccountPlanSummary(plan, account.target.kind), std::nullopt}});
    }
  }
  if (!account.assumption.empty()) t.notes.push_back("Note: " + account.assumption);
  report.tables.push_back(std::move(t));

  ReportTable sources;
  sources.title = "Sources";
  sources.columns = {{"row", ""}, {"name", ""}, {"source", ""}};
  if (node.vm) {
    sources.rows.push_back({{RowRef(node.vm->file, node.vm->line), std::nullopt},
                            {node.vm->name, std::nullopt},
                            {node.vm->source, std::nullopt}});
    if (!node.vm->note.empty()) sources.notes.push_back("note: " + node.vm->note);
    if (!node.vm->retired_on.empty())
      sources.notes.push_back(
          fmt::format("retired {}: {}", node.vm->retired_on, node.vm->retired_source));
  }
  if (account.from_kb)
    sources.rows.push_back({{RowRef(account.target.file, account.target.line), std::nullopt},
                            {account.target.name, std::nullopt},
                            {account.target.source, std::nullopt}});
  if (!sources.rows.empty()) report.tables.push_back(std::move(sources));
  return report;
}

}  // namespace

Outcome RunEgress(const EgressRequest& request) {
  auto usage = [](std::string message) {
    return Stopped(ExitStatus::kUsage, codes::kBadFlag, std::move(message));
  };
  Outcome outcome;
  KnowledgeBase kb;
  if (!LoadKnowledgeBase(request.knowledge, &kb, &outcome.diagnostics)) {
    outcome.status = ExitStatus::kInputError;
    return outcome;
  }
  FlagError error;
  int nodes = 0;
  if (!request.nodes.empty()) {
    auto n = ParseCountFlag("--nodes", request.nodes, &error);
    if (!n) return usage(error.message);
    if (*n < 1 || *n > 1e6) return usage("--nodes: must be between 1 and 1,000,000");
    nodes = static_cast<int>(*n);
  }
  AccountChoice account;
  if (!ResolveAccount(kb, request.region, request.account_kind, request.account_egress_gbps,
                      &account, &error))
    return usage(error.message);
  // Not a bad flag value (premium_block_blob is a valid kind): an input the arithmetic needs
  // is missing, so W002, not W001.
  if (!(account.target.egress_gbps > 0))
    return Stopped(ExitStatus::kUsage, codes::kMissingInput,
                   fmt::format("{} has no published egress limit ({}); give --account-egress-gbps",
                               account.target.name, account.target.source));
  if (request.all) {
    if (!request.sku.empty() || !request.nic_gbps.empty())
      return usage("--all lists every size: drop --sku/--nic-gbps");
    outcome.report = AllSizes(kb, account, nodes);
    outcome.has_report = true;
    return outcome;
  }
  if (request.sku.empty() && request.nic_gbps.empty())
    return Stopped(ExitStatus::kUsage, codes::kMissingInput,
                   "give --sku SIZE or --nic-gbps G (or --all)");
  NodeChoice node;
  if (!ResolveNode(kb, request.sku, request.nic_gbps, &node, &error)) return usage(error.message);
  EgressResult r;
  std::string why;
  if (!ComputeEgress({node.nic_gbps, account.target.egress_gbps, nodes}, &r, &why))
    return usage(why);
  outcome.report = OneSize(kb, node, account, nodes, r);
  outcome.has_report = true;
  return outcome;
}

}  // namespace feedcheck::app
