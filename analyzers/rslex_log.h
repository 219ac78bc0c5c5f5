// rslex.log.* (the Azure ML data runtime's Rust log; Azure ML docs, "Access data in a job",
// section "Using logs to diagnose issues"): span close timings
// aggregated per span and per target, parallelization_degree, non-successful HTTP responses by
// status and x-ms-error-code, retries, give-ups and body-read timeouts, and the settings the
// runtime reports ("AZUREML_DATASET_HTTP_RETRY_COUNT set in environment ..."). Feed rotated
// files oldest first. Message shapes: analyzers/rslex_shapes.h.
//
// A tracing event owns the physical lines its message continues on (the runtime's
// non-successful response prints "Status: ...", a pretty-printed "Headers: { ... } code=503"
// and, when synchronous, "Body: <?xml ...>" over several lines): they are read with the event,
// never as malformed lines. An event keeps at most kMaxEventLines lines / kMaxEventBytes bytes;
// the rest is skipped with a diagnostic (A208) naming the event's file:line.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "analyzers/bounded_series.h"
#include "analyzers/line_analyzer.h"
#include "analyzers/read_gaps.h"
#include "analyzers/rslex_shapes.h"
#include "analyzers/tracing_line.h"

namespace feedcheck::analyzers {

class RslexLogAnalyzer : public LineAnalyzer {
 public:
  explicit RslexLogAnalyzer(const AnalyzerOptions& options = {});
  void BeginFile(const std::string& path) override;
  void OnLine(const Line& line) override;
  void EndFile() override;
  void Finish(Evidence* out) override;
  /// The node's runtime.non_success_responses, runtime.throttled.*, runtime.span_busy_s.* (its
  /// busiest spans) and its storage-lane refusal intervals, tagged with the node.
  void FinishNode(const std::string& node, Evidence* out) override;

  /// Continuation lines one event may own, and the bytes of one event kept for reading.
  static constexpr int kMaxEventLines = 64;
  static constexpr size_t kMaxEventBytes = 16 * 1024;
  bool NotesCutLastLine() const override { return true; }

  struct SpanTotals {
    uint64_t closes = 0;
    double busy_ns = 0;
    double idle_ns = 0;
    double max_busy_ns = 0;
  };
  struct Counted {
    uint64_t count = 0;
    std::string file;  // where it was first seen
    int64_t line = 0;
  };
  // Read access for tests and the summary.
  const std::map<std::string, SpanTotals, std::less<>>& spans() const { return spans_; }
  const std::map<std::string, SpanTotals, std::less<>>& targets() const { return targets_; }
  const std::map<int, Counted>& statuses() const { return statuses_; }
  const std::map<std::string, Counted, std::less<>>& error_codes() const { return error_codes_; }
  uint64_t parsed_lines() const { return parsed_; }
  /// Lines read per message shape (continuation lines under kContinuation).
  uint64_t shape_count(RslexShape shape) const { return shapes_[static_cast<size_t>(shape)]; }
  /// Where the first line of an unknown shape was ("" when none).
  const std::string& first_unknown_shape() const { return first_unknown_; }
  double first_epoch_s() const { return first_epoch_s_; }
  double last_epoch_s() const { return last_epoch_s_; }
  /// The storage accounts the job read (lower case): from the datastore resolver's
  /// account_name=Some("...") and the hosts of request URIs; at most 16.
  const std::set<std::string>& accounts() const { return accounts_; }

