#include "reports/fleet_terminal.h"

#include <fmt/format.h>

#include "core/terminal_text.h"
#include "reports/fleet_text.h"
#include "reports/report_text.h"
#include "reports/text_table.h"
#include "reports/text_wrap.h"

namespace feedcheck {
namespace {

constexpr const char* kBold = "1";
constexpr const char* kDim = "2";

// Names come from folder names and logs: never let one drive the terminal.
std::string S(std::string_view text) { return TerminalSafe(text); }

class Out {
 public:
  Out(std::ostream& out, bool color, size_t width) : out_(out), color_(color), width_(width) {}
  std::string Paint(const char* sgr, std::string_view text) const {
    if (!color_ || sgr == nullptr) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", sgr, text);
  }
  // Continuation lines come back with `indent` already in front.
  void Wrapped(std::string_view text, std::string_view indent, const char* sgr = nullptr,
               std::string_view next_indent = {}) {
    if (next_indent.empty()) next_indent = indent;
    std::vector<std::string> lines =
        WrapText(S(text), width_, indent.size(), std::string(next_indent));
    for (size_t i = 0; i < lines.size(); ++i) {
      std::string_view body = lines[i];
      if (i > 0) body.remove_prefix(std::min(next_indent.size(), body.size()));
      out_ << (i == 0 ? indent : next_indent) << Paint(sgr, body) << "\n";
    }
  }
  void Heading(std::string_view text) { out_ << "\n" << Paint(kBold, text) << "\n"; }
  void Table(TextTable& table) {
    table.FitTo(width_);
    out_ << table.Render();
  }
  size_t width() const { return width_; }

