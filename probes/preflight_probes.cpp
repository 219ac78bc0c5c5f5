#include "probes/preflight_probes.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include "core/diagnostic_codes.h"
#include "core/redact.h"
#include "probes/cleanup_registry.h"
#include "probes/target_facts.h"

namespace feedcheck {

namespace {

constexpr std::string_view kStageNames[] = {"list",       "latency", "smallfiles",
                                            "throughput", "nic",     "disk"};

bool Measured(ProbeStatus s) { return s == ProbeStatus::kOk || s == ProbeStatus::kPartial; }

// Error counts are per probe; over a run they add up (a later stage's count must not replace an
// earlier one's, as a plain merge would).
bool IsCount(const std::string& key) { return key.rfind("probe.errors.", 0) == 0; }

void MergeStageEvidence(const Evidence& stage, Evidence* run) {
  FactSet sums;
  for (const auto& [key, fact] : stage.facts) {
    if (!IsCount(key)) continue;
    double before = run->facts.Number(key).value_or(0);
    double added = stage.facts.Number(key).value_or(0);
    sums.Set(NumberFact(key, before + added, fact.unit, fact.provenance));
  }
  run->Merge(stage);
  run->facts.Merge(sums);
}

// The budget not yet spent by the stages that ran.
ProbeBudget BudgetLeft(const ProbeBudget& total, double elapsed_s, uint64_t requests,
                       uint64_t bytes) {
  ProbeBudget left;
  left.duration_s = std::max(0.0, total.duration_s - elapsed_s);
  left.max_requests = total.max_requests > requests ? total.max_requests - requests : 0;
  left.max_bytes = total.max_bytes > bytes ? total.max_bytes - bytes : 0;
  return left;
}

using StageRunner = std::function<ProbeResult(PreflightStage, const ProbeBudget&)>;

PreflightProbeResult RunStages(const PreflightProbeOptions& options, const StageRunner& run_stage) {
  PreflightProbeResult out;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (size_t i = 0; i < options.stages.size(); ++i) {
    PreflightStage stage = options.stages[i];
    if (StopRequested()) {
      if (out.message.empty())
        out.message = "stopped by a signal before " + std::string(PreflightStageName(stage));
      break;
    }
    StageShare sum{0, 0, 0};
    for (size_t j = i; j < options.stages.size(); ++j) {
      StageShare s = DefaultStageShare(options.stages[j]);
      sum.time += s.time;
      sum.requests += s.requests;
      sum.bytes += s.bytes;
    }
    ProbeBudget left = BudgetLeft(options.budget, elapsed(), out.requests_sent, out.bytes_received);
    PreflightStageResult r;
    r.stage = stage;
    r.budget = StageBudget(left, DefaultStageShare(stage), sum);
    if (!IsStorageStage(stage)) {
      // Local stages spend time only; the disk's test file has its own size (header comment).
      r.budget.max_requests = 0;
      r.budget.max_bytes = stage == PreflightStage::kDisk ? 2 * options.disk.file_bytes : 0;
    }
    bool starved =
        r.budget.duration_s <= 0 || (IsStorageStage(stage) && r.budget.max_requests == 0);
    if (starved) {
      r.result.probe = std::string(PreflightStageName(stage));
      r.result.status = ProbeStatus::kFailed;
      r.result.message = "no budget left";
    } else {
      r.ran = true;
      r.result = run_stage(stage, r.budget);
    }
    if (IsStorageStage(stage)) {
      out.requests_sent += r.result.requests_sent;
      out.bytes_received += std::max(r.result.bytes_received, r.result.bytes_charged);
    }
    MergeStageEvidence(r.result.evidence, &out.evidence);
    if (r.result.status != ProbeStatus::kOk && out.message.empty())
      out.message = fmt::format("{}: {}", PreflightStageName(stage), RedactText(r.result.message));
    bool unreachable = IsStorageStage(stage) && r.result.status == ProbeStatus::kUnreachable;
    out.stages.push_back(std::move(r));
    // Nobody answered: the other probes would only wait for the same timeouts.
    if (unreachable) break;
  }
  out.elapsed_s = elapsed();
  out.status = CombineStageStatus(out.stages);
  return out;
}

ProgressFn StageProgress(const ProgressFn& progress, PreflightStage stage, size_t index,
                         size_t count) {
  if (!progress) return {};
  return [progress, stage, index, count](const std::string& text) {
    progress(fmt::format("[{}/{} {}] {}", index + 1, count, PreflightStageName(stage), text));
  };
}

size_t IndexOf(const std::vector<PreflightStage>& stages, PreflightStage stage) {
  return static_cast<size_t>(std::find(stages.begin(), stages.end(), stage) - stages.begin());
}

}  // namespace

std::string_view PreflightStageName(PreflightStage stage) {
  return kStageNames[static_cast<size_t>(stage)];
}

bool IsStorageStage(PreflightStage stage) {
  return stage != PreflightStage::kNic && stage != PreflightStage::kDisk;
}

bool ParsePreflightStage(std::string_view name, PreflightStage* out) {
  for (size_t i = 0; i < std::size(kStageNames); ++i) {
    if (kStageNames[i] == name) {
      *out = static_cast<PreflightStage>(i);
      return true;
    }
  }
  return false;
}

StageShare DefaultStageShare(PreflightStage stage) {
  // Listing and latency are cheap and fast; small files need many requests; the throughput
  // sweep needs time (several steps of a few seconds) and nearly all the bytes.
  switch (stage) {
    case PreflightStage::kList:
      return {0.10, 0.05, 0.01};
    case PreflightStage::kLatency:
      return {0.15, 0.10, 0.01};
    case PreflightStage::kSmallFiles:
      return {0.25, 0.35, 0.18};
    case PreflightStage::kThroughput:
      return {0.50, 0.50, 0.80};
    // Reading /sys takes no time; the disk writes, reads back and samples random reads.
    case PreflightStage::kNic:
      return {0.01, 0, 0};
    case PreflightStage::kDisk:
      return {0.15, 0, 0};
  }
  return {};
}

ProbeBudget StageBudget(const ProbeBudget& left, const StageShare& share,
                        const StageShare& share_sum) {
  auto part = [](double whole, double s, double sum) {
    if (!(sum > 0) || !(s > 0)) return 0.0;
    return whole * std::min(1.0, s / sum);
  };
  ProbeBudget b;
  b.duration_s = part(left.duration_s, share.time, share_sum.time);
  b.max_requests = static_cast<uint64_t>(
      std::floor(part(static_cast<double>(left.max_requests), share.requests, share_sum.requests)));
  b.max_bytes = static_cast<uint64_t>(
      std::floor(part(static_cast<double>(left.max_bytes), share.bytes, share_sum.bytes)));
  b.max_requests = std::min(b.max_requests, left.max_requests);
  b.max_bytes = std::min(b.max_bytes, left.max_bytes);
  return b;
}

ProbeStatus CombineStageStatus(const std::vector<PreflightStageResult>& stages) {
  if (stages.empty()) return ProbeStatus::kFailed;
  bool has_storage = std::any_of(stages.begin(), stages.end(),
                                 [](const auto& s) { return IsStorageStage(s.stage); });
  // Which stages decide whether anything was measured: the storage ones when there are any.
  auto decides = [&](const PreflightStageResult& s) {
    return !has_storage || IsStorageStage(s.stage);
  };
  bool any = false, all = true;
  for (const auto& s : stages) {
    if (decides(s)) any |= Measured(s.result.status);
    all &= s.result.status == ProbeStatus::kOk;
  }
  if (all) return ProbeStatus::kOk;
  if (any) return ProbeStatus::kPartial;
  for (const auto& s : stages)
    if (decides(s) && s.result.status == ProbeStatus::kUnreachable)
      return ProbeStatus::kUnreachable;
  return ProbeStatus::kFailed;
}

namespace {

// The node's own stages, the same for a storage target and a local path.
ProbeResult RunNodeStage(PreflightStage stage, const PreflightProbeOptions& options,
                         const std::string& host, const ProbeBudget& budget,
                         const ProgressFn& progress) {
  if (stage == PreflightStage::kNic) {
    NicProbeOptions nic = options.nic;
    if (nic.host.empty()) nic.host = host;
    return RunNicProbe(nic);
  }
  return RunDiskProbe(options.disk, budget, options.cleanup, progress);
}

PreflightProbeResult RunTargetStages(const HttpProbeEnv& env,
                                     const PreflightProbeOptions& options) {
  return RunStages(options, [&](PreflightStage stage, const ProbeBudget& budget) {
    HttpProbeEnv stage_env = env;
    stage_env.budget = budget;
    stage_env.progress =
        StageProgress(env.progress, stage, IndexOf(options.stages, stage), options.stages.size());
    if (!IsStorageStage(stage))
      return RunNodeStage(stage, options, env.target.HostName(), budget, stage_env.progress);
    switch (stage) {
      case PreflightStage::kList:
        return RunListProbe(stage_env, options.list);
      case PreflightStage::kLatency:
        return RunLatencyProbe(stage_env, options.latency).result;
      case PreflightStage::kSmallFiles:
        return RunSmallFileProbe(stage_env, options.smallfiles);
      case PreflightStage::kThroughput:
        return RunThroughputProbe(stage_env, options.throughput).result;
      case PreflightStage::kNic:
      case PreflightStage::kDisk:
        break;
    }
    return ProbeResult();
  });
}

}  // namespace

PreflightProbeResult RunPreflightProbes(const HttpProbeEnv& env,
                                        const PreflightProbeOptions& options) {
  PreflightProbeResult out = RunTargetStages(env, options);
  // Figures measured against this machine or an emulator stay marked in every report.
  AddTargetFacts(env.target, &out.evidence.facts);
  return out;
}

PreflightProbeResult RunLocalPreflightProbes(const std::string& dir,
                                             const PreflightProbeOptions& options,
                                             const ProgressFn& progress) {
  PreflightProbeOptions local = options;
  std::erase_if(local.stages, [](PreflightStage s) {
    return s == PreflightStage::kLatency || s == PreflightStage::kThroughput;
  });
  PreflightProbeResult out = RunStages(local, [&](PreflightStage stage, const ProbeBudget& budget) {
    ProgressFn p =
        StageProgress(progress, stage, IndexOf(local.stages, stage), local.stages.size());
    if (stage == PreflightStage::kList) return RunLocalListProbe(dir, local.list, budget, p);
    if (stage == PreflightStage::kSmallFiles)
      return RunLocalSmallFileProbe(dir, local.smallfiles, budget, p);
    return RunNodeStage(stage, local, "", budget, p);
  });
  if (local.stages.size() != options.stages.size())
    out.evidence.diagnostics.Add(Diagnostic{
        codes::kStagesSkippedOnPath,
        DiagnosticSeverity::kNote,
        "latency and throughput are storage-protocol probes: not run on a local path " + dir,
        {},
        "",
        ""});
  return out;
}

}  // namespace feedcheck
