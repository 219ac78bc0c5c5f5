#include "rules/job_keys.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "core/edit_distance.h"

namespace feedcheck::rules {
namespace {

// From the public schemas (commandJob, pipelineJob, sweepJob, commandComponent); a key in any
// of them is known where it may appear, so a valid key is never taken for a typo.
const std::vector<std::string>& Keys(KeySet set) {
  static const std::vector<std::string> kCommand = {"$schema",
                                                    "type",
                                                    "name",
                                                    "version",
                                                    "display_name",
                                                    "experiment_name",
                                                    "description",
                                                    "tags",
                                                    "command",
                                                    "code",
                                                    "environment",
                                                    "environment_variables",
                                                    "distribution",
                                                    "compute",
                                                    "resources",
                                                    "limits",
                                                    "inputs",
                                                    "outputs",
                                                    "identity",
                                                    "queue_settings",
                                                    "services",
                                                    "properties",
                                                    "is_deterministic",
                                                    "parent_job_name",
                                                    "status",
                                                    "id",
                                                    "creation_context",
                                                    "component",
                                                    "additional_includes",
                                                    "studio_url"};
  static const std::vector<std::string> kPipeline = {
      "$schema",          "type",        "name",     "display_name",
      "experiment_name",  "description", "tags",     "inputs",
      "outputs",          "settings",    "jobs",     "compute",
      "identity",         "properties",  "status",   "id",
      "creation_context", "tasks",       "services", "component"};
  static const std::vector<std::string> kStep = {"type",
                                                 "component",
                                                 "inputs",
                                                 "outputs",
                                                 "compute",
                                                 "resources",
                                                 "distribution",
                                                 "environment_variables",
                                                 "name",
                                                 "display_name",
                                                 "description",
                                                 "tags",
                                                 "limits",
                                                 "properties",
                                                 "identity",
                                                 "command",
                                                 "code",
                                                 "environment",
                                                 "settings",
                                                 "queue_settings",
                                                 "services",
                                                 "trial",
                                                 "search_space",
                                                 "sampling_algorithm",
                                                 "objective",
                                                 "early_termination",
                                                 "experiment_name",
                                                 "task",
                                                 "mini_batch_size",
                                                 "retry_settings",
                                                 "logging_level",
                                                 "max_concurrency_per_instance",
                                                 "error_threshold",
                                                 "input_data",
                                                 "mini_batch_error_threshold",
                                                 "entry_script",
                                                 "conf",
                                                 "driver_cores",
                                                 "driver_memory",
                                                 "executor_cores",
                                                 "executor_memory",
                                                 "executor_instances",
                                                 "entry",
                                                 "args",
                                                 "py_files",
                                                 "jars",
                                                 "files",
                                                 "archives",
                                                 "primary_metric",
                                                 "training_data",
                                                 "validation_data",
                                                 "test_data",
                                                 "target_column_name",
                                                 "featurization",
                                                 "training",
                                                 "is_deterministic",
                                                 "do_while",
                                                 "condition",
                                                 "true_block",
                                                 "false_block",
                                                 "max_iteration_count",
                                                 "items",
                                                 "body",
                                                 "parallelism",
                                                 "version"};
  static const std::vector<std::string> kSweep = {"$schema",
                                                  "type",
                                                  "name",
                                                  "display_name",
                                                  "experiment_name",
                                                  "description",
                                                  "tags",
                                                  "trial",
                                                  "search_space",
                                                  "sampling_algorithm",
                                                  "objective",
                                                  "early_termination",
                                                  "limits",
                                                  "compute",
                                                  "inputs",
                                                  "outputs",
                                                  "identity",
                                                  "properties",
                                                  "resources",
                                                  "queue_settings",
                                                  "status",
                                                  "id",
                                                  "creation_context"};
  static const std::vector<std::string> kInputKeys = {
      "type", "path",  "mode",      "description",     "default", "optional", "min",       "max",
      "enum", "value", "datastore", "path_on_compute", "name",    "version",  "is_control"};
  static const std::vector<std::string> kOutputKeys = {
      "type",       "path",           "mode",      "name",
      "version",    "description",    "datastore", "path_on_compute",
      "is_control", "early_available"};
  static const std::vector<std::string> kResourceKeys = {
      "instance_count", "instance_type",      "shm_size",   "docker_args",
      "locations",      "max_instance_count", "properties", "runtime_version"};
  static const std::vector<std::string> kDistributionKeys = {"type",
                                                             "process_count_per_instance",
                                                             "worker_count",
                                                             "parameter_server_count",
                                                             "include_dashboard",
                                                             "head_address",
                                                             "head_node_additional_args",
                                                             "worker_node_additional_args",
                                                             "port",
                                                             "address"};
  switch (set) {
    case KeySet::kCommandJob:
      return kCommand;
    case KeySet::kPipelineJob:
      return kPipeline;
    case KeySet::kPipelineStep:
      return kStep;
    case KeySet::kSweepJob:
      return kSweep;
    case KeySet::kInput:
      return kInputKeys;
    case KeySet::kOutput:
      return kOutputKeys;
    case KeySet::kResources:
      return kResourceKeys;
    case KeySet::kDistribution:
      return kDistributionKeys;
  }
  return kCommand;
}

}  // namespace

void CheckKeys(const YAML::Node& map, KeySet set, const std::string& where, const std::string& file,
               std::vector<KeyTypo>* out) {
  if (!map.IsMap()) return;
  const auto& keys = Keys(set);
  for (const auto& kv : map) {
    if (!kv.first.IsScalar()) continue;
    const std::string key = kv.first.as<std::string>();
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    // Close: one edit for a short key, two for a long one (`paths` is `path`, `cmd` is not
    // `code`).
    std::string best;
    int best_distance = 1000;
    for (const auto& k : keys) {
      const int d = EditDistance(key, k, 8);
      if (d < best_distance) best_distance = d, best = k;
    }
    const int limit = key.size() >= 9 ? 2 : 1;
    if (best_distance > limit) continue;
    KeyTypo typo;
    typo.key = key;
    typo.likely = best;
    typo.where = where;
    typo.file = file;
    typo.line = kv.first.Mark().line + 1;
    // Pipelines and components are read more than once (a component shared by two steps):
    // one problem per key and place.
    const bool seen = std::any_of(out->begin(), out->end(), [&](const KeyTypo& t) {
      return t.file == typo.file && t.line == typo.line && t.key == typo.key;
    });
    if (!seen) out->push_back(std::move(typo));
  }
}

}  // namespace feedcheck::rules
