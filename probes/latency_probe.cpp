#include "probes/latency_probe.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <vector>

#include "probes/budget_tracker.h"
#include "probes/cleanup_registry.h"
#include "probes/object_discovery.h"
#include "transport/http_errors.h"

namespace feedcheck {
namespace {

constexpr double kMs = 1000.0;

double ProcessCpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return s(u.ru_utime) + s(u.ru_stime);
}

struct Phase {
  const char* name;
  std::string method;
  bool fresh;
  uint64_t count;
  bool measured;
};

// What the request loops left besides the histograms: the counts the status is judged on and
// the rate figures of the measured GETs.
struct LatencyRun {
  uint64_t measured = 0;
  uint64_t wanted = 0;
  uint64_t gets_measured = 0;
  double gets_wall_s = 0;
  double gets_cpu_s = 0;
  bool cut_at_deadline = false;
  uint64_t cut_bytes = 0;  ///< body bytes of the requests the deadline cut
  bool stopped = false;
  // An answer that cannot be the one asked for (a Range ignored, an encoding not asked for):
  // every further request would get it too, and may cost the server's whole send buffer.
  bool wrong_answers = false;
  std::string engine;  // of the measured GETs: the request rate is that engine's
};

// Plan: every connection is warmed up before the measured phases (connect, slow start, caches).
std::vector<Phase> PlanPhases(const LatencyProbeOptions& o, int concurrency) {
  return {
      {"warm-up", "GET", false,
       std::max<uint64_t>(o.warmup_requests, static_cast<uint64_t>(concurrency)), false},
      {"GET", "GET", false, o.requests, true},
      {"HEAD", "HEAD", false, o.head_requests, true},
      {"new connection", "GET", true, o.new_connections, true},
  };
}

// Measure: one phase's requests through the loop, each answer into its histogram.
void MeasurePhase(const HttpProbeEnv& env, const LatencyProbeOptions& o, const Phase& phase,
                  const std::string& url, uint64_t range, int concurrency, HttpRequestLoop* loop,
                  BudgetTracker* budget, ErrorTally* errors, LatencyProbeResult* out,
                  LatencyRun* run) {
  const std::string range_header = fmt::format("bytes=0-{}", range - 1);
  const uint64_t expected = phase.method == "HEAD" ? 0 : range;
  uint64_t issued = 0;
  bool refused = false;
  // The signed request is built once per lane and second (a Shared Key signature carries
  // the date) and reused as it is in between: nothing is allocated per request.
  std::vector<std::time_t> signed_at(static_cast<size_t>(concurrency), 0);
  auto next = [&](int lane, HttpRequest* req) {
    if (issued >= phase.count || refused || run->cut_at_deadline || run->stopped ||
        run->wrong_answers)
      return false;
    if (!budget->TryStart(expected)) {
      refused = true;
      return false;
    }
    ++issued;
    std::time_t now = std::time(nullptr);
    if (signed_at[static_cast<size_t>(lane)] != now || req->method != phase.method ||
        req->fresh_connection != phase.fresh) {
      std::vector<std::pair<std::string, std::string>> headers;
      if (phase.method == "GET") headers.emplace_back("Range", range_header);
      *req = env.SignedRequest(phase.method, url, std::move(headers));
      req->fresh_connection = phase.fresh;
      req->max_body_bytes = std::max<uint64_t>(expected, 1);
      signed_at[static_cast<size_t>(lane)] = now;
    }
    req->timeout_s = budget->RequestTimeout(o.request_timeout_s);
    req->connect_timeout_s = req->timeout_s;
    return true;
  };
  auto done = [&](int, const HttpRequest& req, const HttpResponse& r) {
    budget->Finish(expected, r.body_bytes);
    if (r.stopped) {
      run->stopped = true;  // SIGINT/SIGTERM: not a storage fault; TryStart refuses from now
      return;
    }
    if (r.timed_out && req.timeout_s < o.request_timeout_s) {
      // Cut by the probe's own deadline, not slow storage: not an error, and the end (the
      // throughput probe's rule). The sample is dropped: a cut request has no latency.
      run->cut_at_deadline = true;
      run->cut_bytes += r.body_bytes;
      return;
    }
    if (errors->Add(r) != ErrorClass::kNone) {
      run->wrong_answers = run->wrong_answers || r.wrong_answer || r.over_cap;
      return;
    }
    if (!phase.measured) return;
    ++run->measured;
    const HttpTiming& t = r.timing;
    if (phase.method == "HEAD") {
      out->head.RecordSeconds(t.total_s);
    } else if (phase.fresh) {
      out->new_conn_ttfb.RecordSeconds(t.ttfb_s);
      out->new_conn_total.RecordSeconds(t.total_s);
      if (t.connect_s > 0) out->connect.RecordSeconds(t.connect_s - t.dns_s);
      if (t.tls_s > 0) out->tls.RecordSeconds(t.tls_s - t.connect_s);
    } else {
      out->ttfb.RecordSeconds(t.ttfb_s);
      out->total.RecordSeconds(t.total_s);
      ++run->gets_measured;
    }
    if (run->measured % 1000 == 0)
      env.Progress(fmt::format("latency: {} {} requests measured", run->measured, phase.name));
  };
  // New connections are timed one at a time: concurrent handshakes would time each other.
  int lanes = phase.fresh ? 1 : concurrency;
  bool rate_phase = phase.measured && !phase.fresh && phase.method == "GET";
  double cpu0 = ProcessCpuSeconds();
  auto t0 = std::chrono::steady_clock::now();
  loop->Run(lanes, next, done);
  if (rate_phase) {
    run->gets_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    run->gets_cpu_s = ProcessCpuSeconds() - cpu0;
    run->engine = loop->engine();
  }
}

// Summarize: the histograms and the rate figures as facts.
void AddLatencyFacts(const LatencyProbeResult& out, const LatencyRun& run, uint64_t range,
                     int concurrency, const Provenance& p, FactSet* f) {
  auto ms = [&](const char* key, const LatencyHistogram& h, double q) {
    if (h.count()) f->Set(NumberFact(key, h.PercentileSeconds(q) * kMs, Unit::kMilliseconds, p));
  };
  ms("probe.latency.ttfb_p50_ms", out.ttfb, 0.5);
  ms("probe.latency.ttfb_p90_ms", out.ttfb, 0.9);
  ms("probe.latency.ttfb_p99_ms", out.ttfb, 0.99);
  ms("probe.latency.ttfb_p999_ms", out.ttfb, 0.999);
  ms("probe.latency.ttfb_max_ms", out.ttfb, 1.0);
  ms("probe.latency.total_p50_ms", out.total, 0.5);
  ms("probe.latency.total_p99_ms", out.total, 0.99);
  ms("probe.latency.head_p50_ms", out.head, 0.5);
  ms("probe.latency.head_p99_ms", out.head, 0.99);
  ms("probe.latency.new_conn_ttfb_p50_ms", out.new_conn_ttfb, 0.5);
  ms("probe.latency.new_conn_total_p50_ms", out.new_conn_total, 0.5);
  ms("probe.latency.connect_ms", out.connect, 0.5);
  if (run.gets_measured > 0 && run.gets_wall_s > 0) {
    // The request rate of the measured GETs at this concurrency, and what each cost this
    // process in CPU (user + system): the figure that says whether a node can drive it.
    f->Set(NumberFact("probe.latency.requests_per_s",
                      static_cast<double>(run.gets_measured) / run.gets_wall_s, Unit::kPerSecond,
                      p));
    f->Set(NumberFact("probe.latency.cpu_us_per_request",
                      run.gets_cpu_s * 1e6 / static_cast<double>(run.gets_measured),
                      Unit::kMicroseconds, p));
  }
  f->Set(NumberFact("probe.latency.concurrency", concurrency, Unit::kCount, p));
  if (!run.engine.empty()) f->Set(TextFact("probe.latency.http_engine", run.engine, p));
  // Over plain http there is no handshake: no TLS figure at all, rather than a "0 s" that reads
  // like a measurement.
  if (out.new_conn_ttfb.count() && out.tls.count())
    f->Set(NumberFact("probe.latency.tls_ms", out.tls.PercentileSeconds(0.5) * kMs,
                      Unit::kMilliseconds, p));
  f->Set(NumberFact("probe.latency.requests", static_cast<double>(run.measured), Unit::kCount, p));
  f->Set(NumberFact("probe.latency.range_bytes", static_cast<double>(range), Unit::kBytes, p));
}

// Chart: the CDFs of the histograms that hold samples (first byte always).
void AddLatencyCharts(const LatencyProbeResult& out, std::vector<Series>* series) {
  series->push_back(LatencyCdfSeries(out.ttfb, "probe.latency.ttfb_cdf",
                                     "time to first byte (reused connection)"));
  if (out.total.count())
    series->push_back(LatencyCdfSeries(out.total, "probe.latency.total_cdf", "whole ranged GET"));
  if (out.head.count())
    series->push_back(LatencyCdfSeries(out.head, "probe.latency.head_cdf", "HEAD"));
}

// Conclude: failed when nothing was measured, partial when less than asked, with why.
void JudgeLatencyRun(const LatencyRun& run, const BudgetTracker& budget, const ErrorTally& errors,
                     ProbeResult* result) {
  if (run.measured == 0) {
    result->status = ProbeStatus::kFailed;
    std::string why = budget.stop_reason();
    // The event loop asks for nothing after a stop, so the budget may not have seen it.
    if (why.empty() && StopRequested()) why = StopReason();
    if (why.empty() && run.cut_at_deadline)
      // Not one answer finished in the whole budget: say what that means of the server.
      why = fmt::format(
          "duration budget reached with every request still running ({} body bytes had "
          "arrived: the server stalls, or answers slower than the budget)",
          run.cut_bytes);
    result->message = errors.first_message.empty()
                          ? "no request completed: " + why
                          : "every request failed: " + errors.first_message;
  } else if (run.measured < run.wanted || errors.total > 0 || StopRequested()) {
    result->status = ProbeStatus::kPartial;
    std::string why = budget.stop_reason();
    // The event loop asks for nothing after a stop, so the budget may not have seen it.
    if (why.empty() && StopRequested()) why = StopReason();
    if (why.empty() && run.cut_at_deadline) why = "duration budget reached";
    if (errors.total)
      why += (why.empty() ? "" : "; ") +
             fmt::format("{} failed requests (first: {})", errors.total, errors.first_message);
    result->message = fmt::format("measured {} of {} requests: {}", run.measured, run.wanted, why);
  }
}

}  // namespace

