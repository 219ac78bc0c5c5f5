#include "rules/job_lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "core/ascii_text.h"
#include "core/runtime_settings.h"

namespace feedcheck::rules {
namespace {

const Finding* FindFinding(const EvaluationResult& result, std::string_view id) {
  for (const auto& f : result.findings)
    if (f.rule_id == id) return &f;
  return nullptr;
}

SourceLocation At(const JobFile& job, int line) { return SourceLocation{job.path, line, 0}; }

}  // namespace

std::vector<LintProblem> NoEffectSettings(const JobFile& job) {
  bool any = false, all_download = true, all_mount = true;
  for (const auto& input : job.inputs) {
    if (input.type == "literal") continue;
    any = true;
    const std::string mode = input.mode.empty() ? "ro_mount" : input.mode;
    all_download = all_download && (mode == "download" || mode == "eval_download");
    all_mount = all_mount && (mode == "ro_mount" || mode == "eval_mount");
  }
  std::vector<LintProblem> out;
  if (!any) return out;
  for (const auto& e : job.env) {
    LintProblem p;
    p.code = kLintNoEffect;
    p.severity = Severity::kWarning;
    p.location = At(job, e.line);
    if (all_download &&
        (StartsWith(e.name, "DATASET_MOUNT_") || StartsWith(e.name, "DATASET_UNMOUNT_"))) {
      p.message = fmt::format(
          "{} has no effect: every data input of this job is downloaded (mode: download), and "
          "DATASET_MOUNT_* settings apply to mounts only",
          e.name);
      p.change = fmt::format(
          "remove {}, or mount the input (mode: ro_mount) if it was meant to "
          "tune a mount",
          e.name);
    } else if (all_mount && e.name == "RSLEX_DOWNLOADER_THREADS") {
      p.message = fmt::format(
          "{} has no effect: every data input of this job is mounted, and it sets the threads of "
          "download mode only (mounts use DATASET_MOUNT_READ_THREADS)",
          e.name);
      p.change = fmt::format("remove {}, or set DATASET_MOUNT_READ_THREADS for the mount", e.name);
    } else {
      continue;
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<LintProblem> SettingProblems(const JobFile& job, const Advice& advice) {
  std::vector<LintProblem> out;
  for (const auto& e : job.env) {
    LintProblem p;
    p.severity = Severity::kWarning;
    p.location = At(job, e.line);
    if (const RuntimeSetting* setting = FindRuntimeSetting(e.name)) {
      auto problem = RuntimeSettingValueProblem(*setting, e.value);
      if (!problem) continue;
      p.code = kLintBadValue;
      p.setting = e.name;
      p.message = fmt::format("{}: {}; the guide documents it as {} (default {}); source: {}",
                              e.name, *problem, setting->meaning, setting->default_value,
                              RuntimeSettingSource(*setting));
      p.change = fmt::format("remove {} (the default: {}), or give a value in its range", e.name,
                             setting->default_value);
      out.push_back(std::move(p));
      continue;
    }
    auto likely = LikelyRuntimeSetting(e.name);
    if (!likely) continue;
    p.code = kLintUnknownSetting;
    if (likely->empty()) {
      p.message = fmt::format(
          "{} is not a setting the Azure ML data runtime documents: it is ignored", e.name);
      p.change = fmt::format(
          "remove {}, or use one of the settings of the guide's \"Available "
          "download settings\" and \"Available mount settings\"",
          e.name);
    } else {
      const RuntimeSetting* meant = FindRuntimeSetting(*likely);
      p.setting = *likely;
      p.message = fmt::format(
          "{} is not a setting the Azure ML data runtime documents, so it is ignored; did you "
          "mean {} ({}; source: {})?",
          e.name, *likely, meant->meaning, RuntimeSettingSource(*meant));
      // The advised value when the rules advise the setting it was meant to be.
      std::string value = e.value;
      for (const auto& want : advice.env)
        if (want.name == *likely) value = want.value;
      p.change = fmt::format("{}: \"{}\" -> {}: \"{}\"", e.name, e.value, *likely, value);
    }
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<LintProblem> SecretSettings(const JobFile& job) {
  std::vector<LintProblem> out;
  for (const auto& e : job.env) {
    if (!e.secret) continue;
    LintProblem p;
    p.code = kLintSecret;
    p.severity = Severity::kWarning;
    p.location = At(job, e.line);
    p.setting = e.name;
    p.message = fmt::format(
        "{} holds a credential in the job file (value not shown): anyone who can read the file, "
        "its repository or the job's definition in the workspace can use it; source: \"Use "
        "authentication credential secrets in Azure Machine Learning jobs\", "
        "https://learn.microsoft.com/en-us/azure/machine-learning/how-to-use-secrets-in-runs",
        e.name);
    p.change = fmt::format(
        "remove {} from the job file and rotate it; read it in the job from Azure Key Vault, or "
        "give the compute a managed identity with a storage data role",
        e.name);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<LintProblem> LintJob(const JobFile& job, const EvaluationResult& result,
                                 const Advice& advice) {
  std::vector<LintProblem> problems;
  std::vector<std::string> covered;

  // 1. Input mode.
  if (!advice.mode.empty()) {
    const Finding* rule = FindFinding(result, advice.mode_rule);
    for (const auto& input : job.inputs) {
      if (input.type == "literal") continue;
      std::string mode = input.mode.empty() ? "ro_mount" : input.mode;
      const std::string want = ModeForInput(mode, advice.mode);
      if (mode == want) continue;
      LintProblem p;
      p.code = kLintWrongMode;
      p.severity = rule ? rule->severity : Severity::kWarning;
      p.message = fmt::format("input '{}' uses mode {}{}; rule {} recommends {}: {}", input.name,
                              mode, input.mode.empty() ? " (the default)" : "", advice.mode_rule,
                              want, rule ? rule->title : "");
      p.change = input.mode.empty() ? fmt::format("add `mode: {}` to input '{}'", want, input.name)
                                    : fmt::format("mode: {} -> mode: {}", input.mode, want);
      p.location = At(job, input.mode_line > 0 ? input.mode_line : input.line);
      p.rule_id = advice.mode_rule;
      problems.push_back(std::move(p));
    }
    covered.push_back(advice.mode_rule);
  }

  // 2 and 3. Environment variables.
  for (size_t i = 0; i < advice.env.size(); ++i) {
    const EnvSetting& want = advice.env[i];
    const std::string& rule_id = advice.env_rules[i];
    const Finding* rule = FindFinding(result, rule_id);
    auto have = std::find_if(job.env.begin(), job.env.end(),
                             [&](const JobEnv& e) { return e.name == want.name; });
    LintProblem p;
    p.rule_id = rule_id;
    p.setting = want.name;
    p.severity = rule && rule->severity > Severity::kWarning ? rule->severity : Severity::kWarning;
    if (have == job.env.end()) {
      p.code = kLintMissingEnv;
      p.message =
          fmt::format("{} is not set; rule {} recommends \"{}\"", want.name, rule_id, want.value);
      p.change =
          job.env_line > 0
              ? fmt::format("add under environment_variables:  {}: \"{}\"", want.name, want.value)
              : fmt::format("add an environment_variables: block with  {}: \"{}\"", want.name,
                            want.value);
      p.location = At(job, job.env_line);
    } else if (!SameEnvValue(have->value, want.value)) {
      p.code = kLintContradictingEnv;
      p.message = fmt::format("{} is \"{}\"; rule {} recommends \"{}\"", want.name, have->value,
                              rule_id, want.value);
      p.change =
          fmt::format("{}: \"{}\" -> {}: \"{}\"", want.name, have->value, want.name, want.value);
      p.location = At(job, have->line);
    } else {
      continue;
    }
    problems.push_back(std::move(p));
  }
  for (const auto& rule_id : advice.env_rules) covered.push_back(rule_id);
  // When lint asks for download (L001), mount settings are for the mount the job has today:
  // asked for beside "download" as if both applied, they contradict the mode change.
  const bool to_download = advice.mode == "download" &&
                           std::any_of(problems.begin(), problems.end(), [](const LintProblem& q) {
                             return q.code == kLintWrongMode;
                           });
  if (to_download)
    for (auto& p : problems) {
      if (p.code != kLintMissingEnv && p.code != kLintContradictingEnv) continue;
      if (!StartsWith(p.setting, "DATASET_MOUNT_") && !StartsWith(p.setting, "DATASET_UNMOUNT_"))
        continue;
      p.severity = Severity::kInfo;
      p.message += fmt::format(
          " (only while the input stays mounted: rule {} recommends download, where mount "
          "settings have no effect)",
          advice.mode_rule);
    }

  // 4. More nodes than one account feeds.
  if (const Finding* f = FindFinding(result, "egress-nodes-beyond-account")) {
    LintProblem p;
    p.code = kLintEgress;
    p.severity = f->severity;
    p.rule_id = f->rule_id;
    p.message = fmt::format("resources.instance_count is {}: {}", job.instance_count, f->title);
    p.change = f->message;
    p.location =
        At(job, job.instance_count_line > 0 ? job.instance_count_line : job.resources_line);
    problems.push_back(std::move(p));
    covered.push_back(f->rule_id);
  }

  // Everything else the rules say at warning or above.
  for (const auto& f : result.findings) {
    if (f.severity < Severity::kWarning) continue;
    if (std::find(covered.begin(), covered.end(), f.rule_id) != covered.end()) continue;
    LintProblem p;
    p.code = kLintOther;
    p.severity = f.severity;
    p.rule_id = f.rule_id;
    p.message = f.title;
    p.change = f.message;
    // At the first line of the job its evidence comes from (instance_type for a retired size,
    // instance_count for the request limit); the whole file when none does.
    int line = 0;
    for (const auto& fact : f.evidence)
      if (fact.provenance.file == job.path && fact.provenance.line > 0 &&
          (line == 0 || fact.provenance.line < line))
        line = fact.provenance.line;
    p.location = At(job, line);
    problems.push_back(std::move(p));
  }
  for (auto& p : SettingProblems(job, advice)) {
    // A misspelt name stands for the setting it was meant to be: the rename is the change, not
    // also "add" the setting. A value out of range that a rule already corrects is that rule's.
    if (p.code == kLintUnknownSetting && !p.setting.empty())
      problems.erase(std::remove_if(problems.begin(), problems.end(),
                                    [&](const LintProblem& q) {
                                      return q.code == kLintMissingEnv && q.setting == p.setting;
                                    }),
                     problems.end());
    const bool corrected = std::any_of(problems.begin(), problems.end(), [&](const LintProblem& q) {
      return q.code == kLintContradictingEnv && q.location.line == p.location.line;
    });
    if (p.code == kLintBadValue && corrected) continue;
    problems.push_back(std::move(p));
  }
  for (auto& p : NoEffectSettings(job)) {
    // A setting that does nothing is not also "to be changed to" a value.
    problems.erase(std::remove_if(problems.begin(), problems.end(),
                                  [&](const LintProblem& q) {
                                    return q.code == kLintContradictingEnv &&
                                           q.location.line == p.location.line;
                                  }),
                   problems.end());
    problems.push_back(std::move(p));
  }
  for (auto& p : SecretSettings(job)) problems.push_back(std::move(p));
  // Line order, as a reader goes through the file; whole-file problems (line 0) last; on one
  // line the more severe first.
  std::stable_sort(problems.begin(), problems.end(),
                   [](const LintProblem& a, const LintProblem& b) {
                     const int la = a.location.line > 0 ? a.location.line : INT_MAX;
                     const int lb = b.location.line > 0 ? b.location.line : INT_MAX;
                     if (la != lb) return la < lb;
                     return a.severity > b.severity;
                   });
  return problems;
}

}  // namespace feedcheck::rules
