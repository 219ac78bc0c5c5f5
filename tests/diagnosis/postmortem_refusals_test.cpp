// The post-mortem on what storage refused, and on what it did not: a bare 503 "server is busy"
// charged only the GPU time its refusals covered; what fixing a refused access (403, 404, 409)
// buys, computed from the GPU samples around the first refusal, or said plainly when it cannot
// be; storage that served fast (no refusal, far below its limits, no starved client) not
// named as the cause; and, with no storage cause, where the ledger placed the idle time.
#include <catch2/catch.hpp>

#include "analyzers/gpu_idle_ledger.h"
#include "diagnosis/access_fix_estimate.h"
#include "diagnosis/gpu_time_summary.h"
#include "diagnosis/ledger_judgement.h"
#include "diagnosis/postmortem_diagnosis.h"

using namespace feedcheck;

namespace {

Fact Observed(const std::string& key, double v, Unit unit) {
  return NumberFact(key, v, unit, {FactOrigin::kObserved, "test", "test.log", 1});
}

rules::RuleSet NoRules() {
  rules::RuleSet set;
  DiagnosticList d;
  REQUIRE(set.LoadText("test.yaml", R"(
- id: never
  severity: warning
  class: client_threads
  basis: observed
  title: Never
  when: node.count > 1000
  say: never
  source: test
)",
                       &d));
  return set;
}

// 8 GPUs over an hour (28,800 GPU-s sampled), a mount whose GPUs lost `mount_s`, `throttled_s`
// of it while storage answered 503 "The server is busy" (no limit named).
diagnosis::Postmortem ServerBusyMount(double mount_s, double throttled_s) {
  FactSet f;
  f.Set(Observed("gpu.count", 8, Unit::kCount));
  f.Set(Observed("gpu.lost_gpu_s", mount_s, Unit::kSeconds));
  f.Set(Observed("gpu.sampled_gpu_s", 28800, Unit::kSeconds));
  f.Set(Observed("gpu.idle_fraction", mount_s / 28800, Unit::kFraction));
  f.Set(Observed("gpu.idle_s", mount_s / 8, Unit::kSeconds));
  f.Set(Observed("gpu.span_s", 3600, Unit::kSeconds));
  f.Set(Observed("gpu.lost_download_gpu_s", 0, Unit::kSeconds));
  f.Set(Observed("gpu.lost_mount_gpu_s", mount_s, Unit::kSeconds));
  f.Set(Observed("gpu.lost_after_data_gpu_s", 0, Unit::kSeconds));
  f.Set(Observed("gpu.lost_throttled_gpu_s", throttled_s, Unit::kSeconds));
  f.Set(Observed("runtime.throttled.server_busy", 90, Unit::kCount));
  f.Set(Observed("runtime.non_success_responses", 90, Unit::kCount));
  diagnosis::Postmortem r;
  r.evidence.facts = std::move(f);
  diagnosis::DiagnosePostmortem(NoRules(), {}, &r);
  return r;
}

}  // namespace

TEST_CASE("a bare 'server is busy' burst is charged the time its refusals covered",
          "[diagnosis][verdict]") {
  // 6,000 GPU-s lost in the mount (21%), 700 of them while requests were refused (2.4%): the
  // burst did not hold the job back, and it is not charged the other 5,300.
  diagnosis::Postmortem brief = ServerBusyMount(6000, 700);
  CHECK(brief.diagnosis.cause == "none found");
  INFO(brief.diagnosis.fix);
  CHECK(brief.diagnosis.fix.find("server is busy' cost 12 GPU-minutes (2.4%") != std::string::npos);
  // Refusals over 4,000 of 14,000 (14% of the GPU time): throttled, charged those 4,000 only.
  diagnosis::Postmortem burst = ServerBusyMount(14000, 4000);
  CHECK(burst.diagnosis.cause == "throttled, limit unknown");
  CHECK(burst.diagnosis.attributed_gpu_s == Approx(4000));
  // Refusals over most of the mount's idle time are its condition: all of it.
  diagnosis::Postmortem pervasive = ServerBusyMount(14000, 12000);
  CHECK(pervasive.diagnosis.cause == "throttled, limit unknown");
  CHECK(pervasive.diagnosis.attributed_gpu_s == Approx(14000));
}

