#include "analyzers/torch_steps.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "analyzers/text_util.h"
#include "core/diagnostic_codes.h"

namespace feedcheck::analyzers {

namespace {

// Epoch microseconds from 2001-09-09 on: a ts this large is already the wall clock.
constexpr double kEpochMicroseconds = 1e15;

using Intervals = std::vector<TraceInterval>;

Intervals Merged(Intervals v) {
  std::sort(v.begin(), v.end(),
            [](const TraceInterval& a, const TraceInterval& b) { return a.start_us < b.start_us; });
  Intervals out;
  for (const auto& i : v) {
    if (!out.empty() && i.start_us <= out.back().end_us)
      out.back().end_us = std::max(out.back().end_us, i.end_us);
    else
      out.push_back(i);
  }
  return out;
}

// The first interval of sorted, disjoint `v` that ends after `t`.
Intervals::const_iterator FirstEndingAfter(const Intervals& v, double t) {
  return std::upper_bound(v.begin(), v.end(), t,
                          [](double x, const TraceInterval& i) { return x < i.end_us; });
}

// Microseconds of sorted, disjoint `v` inside [lo, hi].
double CoveredUs(const Intervals& v, double lo, double hi) {
  double sum = 0;
  for (auto it = FirstEndingAfter(v, lo); it != v.end() && it->start_us < hi; ++it)
    sum += std::min(hi, it->end_us) - std::max(lo, it->start_us);
  return sum;
}

std::string StemOf(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* suffix : {".pt.trace.json.gz", ".pt.trace.json", ".json.gz", ".json"})
    if (EndsWith(name, suffix)) return name.substr(0, name.size() - std::string(suffix).size());
  return name;
}

}  // namespace

std::string_view TraceClockName(TraceClock clock) {
  switch (clock) {
    case TraceClock::kBaseTime:
      return "baseTimeNanoseconds + ts";
    case TraceClock::kEpoch:
      return "ts (epoch microseconds)";
    case TraceClock::kFileStamp:
      return "the file name's stamp (approximate)";
    case TraceClock::kNone:
      return "not placed";
  }
  return "not placed";
}

