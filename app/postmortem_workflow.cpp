#include "app/postmortem_workflow.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "analyzers/analyze_paths.h"
#include "analyzers/clock_offset.h"
#include "analyzers/input_file.h"
#include "analyzers/job_folder_help.h"
#include "analyzers/text_encoding.h"
#include "app/fact_gathering.h"
#include "app/money_tables.h"
#include "app/postmortem_report.h"
#include "app/postmortem_traces.h"
#include "app/rule_evaluation.h"
#include "core/diagnostic_codes.h"
#include "core/input_file.h"
#include "core/measurement_caveat.h"
#include "diagnosis/cluster_nodes.h"
#include "diagnosis/postmortem_diagnosis.h"
#include "reports/report_json.h"
#include "reports/report_text.h"
#include "rules/job_spec.h"

namespace feedcheck::app {
namespace {

// What a saved result measured against another target (this machine, a storage emulator), kept
// apart: a labelled table of its headline numbers, never facts the rules or the diagnosis read.
ReportTable MeasuredElsewhere(const std::string& path, const Report& saved,
                              const MeasurementCaveat& caveat) {
  ReportTable t;
  const std::string target = saved.context.target.empty() ? path : saved.context.target;
  const std::string what = saved.title.empty() ? "Saved result" : saved.title;
  t.title = fmt::format("Measured elsewhere, not part of this post-mortem: {} of {}", what, target);
  t.columns = {{"measurement", "Measurement"}, {"value", "Value"}};
  if (!saved.verdict.empty()) t.rows.push_back({{"Verdict", std::nullopt}, {saved.verdict, {}}});
  for (const auto& v : saved.result) {
    TableCell value{ResultValueText(v), std::nullopt};
    if (const double* number = std::get_if<double>(&v.value)) value.value = *number;
    t.rows.push_back({{ResultLabel(v), std::nullopt}, std::move(value)});
  }
  t.notes.push_back(fmt::format(
      "{} ({}, --with {}). Its figures describe {}, not the storage this job read: they are "
      "not among this job's facts or findings. Its own report: feedcheck report {}",
      caveat.banner, target, path,
      caveat.emulator ? "an emulator on the machine that ran it" : "the machine that ran it",
      path));
  t.note_briefs.push_back(
      fmt::format("{} Not among this job's facts or findings (-v: why; feedcheck report {}).",
                  caveat.banner, path));
  return t;
}

// Measured facts and the probes' charts of saved results (preflight or probe --json): what the
// cluster could do, beside what the job did. Declared and knowledge facts of those runs stay
// out: the job's own cluster is described by the request's flags and profile. A result measured
// against this machine or a storage emulator is another target: shown apart (a table), never
// merged into the evidence the rules and the diagnosis read.
bool AddMeasurements(const std::vector<std::string>& paths, Report* report,
                     DiagnosticList* diagnostics) {
  bool ok = true;
  for (const auto& path : paths) {
    Report saved;
    if (!LoadReportFile(path, &saved, diagnostics)) {
      AddMessage(diagnostics, codes::kUnreadableResult, fmt::format("cannot read --with {}", path));
      ok = false;
      continue;
    }
    if (MeasurementCaveat caveat = CaveatOf(saved.evidence.facts); caveat.any()) {
      report->tables.push_back(MeasuredElsewhere(path, saved, caveat));
      continue;
    }
    Evidence measured;
    for (const auto& [key, fact] : saved.evidence.facts)
      if (fact.provenance.origin == FactOrigin::kMeasured) measured.facts.Set(fact);
    for (const auto& series : saved.evidence.series)
      if (series.key.rfind("probe.", 0) == 0) measured.series.push_back(series);
    report->evidence.Merge(measured);
  }
  return ok;
}

// The headline numbers, where fio and elbencho users look first.
void AddResults(const DiagnosisSummary& d, Report* report) {
  if (d.gpu.known) {
    report->result.push_back({"gpu_idle_fraction", d.gpu.idle_fraction, "", "GPU idle fraction"});
    report->result.push_back(
        {"gpu_minutes_lost", d.gpu.lost_gpu_s / 60, "GPU-min", "GPU time lost"});
    report->result.push_back({"gpus", static_cast<double>(d.gpu.gpus), "", "GPUs"});
  }
  report->result.push_back({"cause", d.cause, "", "Cause"});
  report->result.push_back({"confidence", d.confidence, "", "Confidence"});
  // The confidence is the cause's evidence's; whether its cost was measured is said beside it.
  report->result.push_back({"gpu_time_measured", d.gpu.known, "", "GPU time measured"});
  if (d.attributed_gpu_s >= 0)
    report->result.push_back(
        {"cause_gpu_minutes", d.attributed_gpu_s / 60, "GPU-min", "GPU time lost to the cause"});
  if (d.estimate.available)
    report->result.push_back(
        {"idle_fraction_after_fix", d.estimate.idle_fraction_after, "", "Idle after the fix"});
}

// The settings the job's definition (job.yml, job.json in the folder) gave it: runtime.setting
// facts. The retry count's line is the one setting line the data runtime is known to print (it
// says what it used): that wins, and a definition that says otherwise is noted. Any other
// "<VAR> set in environment" line is of no documented form: the definition wins over it. An
// unreadable definition is a warning: the logs are still read.
void AddJobSettings(const std::vector<std::string>& definitions, Evidence* evidence,
                    DiagnosticList* diagnostics) {
  if (definitions.empty()) return;
  const std::string& path = definitions.front();
  for (size_t i = 1; i < definitions.size(); ++i)
    AddMessage(diagnostics, codes::kNotRead,
               fmt::format("not read: {}: {} is the job's definition read", definitions[i], path),
               DiagnosticSeverity::kWarning);
  rules::JobSpec spec;
  DiagnosticList read;
  // Opened as every input of the job is (once, through the analyzers' file), and bounded: a
  // byte past the limit is enough for the reader to refuse it.
  analyzers::InputFile file = analyzers::InputFile::Open(path);
  if (!file.ok())
    read.Add({codes::kJobFile,
              DiagnosticSeverity::kError,
              "cannot read the job's definition: " + file.error(),
              {path, 0, 0},
              "",
              ""});
  // AsUtf8: a job file saved as UTF-16 (Windows PowerShell's `>`) reads as its text.
  const bool ok = file.ok() && rules::ReadJobSpecText(
                                   path, analyzers::AsUtf8(file.ReadAt(0, kMaxConfigFileBytes + 1)),
                                   &spec, &read);
  read.ForEachKept([&](Diagnostic& d) {
    d.severity = DiagnosticSeverity::kWarning;
    if (!ok) d.message += " (the job's settings are taken from its logs only)";
  });
  diagnostics->Append(read);
  if (!ok) return;
  static const std::string kLogged = "runtime.setting.AZUREML_DATASET_HTTP_RETRY_COUNT";
  for (const auto& [key, fact] : rules::JobSpecFacts(spec)) {
    const Fact* logged = evidence->facts.Find(key);
    if (!logged || key != kLogged) {
      evidence->facts.Set(fact);
    } else if (logged->is_text() && fact.is_text() && logged->text() != fact.text()) {
      AddMessage(diagnostics, codes::kJobFile,
                 fmt::format("{} sets {} to '{}', but the data runtime logged '{}' ({}): the "
                             "log's value is used",
                             fact.provenance.source, key.substr(key.rfind('.') + 1), fact.text(),
                             logged->text(), logged->provenance.source),
                 DiagnosticSeverity::kNote);
    }
  }
}

Outcome Fail(Outcome outcome, ExitStatus status) {
  outcome.status = status;
  return outcome;
}

}  // namespace

Outcome RunPostmortem(const PostmortemRequest& request) {
  Outcome outcome;
  Report& report = outcome.report;
  report.context = CurrentRunContext("postmortem");
  report.context.target = request.job_dir;
  report.title = "Post-mortem";

  analyzers::AnalyzeRequest analyze;
  analyze.paths.push_back(request.job_dir);
  analyze.paths.insert(analyze.paths.end(), request.metrics.begin(), request.metrics.end());
  analyze.paths.insert(analyze.paths.end(), request.gpu.begin(), request.gpu.end());
  analyze.traces = request.traces;
  analyze.options.gpu_busy_threshold_percent = request.gpu_busy_threshold_percent;
  if (!request.gpu_utc_offset.empty()) {
    std::string error;
    analyze.options.gpu_utc_offset_s = analyzers::ParseUtcOffsetS(request.gpu_utc_offset, &error);
    if (!analyze.options.gpu_utc_offset_s) {
      AddMessage(&outcome.diagnostics, codes::kBadFlag, "--gpu-utc-offset: " + error);
      return Fail(std::move(outcome), ExitStatus::kUsage);
    }
  }
  // A file named with --metrics or --gpu that cannot be read is an input error (exit 3), not a
  // warning: the verdict would otherwise be given without what the user said to read.
  std::vector<std::pair<std::string, std::string>> named;
  for (const auto& m : request.metrics) named.emplace_back("--metrics", m);
  for (const auto& g : request.gpu) named.emplace_back("--gpu", g);
  for (const auto& [flag, path] : named) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      AddMessage(&outcome.diagnostics, codes::kUnreadableFile,
                 fmt::format("{} {}: no such file or folder", flag, path));
      return Fail(std::move(outcome), ExitStatus::kInputError);
    }
  }
  analyzers::AnalysisResult analysis = analyzers::AnalyzePaths(analyze);
  bool named_unread = false;
  for (const auto& s : analysis.skipped) {
    const auto given =
        std::find_if(named.begin(), named.end(), [&](const auto& n) { return n.second == s.path; });
    if (given != named.end()) {
      AddMessage(&outcome.diagnostics, codes::kUnreadableFile,
                 fmt::format("{} {}: not read: {}", given->first, s.path, s.reason));
      named_unread = true;
      continue;
    }
    AddMessage(&outcome.diagnostics, codes::kNotRead,
               fmt::format("not read: {}: {}", s.path, s.reason), DiagnosticSeverity::kWarning);
  }
  if (named_unread) return Fail(std::move(outcome), ExitStatus::kInputError);
  if (!analysis.anything_read) {
    // The help lists what was looked for and where Azure ML keeps it: a next step.
    std::string help = analyzers::NothingReadableHelp("postmortem", analyze.paths, analysis);
    if (!help.empty() && help.back() == '\n') help.pop_back();
    const std::string prefix = "feedcheck postmortem: ";  // the CLI names the command itself
    if (help.rfind(prefix, 0) == 0) help.erase(0, prefix.size());
    AddMessage(&outcome.diagnostics, codes::kNothingReadable, std::move(help));
    return Fail(std::move(outcome), ExitStatus::kInputError);
  }
  report.evidence = std::move(analysis.evidence);
  AddJobSettings(analysis.job_definitions, &report.evidence, &outcome.diagnostics);

  KnowledgeBase kb;
  if (!LoadKnowledgeBase(request.knowledge, &kb, &outcome.diagnostics))
    return Fail(std::move(outcome), ExitStatus::kInputError);
  ClusterChoice cluster;
  FlagError flag_error;
  if (!ResolveCluster(kb, request.cluster, &cluster, &flag_error)) {
    AddMessage(&outcome.diagnostics, codes::kBadFlag, flag_error.message);
    return Fail(std::move(outcome), ExitStatus::kUsage);
  }
  // No account named: the storage metrics say which region the account is in, and with it
  // its limits (a listed region's 200 Gbit/s, else 50).
  const Fact* metrics_region = report.evidence.facts.Find("metrics.region");
  ClusterSpec flags = request.cluster;
  if (!cluster.account_given && metrics_region && metrics_region->is_text()) {
    flags.region = metrics_region->text();
    ClusterChoice from_metrics;
    if (ResolveCluster(kb, flags, &from_metrics, &flag_error))
      cluster = from_metrics;
    else
      flags.region.clear();
  }
  if (!AddMeasurements(request.with, &report, &outcome.diagnostics))
    return Fail(std::move(outcome), ExitStatus::kInputError);
  FactSet overrides = ClusterFlagFacts(flags, cluster);
  if (!flags.region.empty() && request.cluster.region.empty())
    overrides.Set(TextFact("account.region", flags.region, metrics_region->provenance));
  overrides.Merge(report.evidence.facts);
  rules::Profile profile;
  FactSet facts;
  // --account-kind is looked up with the region, as `egress` does (core/account_lookup.h).
  AccountDefaults account{request.cluster.account_kind, /*assume_listed_region=*/false, ""};
  if (!GatherFacts({}, request.profile, request.knowledge, &facts, &profile, &outcome.diagnostics,
                   &overrides, &account))
    return Fail(std::move(outcome), ExitStatus::kInputError);
  // What the job ran against is what it was: no default account is assumed here.
  AddClusterKnowledge(kb, cluster, /*use_default_account=*/false, &facts);
  rules::RuleSet rule_set;
  if (!LoadRules(request.knowledge, &rule_set, &outcome.diagnostics))
    return Fail(std::move(outcome), ExitStatus::kInputError);
  report.evidence.facts = facts;
  // A job folder with one subfolder per node: the node table, from the same read.
  diagnosis::Postmortem postmortem;
  postmortem.evidence = std::move(report.evidence);
  diagnosis::DiagnosePostmortem(rule_set, diagnosis::NodeRowsOf(analysis.nodes), analysis.nodes,
                                &postmortem);
  const DiagnosisSummary diagnosed = postmortem.diagnosis;
  PutPostmortem(std::move(postmortem), &report);
  // The training loop's own clock, beside the diagnosis: each rank's wait for data and why.
  PutDataWait(analysis.traces, report.evidence.facts, &report, analysis.nodes.size() >= 2);
  AddSmallFilesReadCostTable(kb, &report);
  AddResults(diagnosed, &report);
  outcome.has_report = true;

  // Findings the diagnosis marked secondary do not describe this job: they do not fail it.
  std::vector<Finding> primary;
  for (const auto& f : report.findings)
    if (!f.secondary) primary.push_back(f);
  outcome.status = FindingsExitStatus(primary, request.fail_on);
  return outcome;
}

}  // namespace feedcheck::app
