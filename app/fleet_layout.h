// Is a folder one job or a folder of jobs (a fleet)? Decided by its structure alone, before any
// log is read, so `postmortem DIR` never merges several jobs into one "job" of many nodes.
#pragma once

#include <string>
#include <vector>

namespace feedcheck::app {

/// --layout: decide from the structure, or say it.
enum class FleetLayoutChoice { kAuto, kJob, kFleet };

struct FleetLayout {
  bool fleet = false;
  std::vector<std::string> jobs;     ///< the job folders, by name (fleet only)
  std::vector<std::string> skipped;  ///< subfolders that are not jobs: "profiles: no logs"
  std::string why;                   ///< the rule that decided, in one sentence
};

/// The rule (docs/postmortem.md#fleet). A folder holds a job's logs when it has a
/// system_logs/, azureml-logs/, user_logs/ or data_capability/ folder directly inside.
///  1. DIR holds logs itself: one job (per-node folders inside its log tree are its nodes).
///  2. A subfolder holds no logs but has node folders that do (job/node-0/system_logs): that
///     subfolder is a multi-node job, so DIR is a fleet (a node never holds nodes). When that
///     subfolder is by these same rules a fleet itself (DIR/experiment/job/...), its jobs join
///     DIR's as "experiment/job" (two levels down at most).
///  3. DIR has a metrics/, gpu/ or outputs/ folder beside its subfolders: those describe one
///     job, and the subfolders are its nodes.
///  4. Fewer than two subfolders hold logs: one job.
///  5. A subfolder with its own metrics/ folder is a job (storage metrics are the job's, not a
///     node's): a fleet.
///  6. Every subfolder is named like a node (node-0, rank-1, worker-2, tvmps_...): one job.
///  7. Otherwise a fleet.
/// kJob and kFleet override the rule (a fleet of DIR's subfolders that hold logs or nodes).
FleetLayout DetectFleetLayout(const std::string& dir, FleetLayoutChoice choice);

/// The job folder a folder inside a job belongs to: JOB for JOB/system_logs/data_capability
/// (the folder --help names), JOB/node-0/system_logs, JOB/azureml-logs, ...: the parent of the
/// outermost log folder (system_logs/, azureml-logs/, user_logs/, data_capability/) in the path,
/// and above a node folder (node-0, rank-1) beside the job's metrics/ or other node folders.
/// "" when the folder is not inside a job's log tree (it is then read as given).
std::string EnclosingJobFolder(const std::string& dir);

/// "node-0", "node3", "rank-1", "worker_2", "tvmps_5e0c11a2b4_d": the names Azure ML and the
/// usual launchers give a node's folder.
bool LooksLikeNodeName(const std::string& name);

}  // namespace feedcheck::app
