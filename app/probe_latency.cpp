#include "app/probe_latency.h"

#include <fmt/format.h>

#include "app/probe_report.h"
#include "core/units.h"

namespace feedcheck::app {

bool ParseLatencyOptions(const LatencyRequest& r, LatencyProbeOptions* o, DiagnosticList* d) {
  std::string error;
  auto range = ParseBytes(r.range_size, &error);
  if (!range || *range < 1 || *range > double(64ull << 20)) {
    d->Add(FlagDiagnostic("--range-size '" + r.range_size + "': must be a size from 1B to 64MiB"));
    return false;
  }
  if (r.requests < 1 || r.requests > 10000000) {
    d->Add(FlagDiagnostic("--requests must be from 1 to 10000000"));
    return false;
  }
  if (r.concurrency < 1 || r.concurrency > 1024) {
    d->Add(FlagDiagnostic("--concurrency must be from 1 to 1024"));
    return false;
  }
  o->range_bytes = static_cast<uint64_t>(*range);
  o->requests = r.requests;
  o->head_requests = r.head_requests;
  o->new_connections = r.new_connections;
  o->warmup_requests = r.warmup_requests;
  o->concurrency = r.concurrency;
  return true;
}

Outcome RunProbeLatency(const LatencyRequest& r, const ProbeCallbacks& callbacks) {
  DiagnosticList diagnostics;
  HttpProbeEnv env;
  ExitStatus opened = OpenHttpSession(r.session, &env, &diagnostics);
  if (opened != ExitStatus::kOk) return Stopped(opened, std::move(diagnostics));
  LatencyProbeOptions o;
  if (!ParseLatencyOptions(r, &o, &diagnostics))
    return Stopped(ExitStatus::kUsage, std::move(diagnostics));
  env.progress = callbacks.progress;
  callbacks.Notice(DescribeSession(
      "latency", env,
      fmt::format("{} GETs of {} on {} connection{}, {} HEADs, {} new connections", o.requests,
                  FormatBytes(double(o.range_bytes)), o.concurrency, o.concurrency == 1 ? "" : "s",
                  o.head_requests, o.new_connections)));
  LatencyProbeResult out = RunLatencyProbe(env, o);

  ProbeTargetInfo target = TargetInfoOf(env);
  Report report = StartProbeReport(out.result, target);
  const FactSet& f = out.result.evidence.facts;
  const std::string p = "probe.latency.";
  AddFactResult(f, p + "ttfb_p50_ms", "ttfb_p50_ms", "First byte p50", &report);
  AddFactResult(f, p + "ttfb_p90_ms", "ttfb_p90_ms", "First byte p90", &report);
  AddFactResult(f, p + "ttfb_p99_ms", "ttfb_p99_ms", "First byte p99", &report);
  AddFactResult(f, p + "ttfb_p999_ms", "ttfb_p999_ms", "First byte p99.9", &report);
  AddFactResult(f, p + "ttfb_max_ms", "ttfb_max_ms", "First byte max", &report);
  AddFactResult(f, p + "total_p50_ms", "total_p50_ms", "Whole GET p50", &report);
  AddFactResult(f, p + "head_p50_ms", "head_p50_ms", "HEAD p50", &report);
  AddFactResult(f, p + "connect_ms", "connect_ms", "TCP connect", &report);
  if (env.target.scheme == "https")
    AddFactResult(f, p + "tls_ms", "tls_ms", "TLS handshake", &report);
  AddNumberResult("requests_measured", static_cast<double>(out.ttfb.count()), "",
                  "GETs measured (reused connection)", &report);
  AddFactResult(f, p + "requests_per_s", "requests_per_s", "Request rate", &report);
  AddFactResult(f, p + "cpu_us_per_request", "cpu_us_per_request", "Probe CPU per request",
                &report);
  AddFactResult(f, "probe.errors.total", "errors", "Errors", &report);
  AddRunResult(out.result, target, &report);
  return FinishProbe(std::move(report), out.result, target, std::move(diagnostics));
}

}  // namespace feedcheck::app
