#include "analyzers/data_capability_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "analyzers/disk_full.h"
#include "analyzers/text_util.h"
#include "analyzers/timestamp.h"
#include "core/diagnostic_codes.h"
#include "core/utf8_cut.h"

namespace feedcheck::analyzers {

namespace {
constexpr size_t kMaxOpen = 1024;
constexpr size_t kMaxIntervals = 4096;
constexpr size_t kMaxActivityNames = 256;

// Value of "Key=" up to the next ", " (or the end).
std::optional<std::string_view> KeyValue(std::string_view s, std::string_view key) {
  size_t p = s.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  std::string_view v = s.substr(p + key.size());
  size_t end = v.find(',');
  return Trim(v.substr(0, end));
}

bool IsLevel(std::string_view w) {
  return w == "INFO" || w == "WARNING" || w == "WARN" || w == "ERROR" || w == "DEBUG" ||
         w == "CRITICAL" || w == "FATAL";
}

// Text that is not a plausible log line: control bytes or invalid UTF-8.
bool LooksBinary(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x20 && b != '\t') return true;
    if (b == 0x7f) return true;
  }
  return PrintableSnippet(s, s.size()).find("\\x") != std::string::npos;
}

std::string_view ModeOf(std::string_view activity) {
  if (IContains(activity, "download")) return "download";
  if (IContains(activity, "mount")) return "mount";
  return {};
}
}  // namespace

bool ParseActivityCompleted(std::string_view message, ActivityCompleted* out) {
  size_t p = message.find("ActivityCompleted");
  if (p == std::string_view::npos) return false;
  std::string_view s = message.substr(p);
  auto activity = KeyValue(s, "Activity=");
  auto how = KeyValue(s, "HowEnded=");
  size_t d = s.find("Duration=");
  if (!activity || !how || d == std::string_view::npos || activity->empty() || how->empty())
    return false;
  std::string_view dur = s.substr(d + 9);
  size_t used = 0;
  auto ms = ParseDoublePrefix(dur, &used);
  if (!ms || used == 0 || *ms < 0) return false;
  std::string_view unit = dur.substr(used);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (!StartsWith(unit, "[ms]")) return false;
  out->activity = *activity;
  out->how_ended = *how;
  out->duration_ms = *ms;
  out->exception = KeyValue(s, "Exception=").value_or(std::string_view{});
  return true;
}

std::optional<std::string_view> ParseActivityStarted(std::string_view message) {
  size_t p = message.find("ActivityStarted");
  if (p == std::string_view::npos) return std::nullopt;
  std::string_view rest = message.substr(p + 15);
  if (rest.empty() || (rest[0] != ',' && rest[0] != ':')) return std::nullopt;
  rest = Trim(rest.substr(1));
  rest = rest.substr(0, rest.find_first_of(", "));
  if (rest.empty()) return std::nullopt;
  return rest;
}

bool ParsePythonLogLine(std::string_view line, PythonLogLine* out) {
  *out = PythonLogLine{};
  size_t sp = line.find(' ');
  std::string_view word = line.substr(0, sp);
  if (!IsLevel(word) || sp == std::string_view::npos) return false;
  out->level = word;
  std::string_view rest = line.substr(sp);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  size_t used = 0;
  if (auto t = ParseTimestampPrefix(rest, &used)) {
    out->has_time = true;
    out->epoch_s = *t;
    rest.remove_prefix(used);
  }
  size_t dash = rest.find(" - ");
  out->message = Trim(dash == std::string_view::npos ? rest : rest.substr(dash + 3));
  return true;
}

DataCapabilityAnalyzer::DataCapabilityAnalyzer(const AnalyzerOptions& options)
    : LineAnalyzer("data-capability", options) {}

void DataCapabilityAnalyzer::BeginFile(const std::string& path) {
  // Python's RotatingFileHandler cuts the log wherever it reaches its size: an activity started
  // in data-capability.log.1 completes in data-capability.log. The files of one folder (one
  // node), fed oldest first, are one log; another folder is another node's.
  std::string dir = std::filesystem::path(path).parent_path().string();
  if (dir != open_dir_) CloseOpenActivities();
  open_dir_ = std::move(dir);
  LineAnalyzer::BeginFile(path);
}

