#include "app/fact_gathering.h"

#include "core/install_paths.h"
#include "reports/report_json.h"
#include "rules/knowledge_facts.h"

namespace feedcheck::app {

void LayerFacts(const FactSet& incoming, FactSet* facts) {
  for (const auto& [key, fact] : incoming) {
    const Fact* existing = facts->Find(key);
    if (existing && existing->provenance.origin > fact.provenance.origin) continue;
    facts->Set(fact);
  }
}

bool GatherFacts(const std::vector<std::string>& facts_files, const std::string& profile_path,
                 const KnowledgeInputs& knowledge, FactSet* facts, rules::Profile* profile,
                 DiagnosticList* diagnostics, const FactSet* overrides, AccountDefaults* account) {
  bool ok = true;
  // A facts.json, or a saved result (--json of analyze, a probe, preflight): its evidence.
  for (const auto& path : facts_files) {
    Report saved;
    if (!LoadReportFile(path, &saved, diagnostics)) {
      ok = false;
      continue;
    }
    LayerFacts(saved.evidence.facts, facts);
  }
  // A profile with an error (an unknown field or value, an unknown size or region) gives no
  // advice: what it meant is unknown, and advice for something else is worse than none.
  const size_t errors_before = diagnostics->errors();
  if (!profile_path.empty()) {
    if (!rules::LoadProfile(profile_path, profile, diagnostics)) ok = false;
    LayerFacts(profile->facts, facts);
  }
  if (overrides) facts->Merge(*overrides);
  // The VM size and region in the merged facts: a job file's instance_type wins over the
  // profile's sku.
  rules::KnowledgeRequest request;
  request.sku = facts->Text("node.sku").value_or(profile->sku);
  request.region = facts->Text("account.region").value_or(profile->region);
  // The profile's compute region against the account's, wherever that came from (the profile,
  // --region, the storage metrics): storage in another region answers a distance later.
  if (!facts->Has("account.same_region"))
    if (auto same = rules::SameRegionFact(*profile, request.region)) facts->Set(*same);
  request.account = profile->account;
  if (account && !account->kind.empty()) request.account = account->kind;
  if (account && account->assume_listed_region && request.region.empty() &&
      request.account.empty() && !facts->Has("account.egress_gbps")) {
    request.account = std::string(KnowledgeBase::kStandardListed);
    account->assumption =
        "no region given: assuming a standard GPv2 account in a listed region (200 Gbit/s "
        "egress, 40,000 requests/s); give --region, --account-kind or --account-egress-gbps";
  }
  request.sku_location = profile->sku_location;
  // The size a job file names is reported at its line there (R304 with file:line).
  if (const Fact* sku = facts->Find("node.sku");
      sku && !sku->provenance.file.empty() && sku->provenance.file != request.sku_location.file)
    request.sku_location = SourceLocation{sku->provenance.file, sku->provenance.line, 0};
  request.region_location = profile->region_location;
  request.account_location = profile->account_location;
  if (!request.sku.empty() || !request.region.empty() || !request.account.empty())
    rules::AddKnowledgeFacts(request, DataDir(), knowledge.kb_files, facts, diagnostics);
  return ok && diagnostics->errors() == errors_before;
}

bool LoadRules(const KnowledgeInputs& knowledge, rules::RuleSet* rules,
               DiagnosticList* diagnostics) {
  return rules::LoadRuleDirectories(BuiltinRulesDir(), knowledge.rules_dirs, rules, diagnostics);
}

bool LoadKnowledgeBase(const KnowledgeInputs& knowledge, KnowledgeBase* kb,
                       DiagnosticList* diagnostics) {
  return KnowledgeBase::Load(DataDir(), knowledge.kb_files, kb, diagnostics);
}

}  // namespace feedcheck::app
