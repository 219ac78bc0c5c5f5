// An AzureML command job YAML (schema:
// https://azuremlschemas.azureedge.net/latest/commandJob.schema.json), read for lint: the inputs
// with type, path and mode, the outputs with mode, environment_variables, resources and compute,
// each with the file and line it is on so a change can point at it. A pipeline step or a sweep's
// trial is read into the same shape (rules/job_steps.h).
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"

namespace YAML {
class Node;
}

namespace feedcheck::rules {

struct JobInput {
  std::string name;
  std::string type;  ///< uri_folder (default), uri_file, mltable, ...; "literal" for plain values
  std::string path;
  std::string mode;       ///< as written; empty when absent (the default is ro_mount)
  std::string literal;    ///< value of a literal input ("epochs: 1")
  std::string file;       ///< the file that holds `mode:` (or the input, when it has none)
  int line = 0;           ///< line of the input's name
  int mode_line = 0;      ///< line of `mode:`, 0 when absent
  std::string bound_to;   ///< "pipeline input 'x'" when bound with ${{parent.inputs.x}}
  bool upstream = false;  ///< another step's output (${{parent.jobs.y.outputs.z}})
};

struct JobOutput {
  std::string name;
  std::string mode;  ///< as written; empty when absent (the default is rw_mount)
  std::string file;
  int line = 0;
  int mode_line = 0;
  std::string binding;  ///< "${{parent.outputs.x}}" for a step's output bound to the pipeline's
};

struct JobEnv {
  std::string name;
  std::string value;  ///< "REDACTED" when `secret`: the value is never kept
  std::string file;
  int line = 0;
  /// A credential: a secret-named variable (AZURE_STORAGE_KEY, *_SAS_TOKEN, *_SECRET) or a
  /// value holding one (a SAS `sig=`, AccountKey=).
  bool secret = false;
};

/// A key the schema does not have that is a letter or two from one it has (`paths:` for
/// `path:`): Azure ML refuses or ignores it.
struct KeyTypo {
  std::string key;
  std::string likely;
  std::string where;  ///< "inputs.images", "resources", "" for the top level
  std::string file;
  int line = 0;
  /// A credential: a secret-named variable (AZURE_STORAGE_KEY, *_SAS_TOKEN, *_SECRET) or a
  /// value holding one (a SAS `sig=`, AccountKey=).
  bool secret = false;
};

struct JobFile {
  std::string path;     ///< the file that holds resources / compute (the job, or the pipeline)
  std::string command;  ///< the command line, as written (a step's or its component's)
  std::string command_file;
  int command_line = 0;
  std::string step;  ///< "" for a command job; "step 'train'" or "the sweep's trial"
  std::vector<JobInput> inputs;
  std::vector<JobOutput> outputs;
  std::vector<JobEnv> env;
  std::string env_file;  ///< the file of `environment_variables:` (path when absent)
  int env_line = 0;      ///< line of `environment_variables:`, 0 when absent
  int instance_count = 1;
  int instance_count_line = 0;  ///< 0 when absent (default 1)
  std::string instance_type;
  int instance_type_line = 0;
  /// instance_type / instance_count written as an expression (${{parent.inputs.sku}}); "" when a
  /// value was written. instance_type holds what the pipeline's inputs resolve it to ("" when they
  /// give none: set when the job runs); an unresolved count is kept in the expression alone.
  std::string instance_type_expression;
  std::string instance_count_expression;
  std::string compute;
  int compute_line = 0;
  int resources_line = 0;
  std::string resources_file;  ///< the file of resources (path when absent)
  std::string distribution;    ///< distribution.type: pytorch | mpi | tensorflow | ray; "" none
  int processes_per_node = 0;  ///< distribution.process_count_per_instance; 0 when absent
  int distribution_line = 0;
  std::string distribution_file;
  /// Copies that run at once and read the same data: a sweep's limits.max_concurrent_trials.
  int concurrent_copies = 1;
  int concurrent_copies_line = 0;
  std::vector<KeyTypo> typos;

  /// The mode of the data inputs the job reads ("ro_mount" when an input gives none).
  const JobInput* FirstDataInput() const;
  /// The input's mode, or its default (ro_mount; download for nothing).
  static std::string ModeOf(const JobInput& input);
  /// The nodes that read at once: instance_count x concurrent_copies.
  int NodesAtOnce() const { return instance_count * concurrent_copies; }
};

/// Reads a job file. Returns false (with a diagnostic naming file:line) when it is not a
/// readable YAML mapping or not an Azure ML command job (no `command:`, or another `type:`: a
/// metrics JSON or a profile is not "Ok"); odd fields become warnings and are skipped.
bool ReadJobFile(const std::string& path, JobFile* out, DiagnosticList* diagnostics);
bool ReadJobText(const std::string& name, const std::string& content, JobFile* out,
                 DiagnosticList* diagnostics);

/// The command fields of a mapping (a command job, a command component, a pipeline step, a
/// sweep's trial) into `out`: inputs, outputs, environment_variables, resources, compute,
/// distribution. What `out` already holds is overridden name by name (a step's own settings win
/// over its component's). Values that are not what the schema takes become diagnostics (errors
/// for instance_count and process_count_per_instance); false when one is an error.
bool ReadCommandFields(const YAML::Node& node, const std::string& file, JobFile* out,
                       DiagnosticList* diagnostics);

/// Facts the job states: node.count (instance_count x concurrent copies), node.sku
/// (instance_type), workload.mode (first data input), workload.epochs (a literal input named
/// "epochs"), workload.distribution and workload.processes_per_node, runtime.setting.<VAR> for
/// each environment variable; provenance file:line.
FactSet JobFacts(const JobFile& job);

}  // namespace feedcheck::rules
