#include "diagnosis/account_view.h"

#include <fmt/format.h>

namespace feedcheck::diagnosis {
// The account served the job fast: its metrics were read, nothing was refused, egress (and
// requests, when their limit is known) stayed far below the limits, and requests spent about
// as long end to end as in the service (the guide's sign of a client starved of threads or
// CPU is end-to-end latency far above the server's).
bool StorageServedFast(const AccountView& a, const FactSet& facts) {
  if (!a.Cleared() || !a.egress_limit) return false;
  if (a.requests_limit && a.requests_peak && !a.RequestsFarBelowLimit()) return false;
  auto e2e = facts.Number("metrics.e2e_latency_ms");
  auto server = facts.Number("metrics.server_latency_ms");
  if (!e2e || !server) return false;
  return !(*e2e > 2 * *server && *e2e - *server > 20);
}

AccountView ViewAccount(const FactSet& facts) {
  AccountView v;
  for (const auto& [key, fact] : facts) {
    if (!fact.is_number()) continue;
    if (key.rfind("metrics.", 0) == 0) v.have_metrics = true;
    if (key == "runtime.non_success_responses" || key == "runtime.retries") v.have_rslex = true;
    if (key.rfind("runtime.throttled.", 0) == 0) v.log_throttled += fact.number();
  }
  v.log_server_busy = facts.NumberOr("runtime.throttled.server_busy", 0);
  v.metrics_throttled = facts.NumberOr("metrics.throttled_total", 0);
  v.metrics_server_busy = facts.NumberOr("metrics.throttled.ServerBusyError", 0);
  v.egress_peak = facts.Number("metrics.egress_gbps_peak");
  v.egress_limit = facts.Number("account.egress_gbps");
  v.requests_peak = facts.Number("metrics.requests_per_s_peak");
  v.requests_limit = facts.Number("account.requests_per_s");
  return v;
}

// Why a capacity finding (arithmetic on paper) does not describe this job, or "".
std::string Contradiction(const Finding& f, const AccountView& a) {
  if (f.basis != FindingBasis::kCapacity) return "";
  if (f.bottleneck == Bottleneck::kAccountEgress && a.EgressFarBelowLimit() &&
      a.log_throttled == 0 && a.metrics_throttled == 0)
    return fmt::format(
        "egress peaked at {:.1f} Gbit/s, far below the account's {:.0f}, with no "
        "throttling",
        *a.egress_peak, *a.egress_limit);
  if (f.bottleneck == Bottleneck::kRequestRate && a.RequestsFarBelowLimit() &&
      a.log_throttled == 0 && a.metrics_throttled == 0)
    return fmt::format(
        "transactions peaked at {:.0f}/s, far below the account's {:.0f}/s, with "
        "no throttling",
        *a.requests_peak, *a.requests_limit);
  return "";
}

}  // namespace feedcheck::diagnosis
