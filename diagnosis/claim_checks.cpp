#include "diagnosis/claim_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analyzers/text_util.h"
#include "core/bottleneck.h"
#include "core/units.h"

namespace feedcheck::diagnosis {

namespace {

// A refusal this close to a failed activity (before its start, or after its end) is the one
// that ended it: the runtime retries for a while before giving up.
constexpr double kCoincideS = 120;

bool IsInput(const TimelineInterval& iv) {
  return iv.lane == "data-runtime" &&
         (analyzers::IContains(iv.label, "download") || analyzers::IContains(iv.label, "mount"));
}

std::string Minutes(double s) { return FormatSeconds(std::fabs(s)); }

}  // namespace

std::string AccessRefusalsMissFailure(const Evidence& ev) {
  if (const Fact* stream = ev.facts.Find("runtime.stream_error"); stream) return "";
  std::vector<const TimelineInterval*> failed, refused;
  for (const auto& iv : ev.timeline) {
    if (iv.lane == "data-runtime" && iv.status.rfind("Failure", 0) == 0) failed.push_back(&iv);
    if (iv.lane == "access") refused.push_back(&iv);
  }
  if (failed.empty() || refused.empty()) return "";
  for (const auto* f : failed)
    for (const auto* r : refused)
      if (r->end_epoch_s >= f->start_epoch_s - kCoincideS &&
          r->start_epoch_s <= f->end_epoch_s + kCoincideS)
        return "";
  // The refusal nearest to the failure, to say how far apart they were.
  const TimelineInterval* fail = failed.front();
  const TimelineInterval* near = refused.front();
  for (const auto* r : refused)
    if (std::fabs(r->start_epoch_s - fail->end_epoch_s) <
        std::fabs(near->start_epoch_s - fail->end_epoch_s))
      near = r;
  double gap = fail->end_epoch_s - near->end_epoch_s;
  return fmt::format("the refusals ({}) came {} {} the {} that failed: they did not end the job",
                     near->label, Minutes(gap), gap >= 0 ? "before" : "after", fail->label);
}

bool InputReadBefore(const Evidence& ev, double epoch_s) {
  return std::any_of(ev.timeline.begin(), ev.timeline.end(), [&](const TimelineInterval& iv) {
    return IsInput(iv) && iv.status.rfind("Success", 0) == 0 && iv.end_epoch_s <= epoch_s;
  });
}

std::vector<std::string> ContradictedClaims(const Postmortem& r) {
  std::vector<std::string> out;
  const DiagnosisSummary& d = r.diagnosis;
  const Evidence& ev = r.evidence;
  // Shares: every GPU-second goes to one finding at most.
  double shares = 0;
  bool cause_is_a_finding = false;
  for (const auto& f : r.findings) {
    if (f.impact_gpu_s > 0) shares += f.impact_gpu_s;
    cause_is_a_finding |= !f.secondary && BottleneckName(f.bottleneck) == d.cause;
  }
  // A verdict the diagnosis reached itself (a blob or partition target, a node that read
  // nothing) holds its GPU time beside the findings', not inside one of them.
  if (!cause_is_a_finding && d.attributed_gpu_s > 0) shares += d.attributed_gpu_s;
  if (d.gpu.known && shares > d.gpu.lost_gpu_s + 1)
    out.push_back(fmt::format("the findings' costs sum to {:.0f} GPU-s, past the {:.0f} lost",
                              shares, d.gpu.lost_gpu_s));
  // "Never got past its input": no input activity read to the end, and the GPUs never ran.
  if (d.estimate.text.find("never got past its input") != std::string::npos) {
    double last = 0;
    for (const auto& iv : ev.timeline) last = std::max(last, iv.end_epoch_s);
    if (InputReadBefore(ev, last + 1))
      out.push_back("says the job never got past its input, but an input activity succeeded");
    if (d.gpu.known && d.gpu.sampled_gpu_s - d.gpu.lost_gpu_s > 0.1 * d.gpu.sampled_gpu_s)
      out.push_back("says the job never got past its input, but its GPUs were busy");
  }
  // An access failure the refusals did not cause.
  if (d.cause == "storage access failed") {
    if (std::string why = AccessRefusalsMissFailure(ev); !why.empty())
      out.push_back("blames storage access, but " + why);
  }
  // A named storage cause explains some of the GPU time lost.
  bool named = d.confidence != "inconclusive" && d.cause != "none found" &&
               d.cause != "inconclusive" && d.cause != "not storage";
  if (named && d.gpu.known && d.gpu.lost_gpu_s > 0 && d.attributed_gpu_s == 0)
    out.push_back(
        fmt::format("names {} as the cause, but it explains none of the idle time", d.cause));
  // A named cause whose fix buys nothing does not explain the job.
  if (named && d.estimate.available && d.gpu.idle_fraction > 0 &&
      d.estimate.idle_fraction_after >= d.estimate.idle_fraction_before - 1e-6)
    out.push_back(fmt::format("names {} as the cause, but its fix buys nothing ({})", d.cause,
                              d.estimate.text));
  // The ledger is one account: its states sum to the GPU time lost, and the cause is charged
  // its own state's time.
  if (d.ledger.present && d.gpu.known) {
    double sum = 0;
    for (const auto& st : d.ledger.states) sum += st.gpu_s;
    if (std::fabs(sum - d.ledger.lost_gpu_s) > 1 + 1e-6 * d.ledger.lost_gpu_s)
      out.push_back(fmt::format("the ledger's states sum to {:.0f} GPU-s, not the {:.0f} lost", sum,
                                d.ledger.lost_gpu_s));
    for (const auto& st : d.ledger.states)
      if (st.state == d.ledger.cause_state && d.attributed_gpu_s >= 0 &&
          std::fabs(st.gpu_s - d.attributed_gpu_s) > 1 + 1e-6 * st.gpu_s)
        out.push_back(fmt::format("charges the cause {:.0f} GPU-s, but its state holds {:.0f}",
                                  d.attributed_gpu_s, st.gpu_s));
  }
  // A cap on the mount's cache is never pasted back at or under the cap that thrashed.
  if (const Fact* cap = ev.facts.Find("runtime.mount_cache_bytes"); cap && cap->is_number())
    for (const auto& e : r.env)
      if (e.name == "DATASET_MOUNT_CACHE_SIZE")
        if (auto v = ParseBytes(e.value); v && *v > 0 && *v <= cap->number())
          out.push_back("advises DATASET_MOUNT_CACHE_SIZE=" + e.value + ", which keeps the cap");
  // A flag given is not asked for again.
  for (const auto& [key, fact] : ev.facts) {
    const std::string& src = fact.provenance.source;
    if (fact.provenance.origin != FactOrigin::kDeclared || src.rfind("--", 0) != 0) continue;
    if (d.settle_with.find(src) != std::string::npos)
      out.push_back(fmt::format("asks for {}, which was given", src));
  }
  // A node called "not storage" read nothing in its own log.
  for (const auto& n : d.not_storage_nodes) {
    std::string name = n.substr(0, n.find(':'));
    for (const auto& row : d.nodes)
      if (row.node == name && row.reads != 0)
        out.push_back(fmt::format("calls {} not storage, but its log shows reads", name));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace feedcheck::diagnosis
