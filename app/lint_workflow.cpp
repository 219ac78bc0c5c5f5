#include "app/lint_workflow.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "app/cluster_choice.h"
#include "app/fact_gathering.h"
#include "app/rule_evaluation.h"
#include "core/diagnostic_codes.h"
#include "core/plural.h"
#include "rules/access_decision.h"
#include "rules/advice.h"
#include "rules/job_file.h"
#include "rules/job_steps.h"

namespace feedcheck::app {
namespace {

// Flags are checked against the knowledge base first: a mistyped size or region is a usage
// error (as for `egress`), before anything is judged. The facts they give go to every step.
bool CheckFlags(const LintRequest& request, FactSet* flag_facts, Outcome* outcome) {
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
    AddMessage(&outcome->diagnostics, codes::kBadFlag, error.message);
    outcome->status = ExitStatus::kUsage;
    return false;
  }
  if (!request.sku.empty() && node.vm)
    flag_facts->Set(TextFact("node.sku", node.vm->name, Declared("--sku")));
  if (!request.region.empty())
    flag_facts->Set(TextFact("account.region", request.region, Declared("--region")));
  if (account.egress_from_flag)
    flag_facts->Set(NumberFact("account.egress_gbps", account.target.egress_gbps, Unit::kGbps,
                               Declared("--account-egress-gbps")));
  return true;
}

// The job's facts, then the flags' where the job says nothing (what the job says will run).
FactSet StepFacts(const rules::JobFile& step, const FactSet& flag_facts,
                  std::vector<std::string>* assumptions) {
  FactSet facts = rules::JobFacts(step);
  for (const auto& [key, fact] : flag_facts) {
    const Fact* named = facts.Find(key);
    if (key == "node.sku" && named && !step.instance_type_expression.empty()) {
      // A pipeline input's value is a default: the size named with --sku is the one judged.
      const std::string note = fmt::format(
          "{}instance_type {} gives {}; --sku {} is used", step.step.empty() ? "" : step.step + " ",
          step.instance_type_expression, named->text(), fact.text());
      if (std::find(assumptions->begin(), assumptions->end(), note) == assumptions->end())
        assumptions->push_back(note);
      facts.Set(fact);
      continue;
    }
    if (key == "node.sku" && named && named->text() != fact.text()) {
      const std::string note =
          fmt::format("{}names instance_type {}; --sku {} is not used",
                      step.step.empty() ? "the job " : step.step + " ", named->text(), fact.text());
      if (std::find(assumptions->begin(), assumptions->end(), note) == assumptions->end())
        assumptions->push_back(note);
    }
    if (!named) facts.Set(fact);
  }
  return facts;
}

// Without a VM size the egress and request-rate checks cannot run: say so, where the compute
// is named, and how to give it.
std::optional<rules::LintProblem> NodeSizeProblem(const rules::JobFile& step,
                                                  const FactSet& facts) {
  if (facts.Find("node.sku")) return std::nullopt;
  rules::LintProblem p;
  p.code = codes::kLintNodeSize;
  p.severity = Severity::kInfo;
  const std::string on = step.compute.empty() ? std::string("serverless compute")
                                              : fmt::format("compute {}", step.compute);
  if (!step.instance_type_expression.empty()) {
    // Set when the pipeline runs: no value here to judge, and none is guessed.
    p.message = fmt::format(
        "the VM size is unknown: resources.instance_type is {}, which {}; the egress, "
        "request-rate, disk and thread checks need it, so they were not evaluated",
        step.instance_type_expression,
        step.instance_type_expression.find("parent.inputs.") != std::string::npos
            ? "the pipeline gives no value (it is set when the pipeline runs)"
            : "is set when the job runs");
    p.change =
        "give the VM size the job will run on with --sku (for example --sku "
        "Standard_ND96asr_v4), or a default for that pipeline input";
    p.location = SourceLocation{step.resources_file.empty() ? step.path : step.resources_file,
                                step.instance_type_line, 0};
    if (!step.step.empty()) p.steps = {step.step};
    return p;
  }
  p.message = fmt::format(
      "the job runs on {} and names no resources.instance_type: the VM size sets the NIC rate, "
      "disk and cores that the egress, request-rate, disk and thread checks need, so they were "
      "not evaluated",
      on);
  p.change =
      "give the cluster's VM size with --sku (for example --sku Standard_ND96asr_v4), or add "
      "resources.instance_type to the job";
  p.location = SourceLocation{step.path, step.compute_line > 0 ? step.compute_line : 0, 0};
  if (!step.step.empty()) p.steps = {step.step};
  return p;
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

// The public page lint's advice comes from.
constexpr const char* kLintGuideUrl =
    "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2";

// Every code lint can report (the registry's L family, in code order), described for the formats
// that list them before the problems (SARIF's rules).
ReportCodes LintCodes() {
  ReportCodes out;
  out.uri = kLintGuideUrl;
  for (const DiagnosticCodeInfo& c : DiagnosticCodes())
    if (c.code[0] == 'L')
      out.codes.push_back(
          {c.code, c.name, c.summary, c.help, std::string(SeverityName(c.severity))});
  return out;
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
  // Described from the start: a run stopped by its input still gets them in SARIF.
  outcome.report.codes = LintCodes();
  rules::JobSteps job;
  // A job file with an error (instance_count: 0) is not linted as if it were right.
  if (!rules::ReadJobSteps(request.job, &job, &outcome.diagnostics) ||
      outcome.diagnostics.errors() > 0) {
    outcome.status = ExitStatus::kInputError;
    return lint;
  }
  FactSet flag_facts;
  std::vector<std::string> assumptions;
  if (!CheckFlags(request, &flag_facts, &outcome)) return lint;
  rules::RuleSet rule_set;
  if (!LoadRules(request.knowledge, &rule_set, &outcome.diagnostics)) {
    outcome.status = ExitStatus::kInputError;
    return lint;
  }
  std::vector<rules::LintProblem> problems = rules::KeyProblems(job.typos);
  FactSet facts;
  std::vector<SkippedRule> skipped;
  size_t evaluated = 0;
  size_t evaluated_any = 0;
  for (const auto& step : job.steps) {
    FactSet step_facts = StepFacts(step, flag_facts, &assumptions);
    FactSet gathered;
    rules::Profile profile;
    AccountDefaults account{request.account_kind, /*assume_listed_region=*/true, ""};
    // What the job says wins over the profile: it is what will run.
    // The profile describes the dataset: a pipeline step that reads none (only other steps'
    // outputs: an evaluation of scores) is not judged by it.
    const bool reads_dataset =
        step.step.empty() ||
        std::any_of(step.inputs.begin(), step.inputs.end(),
                    [](const rules::JobInput& i) { return i.type != "literal" && !i.upstream; });
    if (!GatherFacts({}, reads_dataset ? request.profile : std::string(), request.knowledge,
                     &gathered, &profile, &outcome.diagnostics, &step_facts, &account)) {
      outcome.status = ExitStatus::kInputError;
      return lint;
    }
    if (!account.assumption.empty() &&
        std::find(assumptions.begin(), assumptions.end(), account.assumption) == assumptions.end())
      assumptions.push_back(account.assumption);
    // One decision, judging the mode the job declares; a step that reads no data gets no
    // storage finding.
    // Inputs from outside Azure ML's datastores (a web server, S3): said so, and the storage
    // account's limits are not theirs.
    bool reads_datastore = false;
    for (const auto& input : step.inputs) {
      if (input.type == "literal") continue;
      const std::string outside = rules::SourceOutsideDatastores(input.path);
      if (outside.empty()) {
        reads_datastore = true;
        continue;
      }
      const std::string note = fmt::format(
          "{}input '{}' reads {}: {}, outside Azure ML's datastores; the storage-account limits "
          "and the advice about Azure storage are out of scope for it",
          step.step.empty() ? "" : step.step + " ", input.name, input.path, outside);
      if (std::find(assumptions.begin(), assumptions.end(), note) == assumptions.end())
        assumptions.push_back(note);
    }
    rules::WorkloadScope scope;
    scope.reads_data =
        reads_datastore || (step.step.empty() && !request.profile.empty() &&
                            (gathered.Has("dataset.bytes") || gathered.Has("dataset.files")));
    scope.writes_data = !step.outputs.empty();
    scope.mounts_output = std::any_of(
        step.outputs.begin(), step.outputs.end(),
        [](const rules::JobOutput& o) { return o.mode.empty() || o.mode == "rw_mount"; });
    rules::AccessDecision decision =
        rules::DecideAccess(rule_set, gathered, rules::JudgedMode::kDeclared, scope);
    rules::EvaluationResult& result = decision.result;
    const rules::Advice& advice = decision.advice;
    for (auto& p : rules::LintJob(step, result, advice)) problems.push_back(std::move(p));
    if (!scope.reads_data && !decision.dropped_findings.empty()) {
      const std::string note =
          fmt::format("{} reads no data input: {} about reading storage not applied",
                      step.step.empty() ? std::string("the job") : step.step,
                      Counted(double(decision.dropped_findings.size()), "finding"));
      if (std::find(assumptions.begin(), assumptions.end(), note) == assumptions.end())
        assumptions.push_back(note);
    }
    if (auto p = NodeSizeProblem(step, gathered)) problems.push_back(std::move(*p));
    for (auto& p :
         rules::OutputReads(step, !request.profile.empty() && (gathered.Has("dataset.bytes") ||
                                                               gathered.Has("dataset.files")))) {
      if (!step.step.empty()) p.steps = {step.step};
      problems.push_back(std::move(p));
    }
    for (auto& p : rules::NodeLimitProblems(
             step, gathered.Text("node.sku").value_or(""),
             gathered.NumberIn("node.ram_bytes", Unit::kBytes).value_or(0),
             gathered.NumberIn("node.local_disk_bytes", Unit::kBytes).value_or(0))) {
      if (!step.step.empty()) p.steps = {step.step};
      problems.push_back(std::move(p));
    }
    evaluated_any += rule_set.rules().size() - decision.result.skipped.size();
    // The report's evidence and counts are the first step's (all of one for a command job).
    if (&step == &job.steps.front()) {
      facts = std::move(gathered);
      skipped = std::move(result.skipped);
      evaluated = rule_set.rules().size() - skipped.size();
    }
  }
  lint.problems = rules::MergeStepProblems(std::move(problems));
  for (const auto& note : job.notes)
    assumptions.push_back(
        fmt::format("{}:{}: {}", note.location.file, note.location.line, note.text));

  Report& report = outcome.report;
  report.context = CurrentRunContext("lint");
  report.context.target = request.job;
  report.title = "Lint";
  // A run that checked nothing (no step lint reads, or no rule had its facts) is not "Ok".
  if (lint.problems.empty() && (job.steps.empty() || evaluated_any == 0)) {
    report.verdict = "nothing checked";
    report.verdict_level = VerdictLevel::kUnknown;
    report.verdict_detail =
        fmt::format("{}: nothing checked: {}", request.job,
                    job.steps.empty() ? "no step lint reads (the notes say why each was skipped)"
                                      : "no rule had the facts it needs; give --sku and --profile");
  } else if (lint.problems.empty())
    report.verdict_detail =
        fmt::format("{}: Ok ({} evaluated, {} not evaluated for missing facts)", request.job,
                    Counted(double(evaluated), "rule"), skipped.size());
  else
    report.verdict_detail = fmt::format(
        "{} ({} not evaluated for missing facts{})",
        Counted(double(lint.problems.size()), "problem"), Counted(double(skipped.size()), "rule"),
        request.profile.empty() ? "; give --profile to say more" : "");
  for (const auto& a : assumptions) report.verdict_detail += "\nnote: " + a;
  AddResults(lint.problems, evaluated, skipped.size(), &report);
  report.tables.push_back(ProblemTable(lint.problems));
  report.skipped = std::move(skipped);
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