void DataCapabilityAnalyzer::MarkUnfinished(const std::string& name, const Open& o) {
  if (unfinished_++ == 0) {
    first_unfinished_file_ = o.file;
    first_unfinished_line_ = o.line;
  }
  if (intervals_.size() < kMaxIntervals)
    intervals_.push_back({"data-runtime", name, o.epoch_s, o.epoch_s, "unfinished",
                          fmt::format("{}:{}", o.file, o.line), o.node});
}

void DataCapabilityAnalyzer::CloseOpenActivities() {
  // Started but never completed: the job died, the node was preempted, or the log was cut.
  for (const auto& [name, o] : open_) MarkUnfinished(name, o);
  open_.clear();
}

void DataCapabilityAnalyzer::OnLine(const Line& line) {
  if (Trim(line.text).empty()) return;
  // A traceback's continuation lines say it too (Python's "[Errno 28] No space left on device").
  if (SaysDiskFull(line.text) && disk_full_lines_++ == 0) {
    disk_full_file_ = file();
    disk_full_line_ = line.number;
  }
  PythonLogLine p;
  if (!ParsePythonLogLine(line.text, &p)) {
    if (LooksBinary(line.text)) {
      Malformed(line, "not a log line (control bytes or invalid UTF-8)");
    } else {
      ++continuation_lines_;  // tracebacks and wrapped messages
    }
    return;
  }
  if (p.level == "ERROR" || p.level == "CRITICAL" || p.level == "FATAL") ++error_lines_;
  if (p.has_time)
    span_ = span_ ? std::make_pair(std::min(span_->first, p.epoch_s),
                                   std::max(span_->second, p.epoch_s))
                  : std::make_pair(p.epoch_s, p.epoch_s);
  std::string_view msg = p.message;
  DataCapabilityShape shape = ClassifyDataCapabilityMessage(msg);
  // A cut last line's shape cannot be told (A207 notes it): not counted as unknown.
  if (shape != DataCapabilityShape::kUnknown || !line.unterminated)
    ++shapes_[static_cast<size_t>(shape)];
  if (shape == DataCapabilityShape::kUnknown && !line.unterminated && first_unknown_.empty())
    first_unknown_ = fmt::format("{}:{}", file(), line.number);
  if (auto started = ParseActivityStarted(msg)) {
    if (!p.has_time) {
      Malformed(line, "ActivityStarted without a timestamp");
      return;
    }
    // The same activity started again while open: the job restarted (a preempted node runs its
    // data session again), and the first attempt never completed.
    auto it = open_.find(*started);
    if (it != open_.end()) {
      MarkUnfinished(it->first, it->second);
      it->second = {p.epoch_s, line.number, file(), node()};
    } else if (open_.size() < kMaxOpen) {
      open_[std::string(*started)] = {p.epoch_s, line.number, file(), node()};
    }
    return;
  }
  if (msg.find("ActivityCompleted") != std::string_view::npos) {
    ActivityCompleted a;
    if (!ParseActivityCompleted(msg, &a)) {
      Malformed(line, "ActivityCompleted without Activity=, HowEnded= and Duration=<ms> [ms]");
      return;
    }
    double end = p.has_time ? p.epoch_s : 0;
    double start = end - a.duration_ms / 1000;
    auto it = open_.find(a.activity);
    bool had_start = it != open_.end();
    if (had_start) {
      start = it->second.epoch_s;
      if (!p.has_time) end = start + a.duration_ms / 1000;
      open_.erase(it);
    }
    auto totals = totals_.find(a.activity);
    if (totals == totals_.end() && totals_.size() < kMaxActivityNames)
      totals = totals_.try_emplace(std::string(a.activity)).first;
    if (totals != totals_.end()) {
      ActivityTotals& t = totals->second;
      ++t.completed;
      if (a.how_ended != "Success") ++t.failed;
      t.total_duration_ms += a.duration_ms;
      if (a.duration_ms >= t.max_duration_ms) {
        t.max_duration_ms = a.duration_ms;
        t.file = file();
        t.line = line.number;
      }
    }
    if (!node().empty() && ModeOf(a.activity) == "download" &&
        (node_downloads_.size() < 1024 || node_downloads_.count(node()))) {
      NodeDownload& d = node_downloads_[node()];
      if (a.duration_ms >= d.max_duration_ms) d = {a.duration_ms, file(), line.number};
    }
    if (p.has_time || had_start) {
      if (intervals_.size() < kMaxIntervals) {
        std::string status(a.how_ended);
        if (!a.exception.empty()) status += fmt::format(" ({})", a.exception);
        intervals_.push_back({"data-runtime", std::string(a.activity), start, end, status,
                              fmt::format("{}:{}", file(), line.number), node()});
      } else {
        ++intervals_dropped_;
      }
    }
    return;
  }
  if (msg.find("Failed to mount") != std::string_view::npos) {
    if (mount_failures_++ == 0) {
      first_mount_failure_file_ = file();
      first_mount_failure_line_ = line.number;
    }
  }
  size_t code = msg.find("Error Code: ");
  if (code != std::string_view::npos && stream_error_.empty()) {
    std::string_view c = msg.substr(code + 12);
    stream_error_ = std::string(Utf8Prefix(c.substr(0, c.find_first_of(" ,")), 128));
    stream_error_file_ = file();
    stream_error_line_ = line.number;
  }
}

