#include "app/mpi_rank_probe.h"

#include <fmt/format.h>

#include <chrono>

#include "app/fact_gathering.h"
#include "core/exit_status.h"
#include "core/redact.h"
#include "core/units.h"

namespace feedcheck::app {
namespace {

constexpr size_t kMaxTimelinePoints = 2000;  // per rank and step, sent to rank 0

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string FirstError(const DiagnosticList& d) {
  for (const Diagnostic& x : d.kept())
    if (x.severity == DiagnosticSeverity::kError) return x.message;
  return "set-up failed";
}

int Fail(std::string* error, const std::string& message) {
  *error = message;
  return ToInt(ExitStatus::kUsage);
}

// Sizes and reads per size; a local path target reads that directory on every node.
int PrepareSmallFiles(const MpiProbeRequest& r, RankProbe* s, std::string* error) {
  if (!r.sizes.empty()) {
    s->smallfiles.sizes.clear();
    for (const std::string& text : r.sizes) {
      std::string why;
      auto b = ParseBytes(text, &why);
      if (!b || *b < 1 || *b > double(1ull << 30))
        return Fail(error, "--sizes '" + text + "': a size from 1 B to 1 GiB" +
                               (why.empty() ? "" : ": " + why));
      s->smallfiles.sizes.push_back(static_cast<uint64_t>(*b));
    }
  }
  s->smallfiles.concurrency = r.concurrency;
  s->smallfiles.requests_per_size = r.requests_per_size;
  DiagnosticList d;
  if (IsLocalPathTarget(r.session.target, &s->local_dir)) {
    if (!ParseProbeBudget(r.session, &s->env.budget, &d)) return Fail(error, FirstError(d));
    std::string why;
    ParseTarget(r.session.target, {}, &s->env.target, &why);
    return 0;
  }
  ExitStatus opened = OpenHttpSession(r.session, &s->env, &d);
  if (opened != ExitStatus::kOk) *error = FirstError(d);
  return ToInt(opened);
}

int PrepareThroughput(const MpiProbeRequest& r, RankProbe* s, std::string* error) {
  std::string why;
  auto block = ParseBytes(r.block_size, &why);
  if (!block || *block < double(1 << 20) || *block > double(64ull << 20))
    return Fail(error, "--block-size '" + r.block_size + "': must be a size from 1MiB to 64MiB");
  s->throughput.block_bytes = static_cast<uint64_t>(*block);
  s->throughput.concurrency = r.concurrency;
  s->throughput.max_retries = r.retries;
  s->throughput.record_timeline = true;
  if (!r.warmup.empty()) {
    auto w = ParseSeconds(r.warmup, &why);
    if (!w || *w < 0)
      return Fail(error, "--warmup '" + r.warmup + "': " + (why.empty() ? "must be >= 0" : why));
    s->throughput.warmup_s = *w;
  }
  if (!r.sku.empty() || !r.region.empty() || !r.account_kind.empty()) {
    DiagnosticList d;
    if (!LoadKnowledgeBase(r.knowledge, &s->kb, &d)) {
      *error = "the knowledge base did not load: " + FirstError(d);
      return ToInt(ExitStatus::kInputError);
    }
  }
  FlagError fe;
  if (!ResolveNode(s->kb, r.sku, r.nic_gbps, &s->node, &fe)) return Fail(error, fe.message);
  s->throughput.nic_gbps = s->node.nic_gbps;
  if (!r.region.empty() || !r.account_kind.empty() || !r.account_egress_gbps.empty()) {
    if (!ResolveAccount(s->kb, r.region, r.account_kind, r.account_egress_gbps, &s->account, &fe))
      return Fail(error, fe.message);
    s->have_account = true;
  }
  return 0;
}

RankReport FromProbe(const ProbeResult& r) {
  RankReport rep;
  rep.status = std::string(ProbeStatusName(r.status));
  rep.message = RedactText(r.message);
  const FactSet& f = r.evidence.facts;
  rep.errors = f.Number("probe.errors.total").value_or(0);
  rep.throttled = f.Number("probe.errors.throttled_egress").value_or(0) +
                  f.Number("probe.errors.throttled_requests").value_or(0);
  rep.retries = f.Number("probe.errors.retries").value_or(0);
  return rep;
}

}  // namespace

int PrepareRankProbe(const MpiProbeRequest& r, RankProbe* s, std::string* error) {
  s->command = r.command;
  if (r.command == "smallfiles") return PrepareSmallFiles(r, s, error);
  DiagnosticList d;
  ExitStatus opened = OpenHttpSession(r.session, &s->env, &d);
  if (opened != ExitStatus::kOk) {
    *error = FirstError(d);
    return ToInt(opened);
  }
  if (r.command == "throughput") return PrepareThroughput(r, s, error);
  LatencyRequest latency;
  latency.requests = r.requests;
  latency.head_requests = r.head_requests;
  latency.new_connections = r.new_connections;
  latency.warmup_requests = r.warmup_requests;
  latency.range_size = r.range_size;
  if (!ParseLatencyOptions(latency, &s->latency, &d)) return Fail(error, FirstError(d));
  return 0;
}

RankReport MeasureRank(const RankProbe& s, double start_epoch_s) {
  RankReport rep;
  if (s.command == "throughput") {
    ThroughputProbeResult out = RunThroughputProbe(s.env, s.throughput);
    rep = FromProbe(out.result);
    if (!out.steps.empty()) {
      const ThroughputStep& step = out.steps.front();
      rep.gbps = step.gbps;
      rep.window_start_epoch_s = step.window_start_epoch_s;
      rep.window_end_epoch_s = step.window_end_epoch_s;
      rep.timeline = ThinTimeline(step.timeline, kMaxTimelinePoints);
    }
  } else if (s.command == "smallfiles") {
    ProbeResult out = s.local_dir.empty() ? RunSmallFileProbe(s.env, s.smallfiles)
                                          : RunLocalSmallFileProbe(s.local_dir, s.smallfiles,
                                                                   s.env.budget, ProgressFn{});
    rep = FromProbe(out);
    if (const Series* m = out.evidence.FindSeries("probe.smallfile.time_by_size"))
      rep.smallfile_ms = m->points;
    rep.requests = static_cast<double>(out.requests_sent);
    rep.elapsed_s = Now() - start_epoch_s;
  } else {
    LatencyProbeResult out = RunLatencyProbe(s.env, s.latency);
    rep = FromProbe(out.result);
    rep.ttfb = out.ttfb;
    rep.total = out.total;
    rep.connect = out.connect;
  }
  return rep;
}

RampLimit NicLimit(const RankProbe& s) {
  RampLimit l;
  l.gbps = s.node.nic_gbps;
  if (l.gbps <= 0) return l;
  if (s.node.nic_from_flag || !s.node.vm) {
    l.basis = fmt::format("NIC {} Gbit/s (--nic-gbps)", l.gbps);
    l.provenance = {FactOrigin::kDeclared, "--nic-gbps"};
  } else {
    const VmSize& vm = *s.node.vm;
    l.basis = fmt::format("NIC {} Gbit/s ({}, {})", l.gbps, vm.name, RowRef(vm.file, vm.line));
    l.provenance = {FactOrigin::kKnowledge,
                    fmt::format("knowledge base: {}:{} {}", vm.file, vm.line, vm.name), vm.file,
                    vm.line};
  }
  return l;
}

RampLimit EgressLimit(const RankProbe& s) {
  RampLimit l;
  if (!s.have_account) return l;
  const StorageTarget& t = s.account.target;
  l.gbps = t.egress_gbps;
  if (s.account.egress_from_flag) {
    l.basis = fmt::format("account egress {} Gbit/s (--account-egress-gbps)", l.gbps);
    l.provenance = {FactOrigin::kDeclared, "--account-egress-gbps"};
  } else {
    l.basis =
        fmt::format("account egress {} Gbit/s ({}, {})", l.gbps, t.name, RowRef(t.file, t.line));
    l.provenance = {FactOrigin::kKnowledge,
                    fmt::format("knowledge base: {}:{} {}", t.file, t.line, t.name), t.file,
                    t.line};
  }
  return l;
}

int RankExitStatus(const std::string& status) {
  if (status == "unreachable") return ToInt(ExitStatus::kInputError);
  if (status == "failed") return ToInt(ExitStatus::kProbeFailed);
  return ToInt(ExitStatus::kOk);
}

int WorstRankExit(const std::vector<RankReport>& reports) {
  int rc = 0;
  for (const RankReport& r : reports)
    if (r.active) rc = std::max(rc, RankExitStatus(r.status));
  return rc;
}

}  // namespace feedcheck::app
