// data-capability.log (Azure ML docs, "Access data in a job", section "Using logs to diagnose
// issues"): Python-logging lines
//   INFO 2023-05-18 17:14:50,295 sdk_logger.py:44 [28] - ActivityCompleted: Activity=download,
//        HowEnded=Success, Duration=2504.39 [ms]
// Activities become timeline intervals (lane "data-runtime"); the input mode, the download
// duration, failures, failed mounts and stream error codes become facts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "analyzers/data_capability_shapes.h"
#include "analyzers/line_analyzer.h"

namespace feedcheck::analyzers {

/// One parsed "ActivityCompleted" message.
struct ActivityCompleted {
  std::string_view activity;
  std::string_view how_ended;
  double duration_ms = 0;
  std::string_view exception;  ///< empty when absent
};

/// Parses the message part ("ActivityCompleted: Activity=..., HowEnded=..., Duration=... [ms]"),
/// with or without the space before "[ms]", with optional ", Exception=..." and the variant
/// that prefixes "<start_time> | ". False when any of the three fields is missing.
bool ParseActivityCompleted(std::string_view message, ActivityCompleted* out);
/// "ActivityStarted, download" or "ActivityStarted: download" -> "download".
std::optional<std::string_view> ParseActivityStarted(std::string_view message);

struct PythonLogLine {
  std::string_view level;  ///< INFO, WARNING, ERROR, ...
  bool has_time = false;
  double epoch_s = 0;
  std::string_view message;  ///< after " - " (or after the timestamp when there is no " - ")
};
/// False when the line does not start with a logging level (continuation lines, tracebacks).
bool ParsePythonLogLine(std::string_view line, PythonLogLine* out);

class DataCapabilityAnalyzer : public LineAnalyzer {
 public:
  explicit DataCapabilityAnalyzer(const AnalyzerOptions& options = {});
  void BeginFile(const std::string& path) override;
  void OnLine(const Line& line) override;
  void EndFile() override;
  bool NotesCutLastLine() const override { return true; }
  void Finish(Evidence* out) override;
  /// The node's runtime.download_s (its longest download); its activities are on the job's
  /// timeline, tagged with the node.
  void FinishNode(const std::string& node, Evidence* out) override;

  struct ActivityTotals {
    uint64_t completed = 0;
    uint64_t failed = 0;
    double max_duration_ms = 0;
    double total_duration_ms = 0;
    std::string file;  // of the longest
    int64_t line = 0;
  };
  const std::map<std::string, ActivityTotals, std::less<>>& activities() const { return totals_; }
  /// Logging lines read per message shape.
  uint64_t shape_count(DataCapabilityShape shape) const {
    return shapes_[static_cast<size_t>(shape)];
  }
  /// Where the first line of an unknown shape was ("" when none).
  const std::string& first_unknown_shape() const { return first_unknown_; }
  /// First and last timestamp of the lines read (UTC); nothing before a timestamped line.
  std::optional<std::pair<double, double>> time_span() const { return span_; }

 private:
  struct Open {
    double epoch_s = 0;
    int64_t line = 0;
    std::string file;
    std::string node;
  };
  void CloseOpenActivities();
  /// An activity that never completed (its node restarted, was preempted, or the log was cut).
  void MarkUnfinished(const std::string& name, const Open& o);
  // Started, not yet completed, in this folder's files (a rotated log continues in the next).
  std::map<std::string, Open, std::less<>> open_;
  std::string open_dir_;
  std::map<std::string, ActivityTotals, std::less<>> totals_;
  std::vector<TimelineInterval> intervals_;
  uint64_t intervals_dropped_ = 0;
  uint64_t continuation_lines_ = 0;
  uint64_t shapes_[kDataCapabilityShapeCount] = {};
  std::string first_unknown_;
  uint64_t error_lines_ = 0;
  uint64_t mount_failures_ = 0;
  std::string first_mount_failure_file_;
  int64_t first_mount_failure_line_ = 0;
  std::string stream_error_;
  std::string stream_error_file_;
  int64_t stream_error_line_ = 0;
  uint64_t disk_full_lines_ = 0;  // lines saying the local disk was full (ENOSPC)
  std::string disk_full_file_;
  int64_t disk_full_line_ = 0;
  uint64_t unfinished_ = 0;
  std::string first_unfinished_file_;
  int64_t first_unfinished_line_ = 0;
  std::optional<std::pair<double, double>> span_;
  // Each node's longest download: duration (ms), file and line.
  struct NodeDownload {
    double max_duration_ms = -1;
    std::string file;
    int64_t line = 0;
  };
  std::map<std::string, NodeDownload, std::less<>> node_downloads_;
};

}  // namespace feedcheck::analyzers
