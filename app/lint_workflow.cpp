#include "app/lint_workflow.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/app_messages.h"
#include "app/cluster_choice.h"
#include "app/fact_gathering.h"
#include "app/rule_evaluation.h"
#include "rules/advice.h"
#include "rules/job_file.h"

namespace feedcheck::app {
namespace {

// Flags are checked against the knowledge base first: a mistyped size or region is a usage
// error (as for `egress`), before anything is judged.
bool CheckFlags(const LintRequest& request, FactSet* job_facts,
                std::vector<std::string>* assumptions, Outcome* outcome) {
  if (request.sku.empty() && request.region.empty() && request.account_kind.empty() &&
      request.account_egress.empty())
    return true;
  KnowledgeBase kb;
  if (!LoadKnowledgeBase(request.knowledge, &kb, &outcome->diagnostics)) {
    outcome->status = ExitStatus::kInputError;
    return false;
  }
  FlagError error;
  NodeChoice node;
  AccountChoice account;
  if (!ResolveNode(kb, request.sku, "", &node, &error) ||
      !ResolveAccount(kb, request.region, request.account_kind, request.account_egress, &account,
                      &error)) {
    AddMessage(&outcome->diagnostics, kCodeBadFlag, error.message);
    outcome->status = ExitStatus::kUsage;
    return false;
  }
  if (!request.sku.empty() && node.vm) {
    const Fact* named = job_facts->Find("node.sku");
    if (named && named->text() != node.vm->name)
      assumptions->push_back(fmt::format("the job names instance_type {}; --sku {} is not used",
                                         named->text(), request.sku));
    if (!named) job_facts->Set(TextFact("node.sku", node.vm->name, Declared("--sku")));
  }
  if (!request.region.empty())
    job_facts->Set(TextFact("account.region", request.region, Declared("--region")));
  if (account.egress_from_flag)
    job_facts->Set(NumberFact("account.egress_gbps", account.target.egress_gbps, Unit::kGbps,
                              Declared("--account-egress-gbps")));
  return true;
}

ReportTable ProblemTable(const std::vector<rules::LintProblem>& problems) {
  ReportTable t;
  t.title = "Problems";
  t.columns = {{"file", "File"},   {"line", "Line", true}, {"severity", "Severity"},
               {"code", "Code"},   {"message", "Problem"}, {"change", "Change"},
               {"rule_id", "Rule"}};
  for (const auto& p : problems) {
    std::optional<double> line;
    if (p.location.line > 0) line = p.location.line;
    t.rows.push_back({{p.location.file, std::nullopt},
                      {p.location.line > 0 ? std::to_string(p.location.line) : "", line},
                      {std::string(SeverityName(p.severity)), std::nullopt},
                      {p.code, std::nullopt},
                      {p.message, std::nullopt},
                      {p.change, std::nullopt},
                      {p.rule_id, std::nullopt}});
  }
  if (problems.empty()) t.notes.push_back("none");
  return t;
}

void AddResults(const std::vector<rules::LintProblem>& problems, size_t evaluated, size_t skipped,
                Report* report) {
  double by_severity[3] = {0, 0, 0};
  for (const auto& p : problems) ++by_severity[static_cast<int>(p.severity)];
  auto count = [&](const char* key, double n, const char* label) {
    report->result.push_back({key, n, "", label});
  };
  count("problems", static_cast<double>(problems.size()), "Problems");
  count("errors", by_severity[static_cast<int>(Severity::kCritical)], "Errors");
  count("warnings", by_severity[static_cast<int>(Severity::kWarning)], "Warnings");
  count("notes", by_severity[static_cast<int>(Severity::kInfo)], "Notes");
  count("rules_evaluated", static_cast<double>(evaluated), "Rules evaluated");
  count("not_evaluated", static_cast<double>(skipped), "Rules not evaluated");
}

}  // namespace

LintOutcome RunLint(const LintRequest& request) {
  LintOutcome lint;
  Outcome& outcome = lint.outcome;
  rules::JobFile job;
  // A job file with an error (instance_count: 0) is not linted as if it were right.
  if (!rules::ReadJobFile(request.job, &job, &outcome.diagnostics) ||
      outcome.diagnostics.errors() > 0) {
    outcome.status = ExitStatus::kInputError;
    return lint;
  }
  FactSet job_facts = rules::JobFacts(job);
  std::vector<std::string> assumptions;
  if (!CheckFlags(request, &job_facts, &assumptions, &outcome)) return lint;
  FactSet facts;
  rules::Profile profile;
  AccountDefaults account{request.account_kind, /*assume_listed_region=*/true, ""};
  // What the job says wins over the profile: it is what will run.
  const bool inputs_ok = GatherFacts({}, request.profile, request.knowledge, &facts, &profile,
                                     &outcome.diagnostics, &job_facts, &account);
  rules::RuleSet rule_set;
  const bool rules_ok = LoadRules(request.knowledge, &rule_set, &outcome.diagnostics);
  if (!inputs_ok || !rules_ok) {
    outcome.status = ExitStatus::kInputError;
    return lint;
  }
  if (!account.assumption.empty()) assumptions.push_back(account.assumption);
  rules::EvaluationResult result = rule_set.Evaluate(facts);
  rules::Advice advice = rules::MergeAdvice(result.findings);
  lint.problems = rules::LintJob(job, result, advice);

  Report& report = outcome.report;
  report.context = CurrentRunContext("lint");
  report.context.target = request.job;
  report.title = "Lint";
  const size_t evaluated = rule_set.rules().size() - result.skipped.size();
  if (lint.problems.empty())
    report.verdict_detail =
        fmt::format("{}: Ok ({} rules evaluated, {} not evaluated for missing facts)", request.job,
                    evaluated, result.skipped.size());
  else
    report.verdict_detail = fmt::format(
        "{} problem{} ({} rules not evaluated for missing facts{})", lint.problems.size(),
        lint.problems.size() == 1 ? "" : "s", result.skipped.size(),
        request.profile.empty() ? "; give --profile to say more" : "");
  for (const auto& a : assumptions) report.verdict_detail += "\nnote: " + a;
  AddResults(lint.problems, evaluated, result.skipped.size(), &report);
  report.tables.push_back(ProblemTable(lint.problems));
  report.skipped = std::move(result.skipped);
  report.evidence.facts = std::move(facts);
  outcome.has_report = true;

  auto threshold = FailOnThreshold(request.fail_on);
  const bool failing =
      threshold && std::any_of(lint.problems.begin(), lint.problems.end(),
                               [&](const auto& p) { return p.severity >= *threshold; });
  outcome.status = failing ? ExitStatus::kFindings : ExitStatus::kOk;
  return lint;
}

}  // namespace feedcheck::app
