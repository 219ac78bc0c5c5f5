#include "diagnosis/access_fix_estimate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "core/units.h"
#include "diagnosis/claim_checks.h"
#include "diagnosis/gpu_time_summary.h"
#include "diagnosis/ledger_judgement.h"

namespace feedcheck::diagnosis {

namespace {

std::string Text(const FactSet& facts, const std::string& key) {
  const Fact* f = facts.Find(key);
  return f && f->is_text() ? f->text() : "";
}

bool Has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// What to change, per refusal: the guide's and the REST error codes' remedies.
std::string Change(AccessRefusal r) {
  switch (r) {
    case AccessRefusal::kCredential:
      return "a datastore credential that outlives the job (a SAS whose expiry covers the whole "
             "run, or identity-based access)";
    case AccessRefusal::kPathNotFound:
      return "the input's path corrected (the refused request's URI is in the rslex log)";
    case AccessRefusal::kOutputExists:
      return "an output path of its own for each run (leave it to Azure ML, or put the run's "
             "name in it)";
    case AccessRefusal::kUnknown:
      break;
  }
  return "the access storage refused put right";
}

// The refused statuses that stand for the refusal on the access lane ("403 refused").
std::vector<std::string> Labels(AccessRefusal r) {
  switch (r) {
    case AccessRefusal::kCredential:
      return {"401 refused", "403 refused"};
    case AccessRefusal::kPathNotFound:
      return {"404 refused"};
    case AccessRefusal::kOutputExists:
      return {"409 refused", "412 refused"};
    case AccessRefusal::kUnknown:
      break;
  }
  return {"401 refused", "403 refused", "404 refused", "409 refused", "412 refused"};
}

// When the refusals that ended the job began: the last burst of the refusal's statuses, else
// the start of the data activity that failed.
std::optional<double> RefusalStart(const Evidence& ev, AccessRefusal r) {
  std::vector<std::string> labels = Labels(r);
  std::optional<double> last;
  for (const auto& iv : ev.timeline)
    if (iv.lane == "access" && std::find(labels.begin(), labels.end(), iv.label) != labels.end())
      if (!last || iv.start_epoch_s > *last) last = iv.start_epoch_s;
  if (last) return last;
  for (const auto& iv : ev.timeline)
    if (iv.lane == "data-runtime" && iv.status.rfind("Failure", 0) == 0)
      if (!last || iv.start_epoch_s > *last) last = iv.start_epoch_s;
  return last;
}

std::string ClockUtc(double epoch_s) {
  // Far outside any log's range (a corrupt timestamp) the conversion is not defined.
  if (!std::isfinite(epoch_s) || std::fabs(epoch_s) > 1e11) return "an unreadable time";
  auto t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

FixEstimate Unavailable(std::string text) {
  FixEstimate e;
  e.text = std::move(text);
  return e;
}

}  // namespace

AccessRefusal ClassifyAccessRefusal(const FactSet& facts) {
  const std::string stream = Text(facts, "runtime.stream_error");
  if (Has(stream, "Authentication") || Has(stream, "Authorization") || Has(stream, "Permission"))
    return AccessRefusal::kCredential;
  if (Has(stream, "NotFound")) return AccessRefusal::kPathNotFound;
  bool failed = facts.NumberOr("runtime.activity_failures", 0) > 0;
  if (failed && (facts.NumberOr("runtime.http_errors.409", 0) > 0 ||
                 facts.NumberOr("runtime.http_errors.412", 0) > 0))
    return AccessRefusal::kOutputExists;
  if (facts.NumberOr("runtime.http_errors.403", 0) > 0 ||
      facts.NumberOr("runtime.http_errors.401", 0) > 0)
    return AccessRefusal::kCredential;
  if (facts.NumberOr("runtime.http_errors.404", 0) > 0) return AccessRefusal::kPathNotFound;
  return AccessRefusal::kUnknown;
}

FixEstimate EstimateAccessFix(const Evidence& ev, const GpuTimeLost& gpu, double not_won_gpu_s) {
  AccessRefusal refusal = ClassifyAccessRefusal(ev.facts);
  const std::string change = Change(refusal);
  if (!gpu.known)
    return Unavailable(fmt::format(
        "no figure: without GPU samples the GPU time the refusals cost is unknown; the fix is "
        "{}",
        change));
  auto start = RefusalStart(ev, refusal);
  const Series* lost = ev.FindSeries("gpu.lost_gpu_s_by_time");
  const Series* sampled = ev.FindSeries("gpu.sampled_gpu_s_by_time");
  if (!start || !lost || !sampled)
    return Unavailable(fmt::format(
        "no figure: the logs do not say when storage started refusing (no timestamped refusal "
        "in the rslex logs, no failed activity in data-capability.log); the fix is {}",
        change));
  // A bucket belongs to the side of the first refusal its middle falls on.
  double width = 10;
  if (lost->points.size() >= 2) width = lost->points[1].x - lost->points[0].x;
  for (size_t i = 1; i < lost->points.size(); ++i)
    width = std::min(width, lost->points[i].x - lost->points[i - 1].x);
  if (width <= 0) width = 10;
  double lost_after = 0, lost_before = 0, sampled_before = 0, sampled_after = 0;
  for (const auto& p : lost->points) (p.x + width / 2 >= *start ? lost_after : lost_before) += p.y;
  for (const auto& p : sampled->points)
    (p.x + width / 2 >= *start ? sampled_after : sampled_before) += p.y;
  const double busy_before = sampled_before - lost_before;
  const std::string when = ClockUtc(*start);
  // What is won back: the GPU time lost, but a node's that read nothing for its own reason.
  const double won = std::max(0.0, lost_after + lost_before - std::max(0.0, not_won_gpu_s));
  const std::string won_text = FormatGpuTime(won);
  const std::string not_won = not_won_gpu_s > 0
                                  ? fmt::format(
                                        "; the {} lost on nodes that read nothing, for a reason "
                                        "of their own, it does not touch",
                                        FormatGpuTime(not_won_gpu_s))
                                  : "";
  // The job never ran its own work: nothing shows how it runs once it can read. A mount that
  // came up on a node that never read is no input read.
  const bool read_before = InputReadBefore(ev, *start) && !InputNeverRead(ev);
  if (busy_before < std::max(60.0, 0.01 * gpu.sampled_gpu_s) && read_before) {
    // The input was read; the GPUs did too little before the refusals to say how it runs.
    FixEstimate e = Unavailable(fmt::format(
        "no estimate of the job once it can go on: its input was read, but its GPUs did too "
        "little before storage refused it ({}) to show how it runs; with {} the {} the GPUs "
        "were held idle are not spent again{}",
        when, change, won_text, not_won));
    e.idle_fraction_before = gpu.idle_fraction;
    return e;
  }
  if (busy_before < std::max(60.0, 0.01 * gpu.sampled_gpu_s)) {
    FixEstimate e = Unavailable(fmt::format(
        "no estimate of the job once it can read: it never got past its input (storage refused "
        "it from {}), so these logs do not show it running; with {} the {} the GPUs were held "
        "idle are not spent again{}",
        when, change, won_text, not_won));
    e.idle_fraction_before = gpu.idle_fraction;
    return e;
  }
  FixEstimate e;
  e.available = true;
  e.idle_fraction_before = gpu.idle_fraction;
  e.idle_fraction_after = sampled_before > 0 ? lost_before / sampled_before : 0;
  const std::string work = FormatGpuTime(busy_before);
  e.text = fmt::format(
      "{}: the {} the GPUs stood idle from the first refusal ({}) on are not lost, and the job "
      "runs as it did before the refusals, GPUs idle {:.0f}% instead of {:.0f}%",
      change, FormatGpuTime(lost_after), when, 100 * e.idle_fraction_after,
      100 * e.idle_fraction_before);
  e.assumptions = {
      refusal == AccessRefusal::kOutputExists
          ? fmt::format("the rerun redoes the {} of work the failed run did (its outputs were "
                        "never written) unless they were saved elsewhere",
                        work)
          : fmt::format("the rerun redoes the {} of work done before the refusals unless the "
                        "job resumes from a checkpoint",
                        work),
      "the rest of the job runs as its first part did (the same idle share)"};
  return e;
}

}  // namespace feedcheck::diagnosis