namespace {

// One GPU sampled every 10 s from 0 to `end_s`, idle before `busy_from` and from `idle_from`.
Evidence Samples(double busy_from, double idle_from, double end_s) {
  analyzers::GpuIdleLedger ledger(10);
  for (double t = 0; t < end_s; t += 10)
    ledger.Add("gpu0", "", t, t >= busy_from && t < idle_from ? 90 : 1);
  Evidence ev;
  ledger.Finish(&ev, {});
  ev.facts.Set(Observed("gpu.count", 1, Unit::kCount));
  return ev;
}

}  // namespace

TEST_CASE("what fixing a refused access buys: the idle time from the first refusal on",
          "[diagnosis][estimate]") {
  // Busy 60..7800, then storage answers 403 from 7800 until the job fails at 8300.
  Evidence ev = Samples(60, 7800, 8300);
  ev.facts.Set(TextFact("runtime.stream_error", "ScriptExecution.StreamAccess.Authentication",
                        {FactOrigin::kObserved, "rslex", "rslex.log", 9}));
  ev.facts.Set(Observed("runtime.http_errors.403", 310, Unit::kCount));
  ev.timeline.push_back({"access", "403 refused", 7800, 8290, "rslex", "rslex.log"});
  GpuTimeLost gpu = diagnosis::SummarizeGpuTime(ev.facts);
  REQUIRE(gpu.known);
  FixEstimate e = diagnosis::EstimateAccessFix(ev, gpu);
  REQUIRE(e.available);
  INFO(e.text);
  INFO(e.assumptions.at(0));
  CHECK(e.text.rfind("a datastore credential that outlives the job", 0) == 0);
  CHECK(e.text.find("the 8 GPU-minutes the GPUs stood idle from the first refusal "
                    "(1970-01-01 02:10:00 UTC)") != std::string::npos);
  CHECK(e.idle_fraction_before == Approx(560.0 / 8300));
  CHECK(e.idle_fraction_after == Approx(60.0 / 7800));  // the job as it ran before
  REQUIRE_FALSE(e.assumptions.empty());
  CHECK(e.assumptions[0].find("redoes the 129 GPU-minutes of work") != std::string::npos);

  // A 409 on the output: the run's whole work is lost with its outputs.
  Evidence out = Samples(60, 3000, 3100);
  out.facts.Set(Observed("runtime.http_errors.409", 8, Unit::kCount));
  out.facts.Set(Observed("runtime.activity_failures", 1, Unit::kCount));
  out.timeline.push_back({"access", "409 refused", 3001, 3011, "rslex", "rslex.log"});
  CHECK(diagnosis::ClassifyAccessRefusal(out.facts) == diagnosis::AccessRefusal::kOutputExists);
  FixEstimate w = diagnosis::EstimateAccessFix(out, diagnosis::SummarizeGpuTime(out.facts));
  REQUIRE(w.available);
  CHECK(w.text.rfind("an output path of its own for each run", 0) == 0);
  CHECK(w.assumptions[0].find("its outputs were never written") != std::string::npos);
}

