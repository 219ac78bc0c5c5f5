#include "diagnosis/ledger_unit.h"

#include <algorithm>
#include <cmath>

#include "analyzers/text_util.h"
#include "core/runtime_settings.h"

namespace feedcheck::diagnosis::ledger {

bool Inside(const std::vector<Span>& spans, double t) {
  return std::any_of(spans.begin(), spans.end(),
                     [&](const Span& s) { return t >= s.start && t < s.end; });
}

Activities ActivitiesOf(const std::vector<TimelineInterval>& timeline, const std::string* node) {
  Activities a;
  std::vector<double> mount_starts;
  for (const auto& iv : timeline) {
    if (iv.lane != "data-runtime" || (node && iv.node != *node)) continue;
    const bool download = analyzers::IContains(iv.label, "download");
    const bool mount = !download && analyzers::IContains(iv.label, "mount");
    const bool upload = analyzers::IContains(iv.label, "upload");
    // A download the log never saw end (the job was stopped, or the node went away) ran on.
    if (download && iv.status == "unfinished")
      a.downloads.push_back({iv.start_epoch_s, kInf});
    else if (download && iv.end_epoch_s > iv.start_epoch_s)
      a.downloads.push_back({iv.start_epoch_s, iv.end_epoch_s});
    if (mount) mount_starts.push_back(iv.start_epoch_s);
    if (upload && iv.end_epoch_s >= iv.start_epoch_s)
      a.uploads.push_back({iv.start_epoch_s, std::max(iv.end_epoch_s, iv.start_epoch_s + 1)});
    if ((download || mount) && (!a.first_data || iv.start_epoch_s < *a.first_data))
      a.first_data = iv.start_epoch_s;
  }
  // A mount serves reads from its start until the job uploads its outputs (or ends).
  for (double start : mount_starts) {
    double end = kInf;
    for (const auto& u : a.uploads)
      if (u.start >= start) end = std::min(end, u.start);
    a.mounts.push_back({start, end});
  }
  a.any = a.first_data.has_value();
  return a;
}

double RefusalPadS(const FactSet& facts) {
  // The job's setting, else the runtime's default.
  constexpr std::string_view kRetryCount = "AZUREML_DATASET_HTTP_RETRY_COUNT";
  std::optional<double> n;
  if (auto text = facts.Text("runtime.setting." + std::string(kRetryCount)))
    n = analyzers::ParseDouble(*text);
  if (!n || !std::isfinite(*n) || *n < 1)
    if (const RuntimeSetting* setting = FindRuntimeSetting(kRetryCount))
      n = analyzers::ParseDouble(setting->default_value);
  if (!n || !std::isfinite(*n) || *n < 1) return kRefusalPadS;
  const double retries = std::floor(*n);
  // 2^(retries - 1) overflows nothing: past 60 s the cap holds.
  return std::min(kRefusalPadS, kFirstRetryDelayS * std::exp2(std::min(retries, 64.0) - 1));
}

std::vector<Span> Padded(const std::vector<const TimelineInterval*>& ivs, double pad_s) {
  std::vector<Span> out;
  for (const auto* iv : ivs)
    if (iv->end_epoch_s >= iv->start_epoch_s) {
      // A throttled minute of the account's metrics is the whole window it covers; a log's
      // refusal lines come now and then, each with its retries' delays on either side.
      const double pad = iv->status == "metrics" ? 0 : pad_s;
      out.push_back({iv->start_epoch_s - pad, iv->end_epoch_s + pad});
    }
  return out;
}

double RefusalLineGapS(const std::vector<const TimelineInterval*>& ivs, double lines) {
  double length = 0, intervals = 0;
  for (const auto* iv : ivs) {
    if (iv->status == "metrics" || !(iv->end_epoch_s >= iv->start_epoch_s)) continue;
    length += std::max(0.0, iv->end_epoch_s - iv->start_epoch_s - 1);  // a line's own second
    intervals += 1;
  }
  const double gaps = lines - intervals;
  return gaps >= 1 && length > 0 ? length / gaps : 0;
}

double Covered(const Span& s, const std::vector<Span>& by) {
  // The length of s covered by the union of `by`.
  std::vector<Span> parts;
  for (const auto& b : by) {
    double from = std::max(s.start, b.start), to = std::min(s.end, b.end);
    if (to > from) parts.push_back({from, to});
  }
  std::sort(parts.begin(), parts.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  double covered = 0, until = -kInf;
  for (const auto& p : parts) {
    double from = std::max(p.start, until);
    if (p.end > from) covered += p.end - from;
    until = std::max(until, p.end);
  }
  return covered;
}

std::vector<Span> ReadSpans(const std::vector<TimelineInterval>& timeline) {
  std::vector<Span> out;
  for (const auto& iv : timeline)
    if (iv.lane == "reads") out.push_back({iv.start_epoch_s, iv.end_epoch_s});
  return out;
}

std::vector<Span> ReadSilences(const std::vector<TimelineInterval>& timeline,
                               const std::string& node) {
  std::vector<Span> out;
  for (const auto& iv : timeline)
    if (iv.lane == "read silences" && iv.node == node)
      out.push_back({iv.start_epoch_s, iv.end_epoch_s});
  return out;
}

bool ReadsSilent(const std::vector<Span>& reads, double t, double samples_end) {
  if (reads.empty() || Inside(reads, t)) return false;
  double before = -kInf, after = samples_end;
  for (const auto& r : reads) {
    if (r.end <= t) before = std::max(before, r.end);
    if (r.start > t) after = std::min(after, r.start);
  }
  // Before the node's first read nothing was cached to serve it: it waited for that read.
  if (!std::isfinite(before)) return false;
  return after - before >= kReadsSilenceS;
}

}  // namespace feedcheck::diagnosis::ledger