 private:
  std::ostream& out_;
  bool color_;
  size_t width_;
};

const char* LevelColor(VerdictLevel level) {
  switch (level) {
    case VerdictLevel::kBad:
      return "1;31";
    case VerdictLevel::kWarning:
      return "1;33";
    case VerdictLevel::kGood:
      return "1;32";
    case VerdictLevel::kUnknown:
      break;
  }
  return kBold;
}

// A long job name keeps its start and its end ("nvidia-smi-loc…small-files"): the table must
// fit the terminal, and names are hyphenated, so they cannot wrap at spaces.
std::string Shortened(const std::string& name, size_t chars) {
  if (DisplayWidth(name) <= chars || chars < 8 || name.size() != DisplayWidth(name)) return name;
  const size_t head = (chars - 1) / 2, tail = chars - 1 - head;
  return name.substr(0, head) + "…" + name.substr(name.size() - tail);
}

void Jobs(const FleetSummary& f, bool verbose, Out& o) {
  const size_t shown = verbose ? f.jobs.size() : std::min(f.jobs.size(), kFleetJobsShown);
  const bool priced = f.priced();
  o.Heading(shown < f.jobs.size()
                ? fmt::format("Jobs ({} of {}, most GPU time lost first; -v lists all)", shown,
                              f.jobs.size())
                : fmt::format("Jobs ({}, most GPU time lost first)", f.jobs.size()));
  std::vector<std::string> headers{"Job",   "N×GPU",      "Ran",     "Lost GPU-h",
                                   "Cause", "Confidence", "Won back"};
  if (priced) headers.push_back("$ lost");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < shown && i < f.by_gpu_lost.size(); ++i) {
    const FleetJob& j = f.jobs[f.by_gpu_lost[i]];
    std::vector<std::string> row{S(j.job),
                                 FleetNodesGpusText(j),
                                 FleetDurationText(j.duration_s),
                                 FleetGpuHoursText(j.gpu_lost_gpu_s),
                                 S(FleetCauseText(j)),
                                 S(j.confidence.empty() ? "-" : j.confidence),
                                 FleetWonBackText(j)};
    if (priced) row.push_back(FleetUsdText(j.lost_usd));
    rows.push_back(std::move(row));
  }
  // The other columns as wide as their widest cell (the cause wrapped at kCauseChars), the
  // indent and the gaps; what is left is the job's name.
  constexpr size_t kCauseChars = 18;
  size_t others = 2;
  for (size_t c = 1; c < headers.size(); ++c) {
    size_t w = DisplayWidth(headers[c]);
    for (const auto& row : rows) w = std::max(w, DisplayWidth(row[c]));
    others += 2 + (c == 4 ? std::min(w, kCauseChars) : w);
  }
  const size_t job_chars = o.width() > others + 16 ? o.width() - others : 16;
  TextTable t(headers);
  t.WrapCellsAt(kCauseChars);
  for (size_t col : {2, 3, 6}) t.AlignRight(col);
  if (priced) t.AlignRight(7);
  for (auto& row : rows) {
    row[0] = Shortened(row[0], job_chars);
    t.AddRow(std::move(row));
  }
  o.Table(t);
  o.Wrapped(
      "N×GPU: nodes × GPUs each. Won back: GPU-hours the fix of the cause wins back, the supply "
      "model's estimate; ≤: "
      "the time lost to the cause, the most its fix can win back.",
      "  ", kDim);
}

void Causes(const FleetSummary& f, Out& o) {
  if (f.causes.empty()) return;
  const bool priced = f.priced();
  o.Heading("GPU time lost by cause");
  std::vector<std::string> headers{"Cause", "Jobs", "GPU-hours"};
  if (priced) headers.push_back("Lost (est.)");
  TextTable t(headers);
  t.AlignRight(1);
  t.AlignRight(2);
  if (priced) t.AlignRight(3);
  for (const auto& c : f.causes) {
    std::vector<std::string> row{S(c.cause), std::to_string(c.jobs),
                                 FleetGpuHoursText(c.gpu_lost_gpu_s)};
    if (priced) row.push_back(FleetUsdText(c.lost_usd));
    t.AddRow(std::move(row));
  }
  o.Table(t);
}

void Fixes(const FleetSummary& f, bool verbose, Out& o) {
  if (f.fixes.empty()) return;
  const bool priced = f.priced();
  o.Heading("Fixes, ranked by the GPU time they win back");
  const size_t shown = verbose ? f.fixes.size() : std::min(f.fixes.size(), kFleetFixesShown);
  size_t n = 0;
  for (const auto& x : f.fixes) {
    if (n == shown) break;
    const std::string how = FleetFixCountText(x);
    std::string line = fmt::format(
        "{}. {} ({}): {}{} GPU-hours won back{}{}", ++n, x.title, FleetJobsText(x.jobs.size()),
        how == "at most" ? "at most " : "", FleetGpuHoursText(x.won_back_gpu_s),
        how.empty() || how == "at most" ? "" : " (" + how + ")",
        priced ? fmt::format(", {} (est.)", FleetUsdText(x.won_back_usd)) : "");
    o.Wrapped(line, "  ", nullptr, "     ");
    if (verbose && !x.fix.empty()) o.Wrapped(x.fix, "     ", kDim);
  }
  if (!verbose)
    o.Wrapped(
        shown < f.fixes.size()
            ? fmt::format("{} more; -v: every fix and its advice; -f html: the sortable table",
                          f.fixes.size() - shown)
            : "-v: each fix's advice; -f html: the sortable table",
        "  ", kDim);
}

void Accounts(const FleetSummary& f, bool verbose, Out& o) {
  std::vector<const FleetAccount*> shown;
  for (const auto& a : f.accounts)
    if (verbose || !a.throttled_jobs.empty()) shown.push_back(&a);
  if (shown.empty()) return;
  o.Heading("Storage accounts");
  for (const FleetAccount* a : shown)
    o.Wrapped(
        fmt::format("{}: {}{}", a->account, a->finding,
                    a->lost_usd >= 0 ? fmt::format(" ({} est.)", FleetUsdText(a->lost_usd)) : ""),
        "  ");
}

void Problems(const FleetSummary& f, Out& o) {
  if (f.not_diagnosed == 0) return;
  o.Heading(fmt::format("Not diagnosed ({})", f.not_diagnosed));
  for (const auto& j : f.jobs)
    if (!j.diagnosed) o.Wrapped(j.problem, "  ");
}

}  // namespace

void RenderFleetTerminal(const Report& r, std::ostream& out, bool color, bool verbose,
                         size_t width) {
  const FleetSummary& f = r.fleet;
  Out o(out, color, width);
  out << o.Paint(kBold, "feedcheck " + S(r.title)) << "  " << o.Paint(kDim, "(" + S(f.root) + ")")
      << "\n";
  const std::string verdict = "Verdict: " + o.Paint(LevelColor(r.verdict_level), S(r.verdict));
  out << verdict << "\n";
  if (!r.verdict_detail.empty()) o.Wrapped(r.verdict_detail, "  ");
  Jobs(f, verbose, o);
  Causes(f, o);
  Fixes(f, verbose, o);
  Accounts(f, verbose, o);
  Problems(f, o);
  out << "\n";
  if (!f.price_note.empty()) o.Wrapped("Money: " + f.price_note + ".", "  ", kDim);
  o.Wrapped(fmt::format("Read as a fleet: {}; {} worker{}.", f.layout, f.workers,
                        f.workers == 1 ? "" : "s"),
            "  ", kDim);
  if (!f.skipped.empty())
    o.Wrapped(fmt::format("{} subfolder{} not read as jobs{}", f.skipped.size(),
                          f.skipped.size() == 1 ? "" : "s", verbose ? ":" : " (-v lists them)."),
              "  ", kDim);
  if (verbose)
    for (const auto& s : f.skipped) o.Wrapped(s, "    ", kDim);
  out << verdict << "\n";
}

}  // namespace feedcheck