void DataCapabilityAnalyzer::EndFile() {}

void DataCapabilityAnalyzer::Finish(Evidence* out) {
  CloseOpenActivities();
  uint64_t failures = 0;
  bool download = false, mount = false;
  const ActivityTotals* download_totals = nullptr;
  for (const auto& [name, t] : totals_) {
    failures += t.failed;
    std::string_view mode = ModeOf(name);
    if (mode == "download") {
      download = true;
      if (!download_totals || t.max_duration_ms > download_totals->max_duration_ms)
        download_totals = &t;
    }
    if (mode == "mount") mount = true;
  }
  if (mount_failures_ > 0) mount = true;
  std::string first_file = stats().files.empty() ? "" : stats().files.front();
  if (download || mount) {
    const char* mode = download && mount ? "mixed" : download ? "download" : "mount";
    Provenance p = download_totals ? AtFile(download_totals->file, download_totals->line)
                                   : AtFile(first_file, 0);
    SetFact(out, TextFact("runtime.mode", mode, p));
  }
  if (download_totals)
    SetFact(out, NumberFact("runtime.download_s", download_totals->max_duration_ms / 1000,
                            Unit::kSeconds, AtFile(download_totals->file, download_totals->line)));
  if (!totals_.empty())
    SetFact(out, NumberFact("runtime.activity_failures", static_cast<double>(failures),
                            Unit::kCount, AtFile(first_file, 0)));
  if (mount_failures_ > 0 || mount)
    SetFact(out, NumberFact(
                     "runtime.mount_failures", static_cast<double>(mount_failures_), Unit::kCount,
                     mount_failures_ ? AtFile(first_mount_failure_file_, first_mount_failure_line_)
                                     : AtFile(first_file, 0)));
  if (!stream_error_.empty())
    SetFact(out, TextFact("runtime.stream_error", stream_error_,
                          AtFile(stream_error_file_, stream_error_line_)));
  if (disk_full_lines_ > 0)
    SetFact(out, NumberFact("runtime.disk_full_lines", static_cast<double>(disk_full_lines_),
                            Unit::kCount, AtFile(disk_full_file_, disk_full_line_)));
  out->timeline.insert(out->timeline.end(), intervals_.begin(), intervals_.end());
  if (intervals_dropped_ > 0)
    diagnostics().Add({codes::kTimelineFull,
                       DiagnosticSeverity::kNote,
                       fmt::format("{} activities beyond {} not drawn on the timeline",
                                   intervals_dropped_, kMaxIntervals),
                       {first_file, 0, 0},
                       "data-capability",
                       ""});
  if (unfinished_ > 0)
    diagnostics().Add({codes::kUnfinished,
                       DiagnosticSeverity::kWarning,
                       fmt::format("{} activities started but never completed (the job "
                                   "stopped, or the log was cut); the first started here",
                                   unfinished_),
                       {first_unfinished_file_, static_cast<int>(first_unfinished_line_), 0},
                       "data-capability",
                       ""});
  FlushDiagnostics(out);
}

void DataCapabilityAnalyzer::FinishNode(const std::string& node, Evidence* out) {
  auto it = node_downloads_.find(node);
  if (it == node_downloads_.end()) return;
  out->facts.Set(NumberFact("runtime.download_s", it->second.max_duration_ms / 1000, Unit::kSeconds,
                            AtFile(it->second.file, it->second.line)));
}

}  // namespace feedcheck::analyzers