TEST_CASE("no figure for a refused access is said plainly, with the fix", "[diagnosis][estimate]") {
  // A typo in the path: refused from the first request, the job never ran.
  Evidence never = Samples(1e9, 1e9, 360);
  never.facts.Set(TextFact("runtime.stream_error", "ScriptExecution.StreamAccess.NotFound",
                           {FactOrigin::kObserved, "rslex", "rslex.log", 4}));
  never.timeline.push_back({"data-runtime", "download", 20, 23.7, "Failure", "dc.log:5"});
  FixEstimate e = diagnosis::EstimateAccessFix(never, diagnosis::SummarizeGpuTime(never.facts));
  CHECK_FALSE(e.available);
  CHECK(e.text.find("never got past its input") != std::string::npos);
  CHECK(e.text.find("the input's path corrected") != std::string::npos);
  CHECK(e.text.find("6 GPU-minutes") != std::string::npos);
  CHECK(e.text.find("read nothing") == std::string::npos);
  // A node that never asked (a dead node) lost a third of it: the fix does not win that back.
  FixEstimate dead =
      diagnosis::EstimateAccessFix(never, diagnosis::SummarizeGpuTime(never.facts), 120);
  CHECK(dead.text.find("the 4 GPU-minutes the GPUs were held idle") != std::string::npos);
  CHECK(dead.text.find("the 2 GPU-minutes lost on nodes that read nothing") != std::string::npos);
  // A mount that came up on the dead node while the other's failed, every read given up on, is
  // no input read.
  Evidence mounted = never;
  mounted.timeline.back().label = "mount";
  mounted.timeline.back().node = "node-0";
  mounted.timeline.push_back({"data-runtime", "mount", 18, 19.5, "Success", "dc.log:2", "node-1"});
  mounted.facts.Set(Observed("runtime.retry_give_ups", 1, Unit::kCount));
  mounted.facts.Set(Observed("runtime.mount_failures", 1, Unit::kCount));
  REQUIRE(diagnosis::InputNeverRead(mounted));
  FixEstimate m = diagnosis::EstimateAccessFix(mounted, diagnosis::SummarizeGpuTime(mounted.facts));
  CHECK(m.text.find("never got past its input") != std::string::npos);
  CHECK(m.text.find("its input was read") == std::string::npos);
  // No timestamped refusal and no failed activity: when is unknown.
  Evidence untimed = Samples(60, 3000, 3100);
  untimed.facts.Set(Observed("runtime.http_errors.403", 3, Unit::kCount));
  FixEstimate u = diagnosis::EstimateAccessFix(untimed, diagnosis::SummarizeGpuTime(untimed.facts));
  CHECK_FALSE(u.available);
  CHECK(u.text.find("do not say when storage started refusing") != std::string::npos);
  // No GPU samples.
  FixEstimate g = diagnosis::EstimateAccessFix(untimed, GpuTimeLost{});
  CHECK_FALSE(g.available);
  CHECK(g.text.find("without GPU samples") != std::string::npos);
}

namespace {

// 6,000 of 11,000 GPU-seconds lost, all of it during the mount's reads (4 GPUs).
FactSet MountIdle6000() {
  FactSet f;
  f.Set(Observed("gpu.count", 4, Unit::kCount));
  f.Set(Observed("gpu.lost_gpu_s", 6000, Unit::kSeconds));
  f.Set(Observed("gpu.sampled_gpu_s", 11000, Unit::kSeconds));
  f.Set(Observed("gpu.idle_fraction", 6000.0 / 11000, Unit::kFraction));
  f.Set(Observed("gpu.idle_s", 1500, Unit::kSeconds));
  f.Set(Observed("gpu.span_s", 2750, Unit::kSeconds));
  f.Set(Observed("gpu.lost_download_gpu_s", 0, Unit::kSeconds));
  f.Set(Observed("gpu.lost_mount_gpu_s", 6000, Unit::kSeconds));
  f.Set(Observed("gpu.lost_after_data_gpu_s", 0, Unit::kSeconds));
  return f;
}

}  // namespace

TEST_CASE("storage that served fast is not the cause, unless the client was starved",
          "[diagnosis][verdict]") {
  auto run = [](double e2e_ms, double server_ms) {
    FactSet f = MountIdle6000();
    f.Set(Observed("metrics.egress_gbps_peak", 1.2, Unit::kGbps));
    f.Set(Observed("metrics.throttled_total", 0, Unit::kCount));
    if (e2e_ms >= 0) {  // negative: the latency metrics were not saved
      f.Set(Observed("metrics.e2e_latency_ms", e2e_ms, Unit::kMilliseconds));
      f.Set(Observed("metrics.server_latency_ms", server_ms, Unit::kMilliseconds));
    }
    f.Set(
        NumberFact("account.egress_gbps", 200, Unit::kGbps, {FactOrigin::kKnowledge, "kb", "", 0}));
    diagnosis::Postmortem r;
    r.evidence.facts = std::move(f);
    diagnosis::DiagnosePostmortem(NoRules(), {}, &r);
    return r;
  };
  diagnosis::Postmortem fast = run(38, 33);
  CHECK(fast.diagnosis.cause == "none found");
  CHECK(fast.diagnosis.fix.find("served every request fast, far below its limits") !=
        std::string::npos);
  // 120 ms end to end, 30 in the service: the time went on the way between the nodes and the
  // account (a distant region, a congested path): request latency, which storage's own
  // metrics cannot clear.
  diagnosis::Postmortem starved = run(120, 30);
  CHECK(starved.diagnosis.cause == "request latency");
  CHECK(starved.diagnosis.fix.find("120 ms end to end against 30 ms") != std::string::npos);
  // Without latency figures nothing says the client kept pace.
  CHECK(run(-1, -1).diagnosis.cause == "inconclusive");
}