std::optional<double> FileNameStampMs(std::string_view file_name) {
  // WORKER.1700000000123.pt.trace.json[.gz]: the field before ".pt.trace.json".
  size_t end = file_name.find(".pt.trace.json");
  if (end == std::string_view::npos) return std::nullopt;
  size_t dot = file_name.rfind('.', end - (end > 0 ? 1 : 0));
  if (dot == std::string_view::npos || end - dot - 1 < 12 || end - dot - 1 > 14)
    return std::nullopt;
  std::string_view digits = file_name.substr(dot + 1, end - dot - 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  auto v = ParseInt(digits);
  if (!v) return std::nullopt;
  return static_cast<double>(*v);
}

std::string RankInFileName(std::string_view file_name) {
  std::string lower = ToLower(file_name);
  size_t at = lower.find("rank");
  while (at != std::string::npos) {
    size_t i = at + 4;
    if (i < lower.size() && (lower[i] == '-' || lower[i] == '_')) ++i;
    size_t j = i;
    while (j < lower.size() && j - i < 9 && lower[j] >= '0' && lower[j] <= '9') ++j;
    if (j > i) return std::string(lower.substr(i, j - i));
    at = lower.find("rank", at + 4);
  }
  return "";
}

std::string RankFigures::StepsCovered() const {
  if (steps.empty()) return "none";
  // Runs of consecutive step numbers: a rank profiled in several windows has one each.
  std::vector<std::string> runs;
  size_t more = 0;
  for (size_t i = 0; i < steps.size();) {
    size_t j = i + 1;
    while (j < steps.size() && steps[j].number == steps[j - 1].number + 1) ++j;
    if (runs.size() < 3)
      runs.push_back(fmt::format("#{}-#{}", steps[i].number, steps[j - 1].number));
    else
      ++more;
    i = j;
  }
  return fmt::format("{}{} ({} step{})", fmt::join(runs, ", "),
                     more ? fmt::format(" and {} more", more) : "", steps.size(),
                     steps.size() == 1 ? "" : "s");
}

std::vector<RankFigures> MergeRankWindows(const std::vector<RankFigures>& traces) {
  std::vector<RankFigures> ranks;
  std::map<std::pair<std::string, std::string>, size_t> at;  // (node, rank) -> index in ranks
  for (const auto& t : traces) {
    auto [it, fresh] = at.try_emplace({t.node, t.rank}, ranks.size());
    if (fresh) {
      ranks.push_back(t);
      continue;
    }
    RankFigures& r = ranks[it->second];
    r.steps.insert(r.steps.end(), t.steps.begin(), t.steps.end());
    r.gpu = r.gpu || t.gpu;
    r.kineto = r.kineto && t.kineto;
    // Mixed clocks place no step: the weakest of them.
    if (t.clock != r.clock) r.clock = std::max(r.clock, t.clock);
    r.events += t.events;
    r.step_s += t.step_s;
    r.wait_s += t.wait_s;
    r.gpu_busy_s += t.gpu_busy_s;
    r.gpu_idle_s += t.gpu_idle_s;
    r.gpu_idle_in_wait_s += t.gpu_idle_in_wait_s;
    ++r.more_files;
  }
  for (auto& r : ranks)
    std::stable_sort(
        r.steps.begin(), r.steps.end(),
        [](const StepFigures& a, const StepFigures& b) { return a.number < b.number; });
  return ranks;
}

RankFigures FiguresOf(const TorchTrace& trace, const std::string& node) {
  RankFigures r;
  r.path = trace.path;
  r.kineto = trace.kineto;
  r.gpu = trace.gpu_events > 0;
  r.events = trace.events;
  r.node = node;
  const std::string name = std::filesystem::path(trace.path).filename().string();
  const std::string stem = StemOf(trace.path);
  if (trace.rank)
    r.rank = std::to_string(*trace.rank);
  else if (std::string from_name = RankInFileName(name); !from_name.empty())
    r.rank = from_name;
  else
    r.rank = KeySegment(
        stem.substr(0, stem.rfind('.') == std::string::npos ? stem.size() : stem.rfind('.')));
  // The legacy handler's worker name is "<host>_<pid>": the host is the node.
  if (r.node.empty() && !trace.kineto) {
    std::string worker = stem.substr(0, stem.rfind('.'));
    size_t us = worker.rfind('_');
    if (us != std::string::npos && us > 0) r.node = worker.substr(0, us);
  }
  if (trace.base_time_ns) {
    r.clock = TraceClock::kBaseTime;
    r.offset_s = static_cast<double>(*trace.base_time_ns) / 1e9;
  } else if (trace.first_ts_us && *trace.first_ts_us > kEpochMicroseconds) {
    r.clock = TraceClock::kEpoch;
  } else if (auto stamp_ms = FileNameStampMs(name); stamp_ms && trace.last_end_us) {
    // The handler names the file when the profiler hands it the trace, just after the last
    // event: the stamp is the trace's end, to the milliseconds the hand-over takes.
    r.clock = TraceClock::kFileStamp;
    r.offset_s = *stamp_ms / 1e3 - *trace.last_end_us / 1e6;
  }

  std::vector<TraceStep> steps = trace.steps;
  std::sort(steps.begin(), steps.end(), [](const TraceStep& a, const TraceStep& b) {
    return a.start_us < b.start_us || (a.start_us == b.start_us && a.number < b.number);
  });
  const Intervals waits = Merged(trace.loader_waits);
  const Intervals& gpu = trace.gpu_busy;  // sorted and merged by the scanner
  for (const auto& s : steps) {
    if (!(s.end_us > s.start_us)) continue;
    StepFigures f;
    f.number = s.number;
    f.start_epoch_s = s.start_us / 1e6 + r.offset_s;
    f.step_s = (s.end_us - s.start_us) / 1e6;
    f.wait_s = CoveredUs(waits, s.start_us, s.end_us) / 1e6;
    if (r.gpu) {
      f.gpu_busy_s = CoveredUs(gpu, s.start_us, s.end_us) / 1e6;
      f.gpu_idle_s = std::max(0.0, f.step_s - f.gpu_busy_s);
      double wait_busy_us = 0;
      for (auto it = FirstEndingAfter(waits, s.start_us);
           it != waits.end() && it->start_us < s.end_us; ++it)
        wait_busy_us +=
            CoveredUs(gpu, std::max(s.start_us, it->start_us), std::min(s.end_us, it->end_us));
      f.gpu_idle_in_wait_s = std::max(0.0, f.wait_s - wait_busy_us / 1e6);
    }
    r.step_s += f.step_s;
    r.wait_s += f.wait_s;
    r.gpu_busy_s += f.gpu_busy_s;
    r.gpu_idle_s += f.gpu_idle_s;
    r.gpu_idle_in_wait_s += f.gpu_idle_in_wait_s;
    r.steps.push_back(f);
  }
  return r;
}

void AddTraceEvidence(const std::vector<RankFigures>& traces, Evidence* out) {
  if (traces.empty()) return;
  // One rank's windows (a file each) count as one rank.
  const std::vector<RankFigures> ranks_in = MergeRankWindows(traces);
  std::vector<const RankFigures*> ranks;
  for (const auto& r : ranks_in) ranks.push_back(&r);
  std::stable_sort(ranks.begin(), ranks.end(), [](const RankFigures* a, const RankFigures* b) {
    auto na = ParseInt(a->rank), nb = ParseInt(b->rank);
    if (na && nb) return *na < *nb;
    if (na.has_value() != nb.has_value()) return na.has_value();
    return a->rank < b->rank;
  });
  auto prov = [](const RankFigures& r) {
    Provenance p;
    p.origin = FactOrigin::kObserved;
    p.source = r.more_files ? fmt::format("PyTorch profiler trace {} and {} more of its rank",
                                          r.path, r.more_files)
                            : fmt::format("PyTorch profiler trace {}", r.path);
    p.file = r.path;
    p.host = r.node;
    return p;
  };
  Provenance all;
  all.origin = FactOrigin::kObserved;
  all.source = fmt::format("PyTorch profiler traces ({} rank{})", ranks.size(),
                           ranks.size() == 1 ? "" : "s");
  double step_s = 0, wait_s = 0, idle_s = 0, idle_wait_s = 0, gpu_step_s = 0;
  std::map<std::string, std::pair<double, double>> node_wait_step_s;  // node -> (wait, step)
  size_t steps = 0;
  bool any_gpu = false;
  for (const RankFigures* r : ranks) {
    const std::string seg = KeySegment(r->rank);
    const Provenance p = prov(*r);
    out->facts.Set(NumberFact("trace.rank_steps." + seg, static_cast<double>(r->steps.size()),
                              Unit::kCount, p));
    out->facts.Set(TextFact("trace.steps_covered." + seg, r->StepsCovered(), p));
    out->facts.Set(TextFact("trace.clock." + seg, std::string(TraceClockName(r->clock)), p));
    if (!r->node.empty()) out->facts.Set(TextFact("trace.node." + seg, r->node, p));
    if (!r->steps.empty()) {
      out->facts.Set(NumberFact("trace.step_s." + seg,
                                r->step_s / static_cast<double>(r->steps.size()), Unit::kSeconds,
                                p));
      out->facts.Set(NumberFact("trace.loader_wait_fraction." + seg, r->loader_wait_fraction(),
                                Unit::kFraction, p));
      if (r->gpu) {
        out->facts.Set(NumberFact("trace.gpu_idle_fraction." + seg, r->gpu_idle_fraction(),
                                  Unit::kFraction, p));
        out->facts.Set(NumberFact("trace.gpu_idle_in_wait_fraction." + seg,
                                  r->gpu_idle_in_wait_fraction(), Unit::kFraction, p));
      }
    }
    step_s += r->step_s;
    wait_s += r->wait_s;
    if (!r->node.empty()) {
      node_wait_step_s[r->node].first += r->wait_s;
      node_wait_step_s[r->node].second += r->step_s;
    }
    steps += r->steps.size();
    if (r->gpu) {
      any_gpu = true;
      idle_s += r->gpu_idle_s;
      idle_wait_s += r->gpu_idle_in_wait_s;
      gpu_step_s += r->step_s;
    }
    if (r->clock == TraceClock::kNone || r->steps.empty()) continue;
    // The share of each step the loop waited, at the step's start: the data-wait line.
    Series s;
    s.key = "trace.step_wait." + seg;
    s.title = fmt::format("rank {}: share of each step waiting for data", r->rank);
    s.x_label = "time";
    s.x_unit = Unit::kSeconds;
    s.y_label = "waited for data";
    s.y_unit = Unit::kFraction;
    s.node = r->node;
    for (const auto& f : r->steps)
      s.points.push_back({f.start_epoch_s, f.step_s > 0 ? f.wait_s / f.step_s : 0});
    out->series.push_back(std::move(s));
    size_t bars = 0;
    for (const auto& f : r->steps) {
      if (f.wait_s <= 0) continue;
      if (bars++ >= kMaxWaitBars) break;
      TimelineInterval t;
      t.lane = "training loop";
      t.label = fmt::format("rank {} step #{}: waited for data {:.0f}% of {:.3f} s", r->rank,
                            f.number, 100 * f.wait_s / f.step_s, f.step_s);
      t.start_epoch_s = f.start_epoch_s;
      t.end_epoch_s = f.start_epoch_s + f.step_s;
      t.source = r->path;
      t.node = r->node;
      out->timeline.push_back(std::move(t));
    }
    if (r->clock == TraceClock::kFileStamp)
      out->diagnostics.Add({codes::kTraceClock,
                            DiagnosticSeverity::kNote,
                            "legacy profiler trace: placed on the wall clock by its file name's "
                            "millisecond stamp, taken as its end (approximate, to the time the "
                            "profiler took to hand the trace over)",
                            {r->path, 0, 0},
                            "trace",
                            ""});
  }
  for (const RankFigures* r : ranks)
    if (r->clock == TraceClock::kNone)
      out->diagnostics.Add({codes::kTraceClock,
                            DiagnosticSeverity::kNote,
                            "profiler trace without a wall clock (no baseTimeNanoseconds, no "
                            "epoch ts, no stamp in its name): its steps are counted, not placed "
                            "on the timeline",
                            {r->path, 0, 0},
                            "trace",
                            ""});
  // Per node, what a per-node reading of the idle time joins on.
  for (const auto& [node, ws] : node_wait_step_s)
    if (ws.second > 0)
      out->facts.Set(NumberFact("trace.node_loader_wait_fraction." + KeySegment(node),
                                ws.first / ws.second, Unit::kFraction, all));
  out->facts.Set(NumberFact("trace.ranks", static_cast<double>(ranks.size()), Unit::kCount, all));
  out->facts.Set(NumberFact("trace.steps", static_cast<double>(steps), Unit::kCount, all));
  if (steps > 0) {
    out->facts.Set(
        NumberFact("trace.step_s", step_s / static_cast<double>(steps), Unit::kSeconds, all));
    out->facts.Set(NumberFact("trace.loader_wait_fraction", wait_s / step_s, Unit::kFraction, all));
    if (any_gpu && gpu_step_s > 0) {
      out->facts.Set(
          NumberFact("trace.gpu_idle_fraction", idle_s / gpu_step_s, Unit::kFraction, all));
      out->facts.Set(NumberFact("trace.gpu_idle_in_wait_fraction",
                                idle_s > 0 ? idle_wait_s / idle_s : 0, Unit::kFraction, all));
    }
  }
}

}  // namespace feedcheck::analyzers
