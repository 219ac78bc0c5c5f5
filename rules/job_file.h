// An AzureML command job YAML (schema:
// https://azuremlschemas.azureedge.net/latest/commandJob.schema.json), read for lint: the inputs
// with type, path and mode, environment_variables, resources.instance_count / instance_type and
// compute, each with the line it is on so a change can point at it.
#pragma once

#include <string>
#include <vector>

#include "core/diagnostic.h"
#include "core/fact_set.h"

namespace feedcheck::rules {

struct JobInput {
  std::string name;
  std::string type;  ///< uri_folder (default), uri_file, mltable, ...; "literal" for plain values
  std::string path;
  std::string mode;     ///< as written; empty when absent (the default is ro_mount)
  std::string literal;  ///< value of a literal input ("epochs: 1")
  int line = 0;         ///< line of the input's name
  int mode_line = 0;    ///< line of `mode:`, 0 when absent
};

struct JobEnv {
  std::string name;
  std::string value;  ///< "REDACTED" when `secret`: the value is never kept
  int line = 0;
  /// A credential: a secret-named variable (AZURE_STORAGE_KEY, *_SAS_TOKEN, *_SECRET) or a
  /// value holding one (a SAS `sig=`, AccountKey=).
  bool secret = false;
};

struct JobFile {
  std::string path;
  std::vector<JobInput> inputs;
  std::vector<JobEnv> env;
  int env_line = 0;  ///< line of `environment_variables:`, 0 when absent
  int instance_count = 1;
  int instance_count_line = 0;  ///< 0 when absent (default 1)
  std::string instance_type;
  int instance_type_line = 0;
  std::string compute;
  int resources_line = 0;
  std::string distribution;    ///< distribution.type: pytorch | mpi | tensorflow | ray; "" none
  int processes_per_node = 0;  ///< distribution.process_count_per_instance; 0 when absent
  int distribution_line = 0;

  /// The mode of the data inputs the job reads ("ro_mount" when an input gives none).
  const JobInput* FirstDataInput() const;
};

/// Reads a job file. Returns false (with a diagnostic naming file:line) when it is not a
/// readable YAML mapping or not an Azure ML command job (no `command:`, or another `type:`: a
/// metrics JSON or a profile is not "Ok"); odd fields become warnings and are skipped.
bool ReadJobFile(const std::string& path, JobFile* out, DiagnosticList* diagnostics);
bool ReadJobText(const std::string& name, const std::string& content, JobFile* out,
                 DiagnosticList* diagnostics);

/// Facts the job states: node.count, node.sku (instance_type), workload.mode (first data
/// input), workload.epochs (a literal input named "epochs"), workload.distribution and
/// workload.processes_per_node, runtime.setting.<VAR> for each environment variable;
/// provenance file:line.
FactSet JobFacts(const JobFile& job);

}  // namespace feedcheck::rules
