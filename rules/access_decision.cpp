#include "rules/access_decision.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/ascii_text.h"
#include "core/runtime_settings.h"

namespace feedcheck::rules {
namespace {

// The mode a finding recommends ("" when it recommends none).
std::string RecommendedBy(const Finding& f) {
  for (const auto& c : f.config)
    if (c.kind == kInputModeFragment) return c.text;
  return "";
}

void DropModeFragment(Finding* f) {
  f->config.erase(
      std::remove_if(f->config.begin(), f->config.end(),
                     [](const ConfigFragment& c) { return c.kind == kInputModeFragment; }),
      f->config.end());
}

FactSet UnderMode(const FactSet& facts, const std::string& mode, const std::string& rule_id) {
  FactSet under = facts;
  Provenance p;
  p.origin = FactOrigin::kDeclared;
  p.source = fmt::format("the mode rule {} recommends", rule_id);
  under.Set(TextFact("workload.mode", mode, p));
  return under;
}

bool DataRuntimeSetting(const std::string& name) {
  return FindRuntimeSetting(name) != nullptr || StartsWith(name, "DATASET_MOUNT_") ||
         StartsWith(name, "DATASET_UNMOUNT_") || StartsWith(name, "RSLEX_") ||
         StartsWith(name, "AZUREML_DATASET_");
}

// Only what acts on `mode` is kept to paste; the rest goes to `dropped` with the reason.
Advice KeepForMode(const Advice& advice, const std::string& mode, const std::string& out_of_scope,
                   bool mounts_output, std::vector<DroppedSetting>* dropped) {
  Advice kept = advice;
  kept.env.clear();
  kept.env_rules.clear();
  for (size_t i = 0; i < advice.env.size(); ++i) {
    const std::string& name = advice.env[i].name;
    std::string why = SettingOutsideMode(name, mode);
    // A mounted output is a mount: the mount settings act on it.
    if (mounts_output && IsDownloadMode(mode) &&
        (StartsWith(name, "DATASET_MOUNT_") || StartsWith(name, "DATASET_UNMOUNT_")))
      why.clear();
    if (why.empty() && !out_of_scope.empty() && DataRuntimeSetting(name)) why = out_of_scope;
    if (why.empty()) {
      kept.env.push_back(advice.env[i]);
      kept.env_rules.push_back(advice.env_rules[i]);
    } else if (dropped) {
      dropped->push_back({advice.env[i], advice.env_rules[i], std::move(why)});
    }
  }
  kept.conflicts.erase(std::remove_if(kept.conflicts.begin(), kept.conflicts.end(),
                                      [&](const EnvConflict& c) {
                                        return !SettingOutsideMode(c.name, mode).empty();
                                      }),
                       kept.conflicts.end());
  // BlobFuse2 fragments configure a mount.
  if (IsDownloadMode(mode) || mode == "direct" || !out_of_scope.empty()) kept.config.clear();
  return kept;
}

}  // namespace

Advice AdviceForMode(const std::vector<Finding>& findings, const std::string& mode,
                     std::vector<DroppedSetting>* dropped) {
  return KeepForMode(MergeAdvice(findings), mode, "", false, dropped);
}

bool IsMountMode(const std::string& mode) {
  return mode == "ro_mount" || mode == "eval_mount" || mode == "rw_mount";
}

bool IsDownloadMode(const std::string& mode) {
  return mode == "download" || mode == "eval_download";
}

std::string SettingOutsideMode(const std::string& name, const std::string& mode) {
  if (IsDownloadMode(mode) &&
      (StartsWith(name, "DATASET_MOUNT_") || StartsWith(name, "DATASET_UNMOUNT_")))
    return fmt::format("{} acts on mounts only, and the input is downloaded ({})", name, mode);
  if (IsMountMode(mode) && name == "RSLEX_DOWNLOADER_THREADS")
    return fmt::format(
        "{} sets the threads of download mode only, and the input is mounted ({}; mounts use "
        "DATASET_MOUNT_READ_THREADS)",
        name, mode);
  if (mode == "direct" && DataRuntimeSetting(name))
    return fmt::format(
        "{} is a data runtime setting, and mode direct hands the job a URI its own code reads, "
        "outside the data runtime",
        name);
  return "";
}

std::string OutsideDatastores(const std::string& account_kind) {
  if (account_kind == "netapp_files")
    return "the data is on an Azure NetApp Files volume, which Azure ML reads through no "
           "datastore (the job mounts it over NFS): the data runtime's input modes and its "
           "mount and download settings do not act on it";
  return "";
}

std::string SourceOutsideDatastores(const std::string& path) {
  const std::string p = ToLower(std::string(Trim(path)));
  for (const char* scheme : {"s3://", "gs://"})
    if (StartsWith(p, scheme)) return fmt::format("{} is not an Azure storage service", scheme);
  if (!StartsWith(p, "http://") && !StartsWith(p, "https://")) return "";
  const size_t host_at = p.find("://") + 3;
  const std::string host = p.substr(host_at, p.find('/', host_at) - host_at);
  for (const char* azure : {".blob.core.windows.net", ".dfs.core.windows.net",
                            ".file.core.windows.net", ".blob.storage.azure.net"})
    if (host.size() > std::string(azure).size() &&
        host.compare(host.size() - std::string(azure).size(), std::string::npos, azure) == 0)
      return "";
  return fmt::format("{} is a web server, not an Azure storage account", host);
}

bool IsStorageReadFinding(const Finding& finding) {
  switch (finding.bottleneck) {
    case Bottleneck::kAccessFailure:
    case Bottleneck::kAccountEgress:
    case Bottleneck::kRequestRate:
    case Bottleneck::kCacheDisk:
    case Bottleneck::kClientThreads:
    case Bottleneck::kSmallFiles:
    case Bottleneck::kAccessMode:
      return true;
    default:
      return false;
  }
}

AccessDecision DecideAccess(const RuleSet& rules, const FactSet& facts, JudgedMode judged,
                            const WorkloadScope& scope) {
  AccessDecision d;
  d.declared_mode = facts.Text("workload.mode").value_or("");
  // A dataset read with no mode declared is read in the default one, ro_mount: it is judged so,
  // as the job would run.
  FactSet defaulted;
  if (d.declared_mode.empty() && scope.reads_data &&
      (facts.Has("dataset.bytes") || facts.Has("dataset.files"))) {
    defaulted = facts;
    Provenance p;
    p.origin = FactOrigin::kDeclared;
    p.source = "the default input mode (no mode declared)";
    defaulted.Set(TextFact("workload.mode", "ro_mount", p));
    d.declared_mode = "ro_mount";
  }
  const FactSet& judged_facts = defaulted.size() > 0 ? defaulted : facts;
  d.mode = d.declared_mode;
  EvaluationResult first = rules.Evaluate(judged_facts);
  const Advice first_advice = MergeAdvice(first.findings);
  std::string recommended =
      first_advice.mode.empty() ? "" : ModeForInput(d.declared_mode, first_advice.mode);
  if (recommended == d.declared_mode) recommended.clear();
  EvaluationResult result = std::move(first);
  d.out_of_scope = OutsideDatastores(facts.Text("account.kind").value_or(""));
  if (!d.out_of_scope.empty()) {
    // The volume's own limits still hold (its findings stay); the data runtime's modes do not.
    for (auto& f : result.findings) DropModeFragment(&f);
    recommended.clear();
  }
  if (!recommended.empty()) {
    // Judged under the mode it recommends: a mode whose own findings send the job back is a
    // trade-off, not a recommendation (both ways have a cost the rules name).
    EvaluationResult second =
        rules.Evaluate(UnderMode(judged_facts, recommended, first_advice.mode_rule));
    std::string back;
    std::string back_rule;
    for (const auto& f : second.findings) {
      const std::string m = RecommendedBy(f);
      if (m.empty() || ModeForInput(d.declared_mode, m) == recommended) continue;
      back = m;
      back_rule = f.rule_id;
      break;
    }
    if (!back.empty()) {
      for (auto& f : result.findings) {
        if (RecommendedBy(f).empty()) continue;
        DropModeFragment(&f);
        f.message += fmt::format(
            " (Under {}, rule {} recommends {} again: the mode is a trade-off for this workload, "
            "so {} is kept; weigh the two findings.)",
            recommended, back_rule, back, d.declared_mode);
      }
      recommended.clear();
    } else if (judged == JudgedMode::kRecommended) {
      // The findings of the mode advised, and those that recommend it (the reason for it).
      std::vector<Finding> findings;
      for (auto& f : result.findings)
        if (!RecommendedBy(f).empty()) findings.push_back(std::move(f));
      for (auto& f : second.findings) {
        if (std::any_of(findings.begin(), findings.end(),
                        [&](const Finding& k) { return k.rule_id == f.rule_id; }))
          continue;
        findings.push_back(std::move(f));
      }
      SortFindings(&findings);
      result.findings = std::move(findings);
      result.skipped = std::move(second.skipped);
      d.mode = recommended;
      d.mode_rule = first_advice.mode_rule;
    }
  }
  if (!scope.reads_data) {
    std::vector<Finding> kept;
    for (auto& f : result.findings) {
      const bool ingress = f.bottleneck == Bottleneck::kAccountIngress;
      if (IsStorageReadFinding(f) || (ingress && !scope.writes_data)) {
        d.dropped_findings.push_back(
            {f.rule_id, "the job reads no data input, so no storage read is limited"});
        continue;
      }
      kept.push_back(std::move(f));
    }
    result.findings = std::move(kept);
    recommended.clear();
  }
  d.result = std::move(result);
  d.advice = KeepForMode(MergeAdvice(d.result.findings), d.mode, d.out_of_scope,
                         scope.mounts_output, &d.dropped_settings);
  // A finding whose only advice is settings that do not act on the mode judged has nothing to
  // say about this job.
  std::vector<Finding> kept;
  for (auto& f : d.result.findings) {
    const bool moot =
        !f.env.empty() && RecommendedBy(f).empty() &&
        std::all_of(f.env.begin(), f.env.end(), [&](const EnvSetting& e) {
          return std::any_of(d.dropped_settings.begin(), d.dropped_settings.end(),
                             [&](const DroppedSetting& x) { return x.setting.name == e.name; });
        });
    if (moot) {
      d.dropped_findings.push_back(
          {f.rule_id, fmt::format("its settings do not act on an input read in {}", d.mode)});
      continue;
    }
    kept.push_back(std::move(f));
  }
  d.result.findings = std::move(kept);
  d.advice.mode = recommended;
  d.advice.mode_rule = recommended.empty() ? "" : first_advice.mode_rule;
  if (recommended.empty()) d.mode_rule.clear();
  return d;
}

}  // namespace feedcheck::rules