TEST_CASE("the training loop's own clock settles what the mount's idle time was",
          "[diagnosis][verdict][traces]") {
  // 6,000 GPU-s lost in the mount reads, nothing refused, no account metrics: unknown alone.
  auto run = [](std::optional<double> wait, std::optional<double> read_ms,
                std::optional<double> traced_idle = std::nullopt) {
    FactSet f = MountIdle6000();
    f.Set(Observed("runtime.non_success_responses", 0, Unit::kCount));
    if (wait) f.Set(Observed("trace.loader_wait_fraction", *wait, Unit::kFraction));
    if (traced_idle) f.Set(Observed("trace.gpu_idle_fraction", *traced_idle, Unit::kFraction));
    if (read_ms) {
      f.Set(Observed("runtime.reads", 5000, Unit::kCount));
      f.Set(Observed("runtime.read_ms_mean", *read_ms, Unit::kMilliseconds));
    }
    diagnosis::Postmortem r;
    r.evidence.facts = std::move(f);
    diagnosis::DiagnosePostmortem(NoRules(), {}, &r);
    return r;
  };
  CHECK(run(std::nullopt, std::nullopt).diagnosis.cause == "inconclusive");
  // The loop barely waited for data: whatever idled the GPUs, it was not the input.
  CHECK(run(0.03, std::nullopt).diagnosis.cause == "none found");
  CHECK(run(0.03, std::nullopt, 0.6).diagnosis.cause == "none found");
  // Unless its GPUs worked through the traced steps: a loop that did not wait while they worked
  // says nothing of the time they idled.
  CHECK(run(0.03, std::nullopt, 0.03).diagnosis.cause == "inconclusive");
  // It waited most of each step while reads took 120 ms each: the reads' latency held it.
  diagnosis::Postmortem slow = run(0.85, 120);
  CHECK(slow.diagnosis.cause == "request latency");
  CHECK(slow.diagnosis.ledger.cause_state == "latency");
  // It waited as long while reads took 2 ms: its own input pipeline, not storage.
  CHECK(run(0.85, 2).diagnosis.cause == "none found");
}

TEST_CASE("no storage cause: the fix says where the ledger placed most of the idle time",
          "[diagnosis][verdict]") {
  // 6,000 GPU-s lost, nothing refused: `after` of it after the data phase (the ledger's own
  // code), the rest while the mount served from its cache (not storage).
  const double after = GENERATE(0.0, 0.3, 0.49, 0.5, 0.8, 1.0);
  FactSet f = MountIdle6000();
  f.Set(Observed("gpu.lost_mount_gpu_s", 0, Unit::kSeconds));
  f.Set(Observed("gpu.lost_after_data_gpu_s", 6000 * after, Unit::kSeconds));
  f.Set(Observed("gpu.lost_cached_gpu_s", 6000 * (1 - after), Unit::kSeconds));
  f.Set(Observed("runtime.non_success_responses", 0, Unit::kCount));
  diagnosis::Postmortem r;
  r.evidence.facts = std::move(f);
  diagnosis::DiagnosePostmortem(NoRules(), {}, &r);
  INFO(r.diagnosis.fix);
  REQUIRE(r.diagnosis.cause == "none found");
  const bool own_code = after >= 0.5;
  // The larger state is the verdict's; of equals, the earlier one (not storage).
  CHECK(r.diagnosis.ledger.cause_state == (after > 0.5 ? "own_code" : "not_storage"));
  CHECK((r.diagnosis.fix.find("for the time lost after the data phase") != std::string::npos) ==
        own_code);
  CHECK((r.diagnosis.fix.find("for the time lost while the mount served from its cache") !=
         std::string::npos) == !own_code);
  // No storage cause is charged any of it.
  CHECK(r.diagnosis.attributed_gpu_s < 0);
}
