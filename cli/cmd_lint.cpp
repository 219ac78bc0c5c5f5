// `feedcheck lint JOB.yml [--profile P.yaml] [--sku S] [--region R | --account-kind K |
// --account-egress-gbps G] [--format term|json|sarif]`: checks an Azure ML command job against
// the advice of the rules for it (the job's own facts: instance_count, instance_type,
// distribution, inputs and modes, env vars; then the profile and the knowledge base) and
// prints the change to make for each problem at the file:line it concerns, in line order. A
// CI gate: exit 1 at or above --fail-on, 3 for a file that is not a job.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/advice_common.h"
#include "cli/command.h"
#include "cli/lint_output.h"
#include "cli/sizing_common.h"
#include "core/exit_status.h"
#include "core/json_text.h"
#include "rules/advice.h"
#include "rules/job_file.h"
#include "rules/job_lint.h"
#include "rules/rule_set.h"

namespace feedcheck::cli {
namespace {

struct LintOptions {
  std::string job;
  std::string profile;
  std::string sku;
  std::string region;
  std::string account_kind;
  std::string account_egress;
  std::string format = "term";
};

// Flags are checked against the knowledge base first: a mistyped size or region is a usage
// error (exit 2, as for `egress`), before anything is judged.
int CheckFlags(const GlobalOptions& globals, const LintOptions& options, FactSet* job_facts,
               std::vector<std::string>* assumptions) {
  if (options.sku.empty() && options.region.empty() && options.account_kind.empty() &&
      options.account_egress.empty())
    return 0;
  KnowledgeBase kb;
  if (int rc = LoadKnowledgeBase(globals, &kb); rc != 0) return rc;
  FlagError error;
  NodeChoice node;
  AccountChoice account;
  if (!ResolveNode(kb, options.sku, "", &node, &error) ||
      !ResolveAccount(kb, options.region, options.account_kind, options.account_egress, &account,
                      &error)) {
    fmt::print(stderr, "feedcheck lint: {}\n", error.message);
    return ToInt(ExitStatus::kUsage);
  }
  if (!options.sku.empty()) {
    const Fact* named = job_facts->Find("node.sku");
    if (named && named->text() != node.vm->name)
      assumptions->push_back(fmt::format("the job names instance_type {}; --sku {} is not used",
                                         named->text(), options.sku));
    if (!named) job_facts->Set(TextFact("node.sku", node.vm->name, Declared("--sku")));
  }
  if (!options.region.empty())
    job_facts->Set(TextFact("account.region", options.region, Declared("--region")));
  if (account.egress_from_flag)
    job_facts->Set(NumberFact("account.egress_gbps", account.target.egress_gbps, Unit::kGbps,
                              Declared("--account-egress-gbps")));
  return 0;
}

int Run(const GlobalOptions& globals, const LintOptions& options) {
  const std::string format = globals.json ? "json" : options.format;
  DiagnosticList diagnostics;
  rules::JobFile job;
  if (!rules::ReadJobFile(options.job, &job, &diagnostics)) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  FactSet job_facts = rules::JobFacts(job);
  std::vector<std::string> assumptions;
  if (int rc = CheckFlags(globals, options, &job_facts, &assumptions); rc != 0) return rc;
  FactSet facts;
  rules::Profile profile;
  AccountDefaults account{options.account_kind, /*assume_listed_region=*/true, ""};
  // What the job says wins over the profile: it is what will run.
  bool inputs_ok = GatherFacts({}, options.profile, globals, &facts, &profile, &diagnostics,
                               &job_facts, &account);
  rules::RuleSet rule_set;
  bool rules_ok = LoadRules(globals, &rule_set, &diagnostics);
  if (!inputs_ok || !rules_ok) {
    PrintDiagnostics(diagnostics);
    return ToInt(ExitStatus::kInputError);
  }
  if (!account.assumption.empty()) assumptions.push_back(account.assumption);
  rules::EvaluationResult result = rule_set.Evaluate(facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);

  LintOutput out;
  out.job = options.job;
  out.problems = rules::LintJob(job, result, advice);
  out.skipped = result.skipped;
  out.assumptions = assumptions;
  out.diagnostics = &diagnostics;
  out.rules_evaluated = rule_set.rules().size() - result.skipped.size();
  out.profile_given = !options.profile.empty();
  auto threshold = FailOnThreshold(globals.fail_on);
  bool failing = threshold && std::any_of(out.problems.begin(), out.problems.end(),
                                          [&](const auto& p) { return p.severity >= *threshold; });
  if (format == "json") {
    fmt::print("{}\n", JsonText(LintJson(out), 2));
  } else if (format == "sarif") {
    PrintDiagnostics(diagnostics);
    fmt::print("{}\n", JsonText(LintSarif(out), 2));
  } else {
    PrintDiagnostics(diagnostics);
    fmt::print("{}", LintText(out));
  }
  return ToInt(failing ? ExitStatus::kFindings : ExitStatus::kOk);
}

}  // namespace

void SetupLint(CLI::App& root, CommandTable& table) {
  auto options = std::make_shared<LintOptions>();
  CLI::App* sub = root.add_subcommand(
      "lint", "Check an AzureML job YAML against the advice: mode, env vars, nodes per account");
  sub->add_option("JOB", options->job, "AzureML command job YAML")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--profile", options->profile, "Workload profile YAML")->check(CLI::ExistingFile);
  sub->add_option("--sku", options->sku,
                  "VM size of the compute when the job does not name resources.instance_type");
  sub->add_option("--region", options->region, "Storage account region (its limits)");
  sub->add_option(
      "--account-kind", options->account_kind,
      "Storage target from the knowledge base (standard_gpv2, premium_block_blob, ...)");
  sub->add_option("--account-egress-gbps", options->account_egress,
                  "Account egress limit, overriding the knowledge base");
  sub->add_option("--format", options->format, "term | json | sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"term", "json", "sarif"}));
  GlobalOptions& globals = table.globals();
  table.Add(sub, [&globals, options] { return Run(globals, *options); });
}

}  // namespace feedcheck::cli
