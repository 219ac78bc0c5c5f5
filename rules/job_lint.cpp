#include "rules/job_lint.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "core/ascii_text.h"
#include "core/diagnostic_codes.h"
#include "core/runtime_settings.h"
#include "rules/access_decision.h"

namespace feedcheck::rules {
namespace {

const Finding* FindFinding(const EvaluationResult& result, std::string_view id) {
  for (const auto& f : result.findings)
    if (f.rule_id == id) return &f;
  return nullptr;
}

SourceLocation At(const std::string& file, int line) { return SourceLocation{file, line, 0}; }

// The files a job's facts come from: the job (or pipeline) file and its component files.
bool IsJobFile(const JobFile& job, const std::string& file) {
  if (file.empty()) return false;
  if (file == job.path || file == job.env_file || file == job.resources_file ||
      file == job.distribution_file)
    return true;
  for (const auto& input : job.inputs)
    if (input.file == file) return true;
  for (const auto& e : job.env)
    if (e.file == file) return true;
  return false;
}

}  // namespace

std::vector<LintProblem> NoEffectSettings(const JobFile& job) {
  bool any = false, all_download = true, all_mount = true, all_direct = true;
  for (const auto& input : job.inputs) {
    if (input.type == "literal") continue;
    any = true;
    const std::string mode = input.mode.empty() ? "ro_mount" : input.mode;
    all_download = all_download && IsDownloadMode(mode);
    all_mount = all_mount && (mode == "ro_mount" || mode == "eval_mount");
    all_direct = all_direct && mode == "direct";
  }
  // A mounted output (rw_mount, the default) is a mount too: the mount settings act on it.
  std::string mounted_output;
  for (const auto& output : job.outputs)
    if (output.mode.empty() || output.mode == "rw_mount") {
      mounted_output = output.name;
      break;
    }
  std::vector<LintProblem> out;
  if (!any) return out;
  for (const auto& e : job.env) {
    LintProblem p;
    p.code = codes::kLintNoEffect;
    p.severity = Severity::kWarning;
    p.location = At(e.file, e.line);
    if (all_download && mounted_output.empty() &&
        (StartsWith(e.name, "DATASET_MOUNT_") || StartsWith(e.name, "DATASET_UNMOUNT_"))) {
      p.message = fmt::format(
          "{} has no effect: every data input of this job is downloaded (mode: download), no "
          "output is mounted (rw_mount), and DATASET_MOUNT_* settings apply to mounts only",
          e.name);
      p.change = fmt::format(
          "remove {}, or mount the input (mode: ro_mount) if it was meant to "
          "tune a mount",
          e.name);
    } else if (all_direct && mounted_output.empty() &&
               !SettingOutsideMode(e.name, "direct").empty()) {
      p.message = fmt::format(
          "{} has no effect: every data input of this job is read with mode "
          "direct; {}",
          e.name, SettingOutsideMode(e.name, "direct"));
      p.change = fmt::format(
          "remove {}, or read the input through the data runtime (mode: ro_mount or download) if "
          "it was meant to tune it",
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
    p.location = At(e.file, e.line);
    if (const RuntimeSetting* setting = FindRuntimeSetting(e.name)) {
      auto problem = RuntimeSettingValueProblem(*setting, e.value);
      if (!problem) continue;
      p.code = codes::kLintBadValue;
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
    p.code = codes::kLintUnknownSetting;
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
    p.code = codes::kLintSecret;
    p.severity = Severity::kWarning;
    p.location = At(e.file, e.line);
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

std::vector<LintProblem> NodeLimitProblems(const JobFile& job, const std::string& sku,
                                           double ram_bytes, double disk_bytes) {
  std::vector<LintProblem> out;
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  for (const auto& e : job.env) {
    const RuntimeSetting* setting = FindRuntimeSetting(e.name);
    if (!setting) continue;
    auto bytes = RuntimeSettingBytes(*setting, e.value);
    if (!bytes) continue;
    const bool memory = e.name == "DATASET_MOUNT_MEMORY_CACHE_SIZE" ||
                        e.name == "DATASET_MOUNT_BLOCK_FILE_CACHE_MAX_QUEUE_SIZE";
    const bool disk = e.name == "DATASET_MOUNT_CACHE_SIZE";
    const double limit = memory ? ram_bytes : disk ? disk_bytes : 0;
    if (limit <= 0 || std::fabs(*bytes) <= limit) continue;
    LintProblem p;
    p.code = codes::kLintBadValue;
    p.severity = Severity::kWarning;
    p.setting = e.name;
    p.location = At(e.file, e.line);
    const char* what = memory ? "RAM" : "local disk";
    const std::string use = *bytes < 0
                                ? fmt::format("asks to leave {:.0f} GiB free", -*bytes / kGiB)
                                : fmt::format("is {:.0f} GiB", *bytes / kGiB);
    p.message = fmt::format(
        "{} {}, more than the {:.0f} GiB of {} a {} node has; the guide documents it as {}; "
        "source: {}",
        e.name, use, limit / kGiB, what, sku, setting->meaning, RuntimeSettingSource(*setting));
    p.change = fmt::format(
        "{}: \"{}\" -> a value below the node's {:.0f} GiB of {} (or remove it: "
        "the default is {})",
        e.name, e.value, limit / kGiB, what, setting->default_value);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<LintProblem> KeyProblems(const std::vector<KeyTypo>& typos) {
  std::vector<LintProblem> out;
  for (const auto& t : typos) {
    LintProblem p;
    p.code = codes::kLintUnknownKey;
    p.severity = Severity::kWarning;
    p.location = At(t.file, t.line);
    const std::string where = t.where.empty() ? "" : " under " + t.where;
    p.message = fmt::format(
        "'{}'{} is not a key of the Azure ML job schema; did you mean '{}'? (Azure ML refuses "
        "the job, or what it sets is lost)",
        t.key, where, t.likely);
    p.change = fmt::format("{}: -> {}:", t.key, t.likely);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<LintProblem> DirectInputs(const JobFile& job) {
  std::vector<LintProblem> out;
  for (const auto& input : job.inputs) {
    if (input.type == "literal" || input.mode != "direct") continue;
    LintProblem p;
    p.code = codes::kLintDirect;
    p.severity = Severity::kInfo;
    p.location = At(input.file, input.mode_line > 0 ? input.mode_line : input.line);
    p.message = fmt::format(
        "input '{}' uses mode direct: the job gets a URI and its own code reads storage, outside "
        "the Azure ML data runtime (no prefetch, cache or retries of its own, credentials the "
        "job's to manage); the guide describes direct for Spark and for APIs that read URIs "
        "themselves, and mount or download for training data; source: Azure ML docs, \"Access "
        "data in a job\", section \"Modes\", "
        "https://learn.microsoft.com/azure/machine-learning/how-to-read-write-data-v2",
        input.name);
    p.change = fmt::format(
        "if '{}' is training data read as files, mode: direct -> mode: ro_mount (or download "
        "when it fits the disk); keep direct for Spark or a loader that streams the URI",
        input.name);
    out.push_back(std::move(p));
  }
  return out;
}

namespace {

// The argument an output is handed to in the command: "--data" for "--data ${{outputs.x}}" or
// "--data=${{outputs.x}}"; "" when it is not right after an option.
std::string ArgumentOf(const std::string& command, const std::string& output) {
  const std::string ref = "${{outputs." + output + "}}";
  const size_t at = command.find(ref);
  if (at == std::string::npos) return "";
  size_t end = at;
  while (end > 0 &&
         (command[end - 1] == ' ' || command[end - 1] == '=' || command[end - 1] == '\n'))
    --end;
  size_t start = end;
  while (start > 0 && command[start - 1] != ' ' && command[start - 1] != '\n') --start;
  std::string arg = command.substr(start, end - start);
  return StartsWith(arg, "-") ? arg : "";
}

// An argument named for data to read ("--data", "--train_dir", "--input-path"), not for data
// the job writes ("--prepped_data", "--output_data", "--model").
bool NamesData(const std::string& arg) {
  const std::string a = ToLower(arg);
  for (const char* word :
       {"out", "prep", "save", "writ", "dest", "result", "model", "checkpoint", "ckpt", "log",
        "export", "process", "transform", "clean", "score", "pred", "eval", "metric", "report"})
    if (a.find(word) != std::string::npos) return false;
  for (const char* word : {"data", "train", "input", "shard", "image", "corpus"})
    if (a.find(word) != std::string::npos) return true;
  return false;
}

}  // namespace

std::vector<LintProblem> OutputReads(const JobFile& job, bool dataset_declared) {
  std::vector<LintProblem> out;
  const bool reads_input = job.FirstDataInput() != nullptr;
  for (const auto& o : job.outputs) {
    if (!o.mode.empty() && o.mode != "rw_mount") continue;
    // A job that reads a data input writes its outputs from it (a prep step handing
    // `--train_data ${{outputs.train_data}}` to the next step): only a job with no data input
    // may be reading its training data through an output.
    if (reads_input) continue;
    const std::string arg = ArgumentOf(job.command, o.name);
    const bool named = !arg.empty() && NamesData(arg);
    if (!named && !dataset_declared) continue;
    LintProblem p;
    p.code = codes::kLintDirect;
    p.severity = Severity::kInfo;
    p.location = SourceLocation{o.file, o.mode_line > 0 ? o.mode_line : o.line, 0};
    p.message =
        named ? fmt::format(
                    "output '{}' (rw_mount) is handed to {}: if the job reads its training data "
                    "through it, it reads through a read-write mount meant for results; the "
                    "guide reads data through an input (ro_mount or download), where the data "
                    "runtime's read settings and advice apply",
                    o.name, arg)
              : fmt::format(
                    "the job reads no data input, but the profile describes a dataset: if it is "
                    "read through output '{}' (rw_mount), it is read through a read-write mount "
                    "meant for results; the guide reads data through an input (ro_mount or "
                    "download)",
                    o.name);
    p.change = fmt::format(
        "declare the training data as an input (type: uri_folder, mode: ro_mount or download) "
        "and keep '{}' for what the job writes",
        o.name);
    out.push_back(std::move(p));
  }
  return out;
}

void SortProblems(std::vector<LintProblem>* problems) {
  std::stable_sort(problems->begin(), problems->end(),
                   [](const LintProblem& a, const LintProblem& b) {
                     const int la = a.location.line > 0 ? a.location.line : INT_MAX;
                     const int lb = b.location.line > 0 ? b.location.line : INT_MAX;
                     if (la == INT_MAX || lb == INT_MAX || a.location.file == b.location.file) {
                       if (la != lb) return la < lb;
                     } else {
                       return a.location.file < b.location.file;
                     }
                     return a.severity > b.severity;
                   });
}

std::vector<LintProblem> MergeStepProblems(std::vector<LintProblem> problems) {
  std::vector<LintProblem> out;
  for (auto& p : problems) {
    auto same = std::find_if(out.begin(), out.end(), [&](const LintProblem& q) {
      return q.code == p.code && q.location.file == p.location.file &&
             q.location.line == p.location.line && q.message == p.message && q.change == p.change;
    });
    if (same == out.end()) {
      out.push_back(std::move(p));
      continue;
    }
    for (auto& s : p.steps)
      if (std::find(same->steps.begin(), same->steps.end(), s) == same->steps.end())
        same->steps.push_back(s);
  }
  for (auto& p : out) {
    if (p.steps.empty()) continue;
    std::string who;
    for (const auto& s : p.steps) who += (who.empty() ? "" : ", ") + s;
    p.message = who + ": " + p.message;
  }
  SortProblems(&out);
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
      // Another step's output (a model, scores) is not the dataset the advice is about.
      if (input.type == "literal" || input.upstream) continue;
      std::string mode = input.mode.empty() ? "ro_mount" : input.mode;
      const std::string want = ModeForInput(mode, advice.mode);
      if (mode == want) continue;
      LintProblem p;
      p.code = codes::kLintWrongMode;
      p.severity = rule ? rule->severity : Severity::kWarning;
      p.message = fmt::format("input '{}' uses mode {}{}; rule {} recommends {}: {}", input.name,
                              mode, input.mode.empty() ? " (the default)" : "", advice.mode_rule,
                              want, rule ? rule->title : "");
      p.change = input.mode.empty() ? fmt::format("add `mode: {}` to input '{}'", want, input.name)
                                    : fmt::format("mode: {} -> mode: {}", input.mode, want);
      p.location = At(input.file, input.mode_line > 0 ? input.mode_line : input.line);
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
      p.code = codes::kLintMissingEnv;
      p.message =
          fmt::format("{} is not set; rule {} recommends \"{}\"", want.name, rule_id, want.value);
      p.change =
          job.env_line > 0
              ? fmt::format("add under environment_variables:  {}: \"{}\"", want.name, want.value)
              : fmt::format("add an environment_variables: block with  {}: \"{}\"", want.name,
                            want.value);
      p.location = At(job.env_line > 0 ? job.env_file : job.path, job.env_line);
    } else if (!SameEnvValue(have->value, want.value)) {
      p.code = codes::kLintContradictingEnv;
      p.message = fmt::format("{} is \"{}\"; rule {} recommends \"{}\"", want.name, have->value,
                              rule_id, want.value);
      p.change =
          fmt::format("{}: \"{}\" -> {}: \"{}\"", want.name, have->value, want.name, want.value);
      p.location = At(have->file, have->line);
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
                             return q.code == codes::kLintWrongMode;
                           });
  if (to_download)
    for (auto& p : problems) {
      if (p.code != codes::kLintMissingEnv && p.code != codes::kLintContradictingEnv) continue;
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
    p.code = codes::kLintEgress;
    p.severity = f->severity;
    p.rule_id = f->rule_id;
    p.message =
        job.concurrent_copies > 1
            ? fmt::format(
                  "resources.instance_count {} x limits.max_concurrent_trials {} = {} "
                  "nodes reading at once: {}",
                  job.instance_count, job.concurrent_copies, job.NodesAtOnce(), f->title)
            : fmt::format("resources.instance_count is {}: {}", job.instance_count, f->title);
    p.change = f->message;
    // A sweep's trials each number their nodes from 0: a split by node index does not spread
    // them over accounts. What one account feeds is counted in whole trials instead.
    if (job.concurrent_copies > 1) {
      double nic = 0, egress = 0;
      for (const auto& fact : f->evidence) {
        if (fact.key == "node.nic_gbps" && fact.is_number()) nic = fact.number();
        if (fact.key == "account.egress_gbps" && fact.is_number()) egress = fact.number();
      }
      const int full_rate = nic > 0 ? static_cast<int>(std::floor(egress / nic + 1e-9)) : 0;
      const int trials = std::max(1, full_rate / std::max(1, job.instance_count));
      p.change = fmt::format(
          "{} x {} nodes read at once; one account feeds {} nodes at full rate, so at most {} "
          "trial{} of {} at once: limits.max_concurrent_trials: {} -> max_concurrent_trials: {}; "
          "or ask for a higher egress limit; or replicate the data across accounts and give the "
          "trials different accounts (each trial numbers its nodes from 0, so a split by node "
          "index does not spread them)",
          job.concurrent_copies, job.instance_count, full_rate, trials, trials == 1 ? "" : "s",
          job.instance_count, job.concurrent_copies, trials);
    }
    p.location =
        job.concurrent_copies > 1 && job.concurrent_copies_line > 0
            ? At(job.path, job.concurrent_copies_line)
            : At(job.resources_file.empty() ? job.path : job.resources_file,
                 job.instance_count_line > 0 ? job.instance_count_line : job.resources_line);
    problems.push_back(std::move(p));
    covered.push_back(f->rule_id);
  }

  // Everything else the rules say at warning or above.
  for (const auto& f : result.findings) {
    if (f.severity < Severity::kWarning) continue;
    if (std::find(covered.begin(), covered.end(), f.rule_id) != covered.end()) continue;
    LintProblem p;
    p.code = codes::kLintOther;
    p.severity = f.severity;
    p.rule_id = f.rule_id;
    p.message = f.title;
    p.change = f.message;
    // At the first line of the job its evidence comes from (instance_type for a retired size,
    // instance_count for the request limit); the whole file when none does.
    SourceLocation at = At(job.path, 0);
    for (const auto& fact : f.evidence)
      if (IsJobFile(job, fact.provenance.file) && fact.provenance.line > 0 &&
          (at.line == 0 || (fact.provenance.file == at.file && fact.provenance.line < at.line)))
        at = At(fact.provenance.file, fact.provenance.line);
    p.location = at;
    problems.push_back(std::move(p));
  }
  for (auto& p : SettingProblems(job, advice)) {
    // A misspelt name stands for the setting it was meant to be: the rename is the change, not
    // also "add" the setting. A value out of range that a rule already corrects is that rule's.
    if (p.code == codes::kLintUnknownSetting && !p.setting.empty())
      problems.erase(std::remove_if(problems.begin(), problems.end(),
                                    [&](const LintProblem& q) {
                                      return q.code == codes::kLintMissingEnv &&
                                             q.setting == p.setting;
                                    }),
                     problems.end());
    const bool corrected = std::any_of(problems.begin(), problems.end(), [&](const LintProblem& q) {
      return q.code == codes::kLintContradictingEnv && q.location.line == p.location.line;
    });
    if (p.code == codes::kLintBadValue && corrected) continue;
    problems.push_back(std::move(p));
  }
  for (auto& p : NoEffectSettings(job)) {
    // A setting that does nothing is not also "to be changed to" a value.
    problems.erase(std::remove_if(problems.begin(), problems.end(),
                                  [&](const LintProblem& q) {
                                    return q.code == codes::kLintContradictingEnv &&
                                           q.location.line == p.location.line;
                                  }),
                   problems.end());
    problems.push_back(std::move(p));
  }
  for (auto& p : SecretSettings(job)) problems.push_back(std::move(p));
  for (auto& p : KeyProblems(job.typos)) problems.push_back(std::move(p));
  for (auto& p : DirectInputs(job)) problems.push_back(std::move(p));
  if (!job.step.empty())
    for (auto& p : problems) p.steps = {job.step};
  SortProblems(&problems);
  return problems;
}

}  // namespace feedcheck::rules
