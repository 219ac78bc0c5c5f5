#include "rules/knowledge_facts.h"

#include <fmt/format.h>

#include <cmath>

#include "rules/rule_messages.h"

#if __has_include("core/knowledge_base.h") && __has_include("core/egress_calculator.h")
#define FEEDCHECK_HAVE_KB 1
#include "core/account_lookup.h"
#include "core/diagnostic_codes.h"
#include "core/egress_calculator.h"
#include "core/knowledge_base.h"
#include "core/supply_model.h"
#else
#define FEEDCHECK_HAVE_KB 0
#endif

namespace feedcheck::rules {

#if FEEDCHECK_HAVE_KB
namespace {

void AddEgress(FactSet* facts) {
  auto nic = facts->NumberIn("node.nic_gbps", Unit::kGbps);
  auto limit = facts->NumberIn("account.egress_gbps", Unit::kGbps);
  if (!nic || !limit || *nic <= 0 || *limit <= 0) return;
  EgressInput input;
  input.nic_gbps = *nic;
  input.account_egress_gbps = *limit;
  if (auto n = facts->Number("node.count"); n && *n >= 1 && *n < 1e6)
    input.nodes = static_cast<int>(std::lround(*n));
  EgressResult result;
  std::string error;
  if (!ComputeEgress(input, &result, &error)) return;
  FactSet derived;
  AddEgressFacts(result, "egress calculator (node.nic_gbps, account.egress_gbps, node.count)",
                 &derived);
  facts->Merge(derived, /*keep_existing=*/true);
}

}  // namespace

bool AddKnowledgeFacts(const KnowledgeRequest& request, const std::string& data_dir,
                       const std::vector<std::string>& override_files, FactSet* facts,
                       DiagnosticList* diagnostics) {
  KnowledgeBase kb;
  bool ok = KnowledgeBase::Load(data_dir, override_files, &kb, diagnostics);
  FactSet known;
  if (!request.sku.empty()) {
    if (const VmSize* vm = kb.FindVm(request.sku)) {
      kb.AddNodeFacts(*vm, &known);
      // A per-GPU demand on a size without GPUs is a demand of 0 for GPUs that do not exist:
      // the profile and the size contradict each other (unless the profile declares GPUs).
      const Fact* per_gpu = facts->Find("workload.gpu_demand_per_gpu_gbps");
      if (vm->gpus == 0 && per_gpu && !facts->Has("node.gpus") &&
          !facts->Has("workload.gpu_demand_gbps")) {
        SourceLocation at{per_gpu->provenance.file, per_gpu->provenance.line, 0};
        diagnostics->Add(Diagnostic{
            codes::kProfileValue, DiagnosticSeverity::kError,
            fmt::format("a per-GPU input demand ({} per GPU) on {}, a size with no GPUs: give "
                        "the GPU size the job runs on, or the whole node's demand (gpu: per_node:)",
                        per_gpu->is_number() ? FormatValue(per_gpu->number(), per_gpu->unit) : "",
                        vm->name),
            at, "", ""});
      }
    } else {
      std::string message = fmt::format("unknown VM size '{}'", request.sku);
      auto near = kb.SuggestVm(request.sku);
      if (!near.empty()) message += fmt::format(kMsgDidYouMean, near.front());
      // A size newer than the knowledge base is no reason to stop when its NIC is declared: the
      // sizing needs the rate, and the rest is judged from what is declared.
      const Fact* nic = facts->Find("node.nic_gbps");
      const bool declared =
          nic && nic->is_number() && nic->provenance.origin >= FactOrigin::kDeclared;
      if (declared)
        message += fmt::format(
            "; going on with the declared node figures ({} NIC), the size's other figures "
            "(cores, local disk) only where declared",
            FormatValue(nic->number(), nic->unit));
      else
        message +=
            "; declare the node's figures in the profile (node: {nic: 100 Gbit/s, vcpus: 96, "
            "local_disk: 1000 GiB}), or add the size with --kb FILE";
      diagnostics->Add(Diagnostic{
          codes::kUnknownVm, declared ? DiagnosticSeverity::kWarning : DiagnosticSeverity::kError,
          message, request.sku_location, "", ""});
    }
  }
  // The same lookup as the --region / --account-kind flags of every other command. A declared
  // egress limit (account_limits: egress:) makes an unknown region no error.
  const Fact* egress = facts->Find("account.egress_gbps");
  AccountLookup lookup{request.region, request.account,
                       egress && egress->provenance.origin >= FactOrigin::kDeclared};
  AccountLookupResult found = LookUpAccount(kb, lookup);
  if (!found.error.empty()) {
    diagnostics->Add(Diagnostic{
        found.region_error ? codes::kUnknownRegion : codes::kUnknownVm, DiagnosticSeverity::kError,
        found.error, found.region_error ? request.region_location : request.account_location, "",
        ""});
  }
  if (found.target) kb.AddAccountFacts(*found.target, &known);
  facts->Merge(known, /*keep_existing=*/true);
  AddEgress(facts);
  AddSupplyFacts(facts);
  return ok;
}

#else

bool AddKnowledgeFacts(const KnowledgeRequest& request, const std::string&,
                       const std::vector<std::string>&, FactSet*, DiagnosticList* diagnostics) {
  if (!request.sku.empty() || !request.region.empty() || !request.account.empty())
    diagnostics->Add(Diagnostic{codes::kUnknownVm, DiagnosticSeverity::kWarning,
                                "this build has no knowledge base: node and account facts must "
                                "be declared in the profile",
                                request.sku_location, "", ""});
  return false;
}

#endif

}  // namespace feedcheck::rules