 private:
  // The fence of the closes' gaps as a fact, and the silences beyond it as a lane ("" for the
  // job's).
  void AddReadSilences(const ReadGaps& gaps, const std::string& node, Evidence* out) const;
  /// What the analyzer learned once about a line head (span scope and target) that repeats:
  /// keyed by TracingLineCache's id, so a span close costs no map lookups and no searches of
  /// its scope after the first.
  struct ScopeFacts {
    uint64_t id = 0;
    bool resolver = false;         ///< the target is the datastore resolver
    bool mode_noted = false;       ///< the spans' copy/mount hint was taken from this scope
    SpanTotals* span = nullptr;    ///< spans_[leaf span], when it is that key's own entry
    SpanTotals* target = nullptr;  ///< targets_[target], likewise
  };
  ScopeFacts* FactsOf(const TracingLine& t);
  /// A span close: its timings, and its parallelization_degree fields.
  void OnClose(const TracingLine& t, ScopeFacts* facts, int64_t line);
  void NoteParallelization(std::string_view text, int64_t line);
  void NoteMode(const TracingLine& t, int64_t line);
  void NoteAccount(std::string_view text);
  /// A field of the event's first line, as offsets into Event::text (its first line).
  struct Span {
    bool found = false;
    size_t at = 0, len = 0;
  };
  /// Where a field's value lies in `line` (a view into it), to be found again in a copy.
  static Span SpanIn(std::string_view line, std::optional<std::string_view> value);
  /// The event being read, with the lines it owns. Only a response is kept as text.
  struct Event {
    bool open = false;
    bool keep = false;  ///< a non-successful response: its text is read when it ends
    bool cut = false;
    bool in_body = false;
    int brace_depth = 0;
    int lines = 0;
    int64_t line = 0;
    std::string text;
    // What the response's first line said, kept when it was parsed (not parsed again).
    bool has_time = false;
    double epoch_s = 0;
    Span request_uri, error_code;
  };
  bool OwnsLine(std::string_view text);
  void CloseEvent();
  void OnResponse(std::string_view text, int64_t line);
  void OnSetting(const TracingLine& t, const Line& line);
  void Count(std::map<std::string, Counted, std::less<>>* map, std::string_view key,
             const Line& line);

  TracingLine scratch_;
  TracingLineCache scope_cache_;
  ScopeFacts scope_facts_[TracingLineCache::kSlots];
  std::vector<TraceField> setting_fields_;
  Event event_;
  uint64_t shapes_[kRslexShapeCount] = {};
  std::string first_unknown_;
  uint64_t parsed_ = 0;
  uint64_t by_level_[5] = {};
  double first_epoch_s_ = 0;
  double last_epoch_s_ = 0;
  bool have_time_ = false;
  // Lines going back in time are counted within a file: the files of several nodes, read one
  // after the other, each start over.
  std::optional<double> file_last_epoch_s_;
  uint64_t out_of_order_ = 0;

  std::set<std::string> accounts_;
  std::map<std::string, SpanTotals, std::less<>> spans_;
  std::map<std::string, SpanTotals, std::less<>> targets_;
  uint64_t span_overflow_ = 0;

  bool have_parallelization_ = false;
  double parallelization_max_ = 0;
  /// The last parallelization_degree text parsed: every span on a line repeats the same value,
  /// and parsing it again per field cost a tenth of the analyzer's time.
  std::string last_parallelization_text_;
  Counted parallelization_at_;

  std::map<int, Counted> statuses_;
  std::map<std::string, Counted, std::less<>> error_codes_;
  uint64_t non_success_ = 0;
  Counted retries_, give_ups_, timeouts_;
  Counted download_hint_, mount_hint_;
  std::string stream_error_;
  Counted stream_error_at_;
  Counted disk_full_;  // warnings and errors saying the local disk was full (ENOSPC)

  struct Setting {
    std::string value;
    std::string file;
    int64_t line = 0;
  };
  std::map<std::string, Setting, std::less<>> settings_;
  std::map<int, Counted> throttled_;  // by ThrottleKind
  // Throttling (429/503/500) over time, for the storage lane.
  std::map<std::string, IntervalMerger, std::less<>> throttle_intervals_;
  // Refusals by status (401, 403, 404, 409, 412) over time, for the access lane.
  std::map<std::string, IntervalMerger, std::less<>> access_intervals_;
  // When the runtime closed spans (it was reading or writing), for the reads lane: the minutes
  // outside it are the job's quiet ones, whose account traffic was other clients'.
  IntervalMerger span_closes_{kSpanGapS, 4096};
  static constexpr double kSpanGapS = 120;
  ReadGaps read_gaps_;  // the closes' pace, and the silences beyond it

  // What each node's own files showed (SetNode), counted on the one read of the job.
  struct NodeTotals {
    uint64_t parsed = 0;
    uint64_t non_success = 0;
    std::map<int, Counted> throttled;                                // by ThrottleKind
    std::vector<std::pair<const SpanTotals*, double>> span_busy_ns;  // spans_ entries
    std::map<std::string, IntervalMerger, std::less<>> throttle_intervals;
    IntervalMerger span_closes{kSpanGapS, 4096};
    ReadGaps read_gaps;
  };
  static constexpr size_t kMaxNodes = 1024;
  static constexpr size_t kMaxNodeSpans = 64;
  std::map<std::string, NodeTotals, std::less<>> nodes_;
  NodeTotals* node_totals_ = nullptr;  // the current file's node, null for none
};

}  // namespace feedcheck::analyzers
