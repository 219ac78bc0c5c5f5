#include "app/cluster_choice.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "core/account_lookup.h"
#include "core/declared_bounds.h"
#include "core/supply_model.h"
#include "core/units.h"

namespace feedcheck::app {
namespace {

std::nullopt_t Bad(FlagError* error, const std::string& flag, const std::string& why) {
  error->message = fmt::format("{}: {}", flag, why);
  return std::nullopt;
}

}  // namespace

std::optional<double> ParseCountFlag(const std::string& flag, const std::string& text,
                                     FlagError* error) {
  std::string why;
  auto q = ParseQuantity(text, &why);
  if (!q) return Bad(error, flag, why);
  if (q->unit != Unit::kCount)
    return Bad(error, flag, fmt::format("'{}' should be a plain count", text));
  if (q->value < 0) return Bad(error, flag, fmt::format("'{}' is negative", text));
  if (q->value != std::floor(q->value) || q->value > 1e15)
    return Bad(error, flag, fmt::format("'{}' should be a whole number", text));
  return q->value;
}

std::optional<double> ParseBytesFlag(const std::string& flag, const std::string& text,
                                     FlagError* error) {
  std::string why;
  auto v = ParseBytes(text, &why);
  if (!v) return Bad(error, flag, why);
  return v;
}

std::optional<double> ParseGbpsFlag(const std::string& flag, const std::string& text,
                                    FlagError* error) {
  std::string why;
  auto q = ParseQuantity(text, &why);
  if (!q) return Bad(error, flag, why);
  if (q->unit == Unit::kCount) {
    if (q->value < 0) return Bad(error, flag, fmt::format("'{}' is negative", text));
    return q->value;  // the flag's name carries the unit
  }
  auto bps = ParseBitsPerSecond(text, &why);
  if (!bps) return Bad(error, flag, why);
  if (*bps < 0) return Bad(error, flag, fmt::format("'{}' is negative", text));
  return *bps / 1e9;
}

std::optional<double> ParseMillisecondsFlag(const std::string& flag, const std::string& text,
                                            FlagError* error) {
  std::string why;
  auto q = ParseQuantity(text, &why);
  if (!q) return Bad(error, flag, why);
  double ms = q->value;
  if (q->unit != Unit::kCount) {
    auto converted = Convert(q->value, q->unit, Unit::kMilliseconds);
    if (!converted) return Bad(error, flag, fmt::format("'{}' is not a duration", text));
    ms = *converted;
  }
  if (ms < 0) return Bad(error, flag, fmt::format("'{}' is negative", text));
  return ms;
}

std::optional<double> ParsePositiveFlag(const std::string& flag, const std::string& text,
                                        FlagError* error) {
  std::string why;
  auto q = ParseQuantity(text, &why);
  if (!q) return Bad(error, flag, why);
  if (q->unit != Unit::kCount)
    return Bad(error, flag, fmt::format("'{}' should be a plain number", text));
  if (!(q->value > 0)) return Bad(error, flag, fmt::format("'{}' must be above 0", text));
  return q->value;
}

bool ResolveNode(const KnowledgeBase& kb, const std::string& sku, const std::string& nic_text,
                 NodeChoice* out, FlagError* error) {
  NodeChoice n;
  if (!sku.empty()) {
    n.vm = kb.FindVm(sku);
    if (!n.vm && nic_text.empty()) {
      auto near = kb.SuggestVm(sku);
      std::string hint = near.empty() ? "run `feedcheck egress --all` for the known sizes"
                                      : fmt::format("did you mean {}?", fmt::join(near, ", "));
      error->message = fmt::format(
          "--sku: unknown VM size '{}'; {} (for a size the knowledge base does not know, give "
          "its rate with --nic-gbps, or add it with --kb FILE)",
          sku, hint);
      return false;
    }
    // A size newer than the knowledge base: its rate is all the sizing needs.
    if (!n.vm) n.unknown_sku = sku;
    if (n.vm) n.nic_gbps = n.vm->nic_gbps;
  }
  if (!nic_text.empty()) {
    auto v = ParseGbpsFlag("--nic-gbps", nic_text, error);
    if (!v) return false;
    if (auto problem = DeclaredValueProblem("node.nic_gbps", *v, Unit::kGbps)) {
      error->message = "--nic-gbps: " + *problem;
      return false;
    }
    n.nic_gbps = *v;
    n.nic_from_flag = true;
  }
  *out = n;
  return true;
}

std::string NicSource(const NodeChoice& node) {
  return node.nic_from_flag || !node.vm
             ? std::string("--nic-gbps")
             : "knowledge base: " + RowRef(node.vm->file, node.vm->line) + " " + node.vm->name;
}

bool ResolveAccount(const KnowledgeBase& kb, const std::string& region, const std::string& kind,
                    const std::string& egress_text, AccountChoice* out, FlagError* error) {
  AccountChoice a;
  a.region = region;
  // The same lookup as a profile's region: and account: (core/account_lookup.h).
  AccountLookupResult found = LookUpAccount(kb, AccountLookup{region, kind, !egress_text.empty()});
  if (!found.error.empty()) {
    error->message =
        fmt::format("{}: {}", found.region_error ? "--region" : "--account-kind", found.error);
    return false;
  }
  a.listed_region = found.listed_region;
  if (found.target) {
    a.target = *found.target;
  } else if (!region.empty()) {
    // An unknown region with --account-egress-gbps: the flag's limit, nothing from the base.
    a.from_kb = false;
    a.target = StorageTarget{};
    a.target.name = "custom";
    a.target.source = "--account-egress-gbps";
  } else if (egress_text.empty()) {
    a.target = kb.TargetForRegion("eastus");
    a.assumption =
        "no --region: assuming a standard GPv2 account in a listed region (200 Gbit/s egress); "
        "give --region or --account-egress-gbps";
  }
  if (!egress_text.empty()) {
    auto v = ParseGbpsFlag("--account-egress-gbps", egress_text, error);
    if (!v) return false;
    if (auto problem = DeclaredValueProblem("account.egress_gbps", *v, Unit::kGbps)) {
      error->message = "--account-egress-gbps: " + *problem;
      return false;
    }
    if (kind.empty() && region.empty()) {
      a.from_kb = false;
      a.target = StorageTarget{};
      a.target.name = "custom";
      a.target.kind = "";
      a.target.source = "--account-egress-gbps";
    }
    a.target.egress_gbps = *v;
    a.egress_from_flag = true;
  }
  *out = a;
  return true;
}

void AddChoiceFacts(const KnowledgeBase& kb, const NodeChoice& node, const AccountChoice& account,
                    int nodes, FactSet* facts) {
  if (node.vm) kb.AddNodeFacts(*node.vm, facts);
  if (node.nic_from_flag)
    facts->Set(NumberFact("node.nic_gbps", node.nic_gbps, Unit::kGbps, Declared("--nic-gbps")));
  if (nodes > 0) facts->Set(NumberFact("node.count", nodes, Unit::kCount, Declared("--nodes")));
  if (account.from_kb) kb.AddAccountFacts(account.target, facts);
  if (account.egress_from_flag)
    facts->Set(NumberFact("account.egress_gbps", account.target.egress_gbps, Unit::kGbps,
                          Declared("--account-egress-gbps")));
  if (!account.region.empty())
    facts->Set(TextFact("account.region", account.region, Declared("--region")));
}

Provenance Declared(const std::string& flag) {
  Provenance p;
  p.origin = FactOrigin::kDeclared;
  p.source = flag;
  return p;
}

std::string RowRef(const std::string& file, int line) { return fmt::format("{}:{}", file, line); }

bool ResolveCluster(const KnowledgeBase& kb, const ClusterSpec& flags, ClusterChoice* out,
                    FlagError* error) {
  ClusterChoice c;
  if ((!flags.sku.empty() || !flags.nic_gbps.empty()) &&
      !ResolveNode(kb, flags.sku, flags.nic_gbps, &c.node, error))
    return false;
  if (!ResolveAccount(kb, flags.region, flags.account_kind, flags.account_egress, &c.account,
                      error))
    return false;
  c.account_given =
      !flags.region.empty() || !flags.account_kind.empty() || !flags.account_egress.empty();
  *out = c;
  return true;
}

FactSet ClusterFlagFacts(const ClusterSpec& flags, const ClusterChoice& choice) {
  FactSet f;
  if (flags.nodes > 0)
    f.Set(NumberFact("node.count", flags.nodes, Unit::kCount, Declared("--nodes")));
  if (!flags.sku.empty()) f.Set(TextFact("node.sku", flags.sku, Declared("--sku")));
  // Before the knowledge base is asked about the size: a size it does not know is sized from
  // the rate given.
  if (choice.node.nic_from_flag)
    f.Set(NumberFact("node.nic_gbps", choice.node.nic_gbps, Unit::kGbps, Declared("--nic-gbps")));
  if (!flags.region.empty()) f.Set(TextFact("account.region", flags.region, Declared("--region")));
  if (choice.account.egress_from_flag)
    f.Set(NumberFact("account.egress_gbps", choice.account.target.egress_gbps, Unit::kGbps,
                     Declared("--account-egress-gbps")));
  return f;
}

void AddClusterKnowledge(const KnowledgeBase& kb, const ClusterChoice& choice,
                         bool use_default_account, FactSet* facts) {
  AccountChoice account = choice.account;
  if (!choice.account_given && !use_default_account) account.from_kb = false;
  FactSet known;
  AddChoiceFacts(kb, choice.node, account, 0, &known);
  facts->Merge(known, /*keep_existing=*/true);
  AddSupplyFacts(facts);
}

}  // namespace feedcheck::app
