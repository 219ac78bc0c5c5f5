#include "analyzers/line_analyzer.h"

#include <fmt/format.h>

#include "analyzers/text_util.h"
#include "core/diagnostic_codes.h"

namespace feedcheck::analyzers {

LineAnalyzer::LineAnalyzer(std::string format, const AnalyzerOptions& options) : options_(options) {
  stats_.format = std::move(format);
}

void LineAnalyzer::BeginFile(const std::string& path) {
  file_ = path;
  stats_.files.push_back(path);
}

void LineAnalyzer::Malformed(const Line& line, std::string_view reason) {
  ++stats_.malformed;
  std::string message(reason);
  if (line.unterminated) message += " (last line has no newline: truncated?)";
  diagnostics_.Add({codes::kMalformedLine,
                    DiagnosticSeverity::kWarning,
                    message,
                    {file_, static_cast<int>(line.number), 0},
                    stats_.format,
                    PrintableSnippet(line.text, 160)});
}

void LineAnalyzer::NoteCutLastLine(const Line& line) {
  if (!line.unterminated) return;
  diagnostics_.Add({codes::kCutLastLine,
                    DiagnosticSeverity::kNote,
                    "last line has no newline (the writer stopped mid-line?): read as it stands, "
                    "its last field may be cut",
                    {file_, static_cast<int>(line.number), 0},
                    stats_.format,
                    PrintableSnippet(line.text, 160)});
}

Provenance LineAnalyzer::At(int64_t line) const { return AtFile(file_, line); }

Provenance LineAnalyzer::AtFile(const std::string& file, int64_t line) const {
  Provenance p;
  p.origin = FactOrigin::kObserved;
  p.file = file;
  p.line = static_cast<int>(line);
  p.source = line > 0 ? fmt::format("{}:{}", file, line) : file;
  return p;
}

void LineAnalyzer::SetFact(Evidence* out, Fact fact) {
  stats_.fact_keys.push_back(fact.key);
  out->facts.Set(std::move(fact));
}

void LineAnalyzer::FlushDiagnostics(Evidence* out) {
  out->diagnostics.Append(diagnostics_);
  diagnostics_ = DiagnosticList(50);
}

bool FeedLines(LineReader& reader, const std::string& path, LineAnalyzer& analyzer,
               std::string* error) {
  if (!reader.ok()) {
    if (error) *error = fmt::format("{}: cannot read: {}", path, reader.error());
    return false;
  }
  analyzer.BeginFile(path);
  Line line;
  auto& stats = analyzer.stats();
  while (reader.Next(&line)) {
    ++stats.lines;
    if (line.too_long) {
      ++stats.too_long;
      analyzer.Malformed(line,
                         fmt::format("line longer than {} bytes skipped", analyzer.MaxLineBytes()));
      continue;
    }
    const uint64_t malformed_before = stats.malformed;
    analyzer.OnLine(line);
    // A cut last line that still read: noted for the logs, whose last field may be cut.
    if (line.unterminated && stats.malformed == malformed_before && analyzer.NotesCutLastLine())
      analyzer.NoteCutLastLine(line);
  }
  stats.bytes += reader.bytes_read();
  // Said at the file, so nobody takes a part for the whole.
  if (reader.cut_at_limit())
    analyzer.diagnostics().Add(
        {codes::kInputCut,
         DiagnosticSeverity::kWarning,
         fmt::format("read only the first {} of this {} file (the most analyze reads of one "
                     "file); the rest was not analyzed: cut the log to the job's time window",
                     FormatBytes(static_cast<double>(reader.bytes_read())),
                     FormatBytes(static_cast<double>(reader.file_bytes()))),
         {path, 0, 0},
         "analyze",
         ""});
  if (reader.hole_bytes() > 0)
    analyzer.diagnostics().Add(
        {codes::kSparseFile,
         DiagnosticSeverity::kNote,
         fmt::format("a sparse file: {} of holes (zeros never written) skipped unread",
                     FormatBytes(static_cast<double>(reader.hole_bytes()))),
         {path, 0, 0},
         "analyze",
         ""});
  analyzer.EndFile();
  if (!reader.ok()) {
    if (error) *error = fmt::format("{}: read error: {}", path, reader.error());
    return false;
  }
  return true;
}

bool FeedFile(const std::string& path, LineAnalyzer& analyzer, std::string* error) {
  return FeedInput(InputFile::Open(path), analyzer, error);
}

bool FeedInput(InputFile file, LineAnalyzer& analyzer, std::string* error) {
  const std::string path = file.path();
  const std::string why = file.error();
  LineReader reader = LineReader::FromFd(file.Release(), why, analyzer.MaxLineBytes());
  return FeedLines(reader, path, analyzer, error);
}

}  // namespace feedcheck::analyzers
