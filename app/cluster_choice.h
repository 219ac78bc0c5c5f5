// The node and storage account a workflow judges, chosen from what the user gave (--sku,
// --nic-gbps, --region, --account-kind, --account-egress-gbps, --nodes) and the knowledge base;
// and parsing those values with units, errors naming the flag. Shared by preflight, postmortem,
// egress, plan and the probes that price a listing.
#pragma once

#include <optional>
#include <string>

#include "core/fact_set.h"
#include "core/knowledge_base.h"

namespace feedcheck::app {

/// Thrown-free flag errors: the message names the flag; commands print it and exit 2.
struct FlagError {
  std::string message;
};

/// "2,000,000", "2e6" -> 2000000; rejects units, fractions and negatives.
std::optional<double> ParseCountFlag(const std::string& flag, const std::string& text,
                                     FlagError* error);
/// "1TB", "4MiB", "500 KB"; a bare number is bytes.
std::optional<double> ParseBytesFlag(const std::string& flag, const std::string& text,
                                     FlagError* error);
/// "24", "24Gbit/s", "1500 Mbit/s", "187.5 MB/s" -> Gbit/s; a bare number is Gbit/s.
std::optional<double> ParseGbpsFlag(const std::string& flag, const std::string& text,
                                    FlagError* error);
/// "12", "12ms", "0.5 s" -> milliseconds; a bare number is milliseconds.
std::optional<double> ParseMillisecondsFlag(const std::string& flag, const std::string& text,
                                            FlagError* error);
/// A positive number without unit ("3", "0.5").
std::optional<double> ParsePositiveFlag(const std::string& flag, const std::string& text,
                                        FlagError* error);

/// The node: a knowledge-base size (--sku) or a bare NIC rate (--nic-gbps overrides the size's).
struct NodeChoice {
  const VmSize* vm = nullptr;
  double nic_gbps = 0;
  bool nic_from_flag = false;
  /// A --sku the knowledge base does not know, accepted because --nic-gbps gives its rate.
  std::string unknown_sku;
};
/// Returns false with a message (near misses for an unknown size, and --nic-gbps as the way
/// on) when --sku is unknown and --nic-gbps does not give the node's rate.
bool ResolveNode(const KnowledgeBase& kb, const std::string& sku, const std::string& nic_text,
                 NodeChoice* out, FlagError* error);
/// Where the node's NIC figure came from: "--nic-gbps" or "knowledge base: FILE:LINE SIZE".
std::string NicSource(const NodeChoice& node);

/// The storage account: a knowledge-base target, chosen by --account-kind or --region, with
/// --account-egress-gbps overriding its egress.
struct AccountChoice {
  StorageTarget target;  ///< copy, egress possibly overridden
  bool from_kb = true;   ///< false when only --account-egress-gbps was given
  bool egress_from_flag = false;
  std::string region;  ///< as given
  bool listed_region = false;
  std::string assumption;  ///< what was assumed for lack of a flag ("" when nothing was)
};
bool ResolveAccount(const KnowledgeBase& kb, const std::string& region, const std::string& kind,
                    const std::string& egress_text, AccountChoice* out, FlagError* error);

/// Adds node.*, node.count, account.* facts for the choices (knowledge base or declared).
void AddChoiceFacts(const KnowledgeBase& kb, const NodeChoice& node, const AccountChoice& account,
                    int nodes, FactSet* facts);

/// Provenance of a fact a flag declared ("--nodes").
Provenance Declared(const std::string& flag);

/// "data/vm_sizes.yaml:27" for a row.
std::string RowRef(const std::string& file, int line);

/// The cluster as the user declared it (flags or a job); empty fields were not given.
struct ClusterSpec {
  std::string sku;
  std::string nic_gbps;  ///< --nic-gbps: the node's rate (a size the knowledge base lacks)
  int nodes = 0;
  std::string region;
  std::string account_kind;
  std::string account_egress;
};

struct ClusterChoice {
  NodeChoice node;
  AccountChoice account;
  bool account_given = false;  ///< --region, --account-kind or --account-egress-gbps was given
};

/// Resolves the spec against the knowledge base; false with a message naming the flag.
bool ResolveCluster(const KnowledgeBase& kb, const ClusterSpec& flags, ClusterChoice* out,
                    FlagError* error);

/// What the flags declared (node.count, node.sku, account.region, account.egress_gbps), to
/// layer over a profile.
FactSet ClusterFlagFacts(const ClusterSpec& flags, const ClusterChoice& choice);

/// Adds the knowledge base's node.* and account.* facts for the choice under `facts` (keeping
/// what is there), then the supply.* figures. The default account (a standard account in a
/// listed region) is used only when `use_default_account`, else only an account the flags
/// named.
void AddClusterKnowledge(const KnowledgeBase& kb, const ClusterChoice& choice,
                         bool use_default_account, FactSet* facts);

}  // namespace feedcheck::app
