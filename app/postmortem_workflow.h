// `postmortem`: what a finished job left (its logs, storage metrics, GPU samples, saved probe
// results) -> analyzers, fact layering, rules, diagnosis -> the cause with its confidence and
// the GPU time it cost.
#pragma once

#include <string>
#include <vector>

#include "app/cluster_choice.h"
#include "app/knowledge_inputs.h"
#include "app/outcome.h"

namespace feedcheck::app {

struct PostmortemRequest {
  KnowledgeInputs knowledge;
  std::string job_dir;               ///< the job's log folder
  std::vector<std::string> metrics;  ///< storage account metrics exports
  std::vector<std::string> gpu;      ///< nvidia-smi CSV, DCGM
  std::vector<std::string> traces;   ///< PyTorch profiler traces (--trace), besides the folder's
  std::string profile;               ///< workload profile YAML, "" for none
  std::vector<std::string> with;     ///< saved preflight or probe results (JSON)
  ClusterSpec cluster;               ///< --sku, --nodes, --region, --account-*
  double gpu_busy_threshold_percent = 10;
  /// The zone nvidia-smi's clock was in ("+05:30", "-07:00"); "" reads UTC unless the samples
  /// miss the logs by hours (then guessed, with a note).
  std::string gpu_utc_offset;
  std::string fail_on = "critical";
};

/// The Report's `result`: gpu_idle_fraction, gpu_minutes_lost, cause, confidence (and what the
/// fix buys when estimated). Status: kFindings when a primary finding is at or above fail_on
/// (secondary ones do not describe this job); kInputError when nothing in the folder is
/// readable or an input is broken; kUsage for a bad cluster flag.
Outcome RunPostmortem(const PostmortemRequest& request);

}  // namespace feedcheck::app
