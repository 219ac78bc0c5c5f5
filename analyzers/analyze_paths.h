// The entry point of `feedcheck analyze`: walks files and folders (a downloaded job log folder
// with system_logs/data_capability/), detects each file's format, feeds all files of one
// format to one analyzer (rotated rslex.log.* files in time order), then correlates.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/format_detect.h"
#include "analyzers/job_definition.h"
#include "analyzers/job_nodes.h"
#include "analyzers/line_analyzer.h"
#include "analyzers/torch_steps.h"
#include "core/evidence.h"

namespace feedcheck::analyzers {

struct AnalyzeRequest {
  std::vector<std::string> paths;
  std::optional<InputFormat> forced_format;  ///< --format
  AnalyzerOptions options;
  size_t max_files = 10000;  ///< a folder walk stops here (says so)
  /// PyTorch profiler traces named on their own (--trace): read as traces whatever their name.
  std::vector<std::string> traces;
};

struct SkippedFile {
  std::string path;
  std::string reason;
};

struct AnalysisResult {
  Evidence evidence;                 ///< facts, series, timeline, diagnostics of all sources
  std::vector<SourceStats> sources;  ///< one per analyzer that read something
  std::vector<std::string> correlation_keys;
  std::vector<SkippedFile> skipped;  ///< not recognised, unreadable, missing
  bool anything_read = false;        ///< at least one file was recognised and read
  /// A job folder with one folder per node (two or more read): what each node's own files
  /// showed, from the same read (each input file is opened once), in node name order.
  std::vector<NodeEvidence> nodes;
  /// Job definitions found in a folder's root (analyzers/job_definition.h), most preferred
  /// first; not read here.
  std::vector<std::string> job_definitions;
  /// The profiler traces read (found in the folder or named), one per rank, in path order.
  std::vector<RankFigures> traces;
};

AnalysisResult AnalyzePaths(const AnalyzeRequest& request);

/// The node a file belongs to: the folder under `root` it sits in (job/node-1/...), unless that
/// is a standard folder (system_logs, gpu, metrics, ...), else the file's stem without the
/// tool's name (nvidia-smi-node-1.csv -> node-1; only the GPU tools' extensions are removed, so
/// 10.0.0.5 keeps its dots); a name in `known_nodes` (the nodes the logs name) is taken whole.
std::string NodeNameOf(const std::string& root, const std::string& path,
                       const std::set<std::string>& known_nodes = {});

/// Orders rotated rslex files oldest first: by the first timestamp inside, then by name
/// ("rslex.log.2023-05-18-14" < "rslex.log.2023-05-18-15" < "rslex.log").
std::vector<std::string> OrderRslexFiles(std::vector<std::string> files);

/// Orders data-capability.log files folder by folder (one per node), oldest first within one:
/// by the first timestamp inside, then by Python's rotation suffix ("data-capability.log.2" <
/// "data-capability.log.1" < "data-capability.log"), so an activity that starts in a rotated
/// file and ends in the next is read as one.
std::vector<std::string> OrderDataCapabilityFiles(std::vector<std::string> files);

}  // namespace feedcheck::analyzers