Series LatencyCdfSeries(const LatencyHistogram& h, const std::string& key,
                        const std::string& title) {
  Series s;
  s.key = key;
  s.title = title;
  s.x_label = "latency";
  s.x_unit = Unit::kMilliseconds;
  s.y_label = "fraction of requests";
  s.y_unit = Unit::kFraction;
  if (h.count() == 0) return s;
  for (int i = 1; i <= 100; ++i) {
    double q = i / 100.0;
    s.points.push_back({h.PercentileSeconds(q) * kMs, q});
  }
  return s;
}

LatencyProbeResult RunLatencyProbe(const HttpProbeEnv& env, const LatencyProbeOptions& o) {
  LatencyProbeResult out;
  ProbeResult& result = out.result;
  result.probe = "latency";
  BudgetTracker budget(env.budget);
  ErrorTally errors;
  std::unique_ptr<HttpClient> client = env.make_client();

  DiscoveryResult found = DiscoverObjects(env, client.get(), &budget, &errors, 1);
  if (found.objects.empty()) {
    result.status = DiscoveryStatus(found);
    result.message = found.error;
    result.requests_sent = budget.requests();
    result.elapsed_s = budget.ElapsedSeconds();
    errors.AddFacts(&result.evidence.facts, {FactOrigin::kMeasured, "probe latency"});
    return out;
  }
  const ObjectInfo& object = found.objects.front();
  const uint64_t range = std::max<uint64_t>(1, std::min(o.range_bytes, object.size_bytes));
  const int concurrency = std::max(1, o.concurrency);

  std::unique_ptr<HttpRequestLoop> loop = env.RequestLoop();
  LatencyRun run;
  for (const Phase& phase : PlanPhases(o, concurrency)) {
    if (phase.measured) run.wanted += phase.count;
    if (run.cut_at_deadline || run.stopped || run.wrong_answers || phase.count == 0) continue;
    MeasurePhase(env, o, phase, object.url, range, concurrency, loop.get(), &budget, &errors, &out,
                 &run);
  }

  result.requests_sent = budget.requests();
  result.bytes_received = budget.received_bytes();  // what arrived
  result.bytes_charged = budget.bytes();
  result.elapsed_s = budget.ElapsedSeconds();
  Provenance p{FactOrigin::kMeasured,
               fmt::format("probe latency ({} B ranged GET, {} requests, concurrency {})", range,
                           o.requests, concurrency)};
  AddLatencyFacts(out, run, range, concurrency, p, &result.evidence.facts);
  errors.AddFacts(&result.evidence.facts, p);
  AddLatencyCharts(out, &result.evidence.series);
  JudgeLatencyRun(run, budget, errors, &result);
  return out;
}

}  // namespace feedcheck
