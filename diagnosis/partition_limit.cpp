#include "diagnosis/partition_limit.h"

#include <fmt/format.h>

#include <optional>

namespace feedcheck::diagnosis {

namespace {

std::optional<double> Number(const FactSet& facts, const std::string& key) {
  const Fact* f = facts.Find(key);
  return f && f->is_number() ? std::optional<double>(f->number()) : std::nullopt;
}

double Count(const FactSet& facts, const std::string& key) {
  return Number(facts, key).value_or(0);
}

}  // namespace

PartitionLimit PartitionTargetHit(const FactSet& facts) {
  PartitionLimit out;
  double refused = Count(facts, "metrics.throttled_total");
  for (const auto& [key, fact] : facts)
    if (key.rfind("runtime.throttled.", 0) == 0 && fact.is_number()) refused += fact.number();
  if (refused <= 0) return out;
  // A ResponseType that names an account limit settles it the other way.
  if (Count(facts, "metrics.throttled.ClientAccountBandwidthThrottlingError") > 0 ||
      Count(facts, "metrics.throttled.ClientAccountRequestThrottlingError") > 0 ||
      Count(facts, "runtime.throttled.egress") > 0 ||
      Count(facts, "runtime.throttled.ingress") > 0 ||
      Count(facts, "runtime.throttled.requests") > 0)
    return out;
  auto egress = Number(facts, "metrics.egress_gbps_peak");
  auto egress_limit = Number(facts, "account.egress_gbps");
  auto requests = Number(facts, "metrics.requests_per_s_peak");
  auto requests_limit = Number(facts, "account.requests_per_s");
  if (!egress || !egress_limit || !requests || !requests_limit || *egress_limit <= 0 ||
      *requests_limit <= 0)
    return out;
  if (*egress >= 0.5 * *egress_limit || *requests >= 0.5 * *requests_limit) return out;
  out.applies = true;
  out.confirmed = Count(facts, "metrics.bloblog.throttled") > 0;
  out.figures = fmt::format(
      "egress peaked at {:.1f} of the account's {:.0f} Gbit/s and transactions at {:.0f} of "
      "its {:.0f}/s",
      *egress, *egress_limit, *requests, *requests_limit);
  return out;
}

}  // namespace feedcheck::diagnosis
