#include "core/account_lookup.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace feedcheck {

AccountLookupResult LookUpAccount(const KnowledgeBase& kb, const AccountLookup& lookup) {
  AccountLookupResult out;
  const StorageTarget* named = nullptr;
  if (!lookup.kind.empty()) {
    named = kb.FindTarget(lookup.kind);
    if (!named) {
      auto near = kb.SuggestTarget(lookup.kind);
      std::vector<std::string> all;
      for (const auto& t : kb.targets()) all.push_back(t.name);
      out.error =
          fmt::format("unknown storage target '{}'; {}", lookup.kind,
                      near.empty() ? fmt::format("known: {}", fmt::join(all, ", "))
                                   : fmt::format("did you mean {}?", fmt::join(near, ", ")));
      return out;
    }
  }
  // An ADLS Gen2 account is a standard GPv2 account with a hierarchical namespace: the same
  // scalability targets, so its region decides them as for any standard account.
  const bool standard_named = named && (named->name == KnowledgeBase::kStandardListed ||
                                        named->name == KnowledgeBase::kAdlsGen2);
  const bool region_decides = !lookup.region.empty() && (!named || standard_named);
  if (region_decides && !kb.IsKnownRegion(lookup.region) && !lookup.egress_given) {
    auto near = kb.SuggestRegion(lookup.region);
    out.region_error = true;
    out.error = fmt::format(
        "unknown region '{}'{}; the account's limits depend on the region: give a known region, "
        "or the limit itself with --account-egress-gbps (account_limits: egress: in a profile)",
        lookup.region,
        near.empty() ? "" : fmt::format(" (did you mean {}?)", fmt::join(near, ", ")));
    return out;
  }
  out.listed_region = !lookup.region.empty() && kb.IsListedRegion(lookup.region);
  // An unknown region with the egress given: nothing from the knowledge base (its request
  // limit is as unknown as its egress was).
  if (region_decides && !kb.IsKnownRegion(lookup.region)) return out;
  if (region_decides)
    out.target = &kb.TargetForRegion(lookup.region);
  else if (named)
    out.target = named;
  return out;
}

}  // namespace feedcheck
