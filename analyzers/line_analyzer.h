// The shape every analyzer has: files are fed line by line (possibly several files of one
// format, e.g. rotated rslex logs in time order), aggregates stay bounded, and Finish() turns
// them into Evidence. Malformed lines become diagnostics with file:line; counting continues.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/input_file.h"
#include "analyzers/line_reader.h"
#include "core/evidence.h"

namespace feedcheck::analyzers {

/// What one source (all files of one format) contributed, for the summary.
struct SourceStats {
  std::string format;              ///< "rslex", "data-capability", ...
  std::vector<std::string> files;  ///< in the order they were read
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t malformed = 0;              ///< lines that did not fit the format (incl. too long)
  uint64_t too_long = 0;               ///< lines over the 1 MiB limit, skipped unread
  std::vector<std::string> fact_keys;  ///< facts this source set, for the summary
};

struct AnalyzerOptions {
  double gpu_busy_threshold_percent = 10;  ///< under this a GPU sample counts as starved
  /// The zone nvidia-smi's clock was in, seconds east of UTC (--gpu-utc-offset); nothing: UTC
  /// unless the samples miss the logs by hours, when the offset is guessed (A223 says so).
  std::optional<double> gpu_utc_offset_s;
};

class LineAnalyzer {
 public:
  explicit LineAnalyzer(std::string format, const AnalyzerOptions& options = {});
  virtual ~LineAnalyzer() = default;
  LineAnalyzer(const LineAnalyzer&) = delete;
  LineAnalyzer& operator=(const LineAnalyzer&) = delete;

  /// The node the next files belong to (a job folder with one folder per node; "" for none):
  /// what those files show is also kept for that node (FinishNode).
  void SetNode(std::string node) { node_ = std::move(node); }
  const std::string& node() const { return node_; }
  /// Starts a file; later lines' provenance names it.
  virtual void BeginFile(const std::string& path);
  /// One line (never too long: the driver reports those).
  virtual void OnLine(const Line& line) = 0;
  virtual void EndFile() {}
  /// Writes facts, series, timeline and diagnostics into `out`; records fact keys in stats.
  virtual void Finish(Evidence* out) = 0;
  /// After Finish: what the files of `node` showed by themselves, as the facts, series and
  /// timeline a read of that node's files alone would give (those the analyzer keeps per node;
  /// series and intervals tagged with the node). Nothing by default.
  virtual void FinishNode(const std::string& node, Evidence* out) {
    (void)node;
    (void)out;
  }

  /// The longest line this format reads; longer ones are skipped as malformed. A whole-document
  /// format (JSON) raises it to its document limit, so minified JSON on one line is read.
  virtual size_t MaxLineBytes() const { return kMaxLineBytes; }
  /// Counts a malformed line and keeps a diagnostic (bounded) with file:line and a snippet.
  void Malformed(const Line& line, std::string_view reason);
  /// A log's last line that has no newline but still reads (the writer stopped mid-line, as
  /// when a node goes away): read as it stands, with a note at file:line, since its last
  /// field may be cut.
  void NoteCutLastLine(const Line& line);
  /// Line-oriented logs say so when their last line has no newline (FeedLines calls
  /// NoteCutLastLine); whole documents (JSON) and CSVs, often saved without one, do not.
  virtual bool NotesCutLastLine() const { return false; }
  SourceStats& stats() { return stats_; }
  const SourceStats& stats() const { return stats_; }
  DiagnosticList& diagnostics() { return diagnostics_; }
  const AnalyzerOptions& options() const { return options_; }

 protected:
  /// Provenance of an observation at `line` of the current file.
  Provenance At(int64_t line) const;
  Provenance AtFile(const std::string& file, int64_t line) const;
  /// Sets a fact and remembers its key for the summary.
  void SetFact(Evidence* out, Fact fact);
  /// Moves this analyzer's diagnostics into `out`.
  void FlushDiagnostics(Evidence* out);
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string node_;
  SourceStats stats_;
  DiagnosticList diagnostics_{50};
  AnalyzerOptions options_;
};

/// Reads every line of `reader` into `analyzer` (BeginFile/EndFile around it). Returns false
/// (with `*error`) only when the input could not be read at all.
bool FeedLines(LineReader& reader, const std::string& path, LineAnalyzer& analyzer,
               std::string* error);
/// Opens `path` and feeds it.
bool FeedFile(const std::string& path, LineAnalyzer& analyzer, std::string* error);
/// Feeds a file already open (its one open): read from the start, closed when done.
bool FeedInput(InputFile file, LineAnalyzer& analyzer, std::string* error);

}  // namespace feedcheck::analyzers
