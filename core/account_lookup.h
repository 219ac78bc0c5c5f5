// The one place a storage account's limits are looked up from a region and/or a storage
// target name, for every command: `egress`, `plan`, `preflight`, `postmortem` (flags) and
// `advise`/`lint` (a profile's `region:` and `account:`). Same inputs, same limits.
#pragma once

#include <string>
#include <string_view>

#include "core/knowledge_base.h"

namespace feedcheck {

struct AccountLookup {
  std::string region;  ///< as written, may be empty
  std::string kind;    ///< storage target name (--account-kind, profile `account:`), may be empty
  /// The user gave the egress limit (--account-egress-gbps, profile account_limits.egress): an
  /// unknown region is then no error, since its limit is not needed.
  bool egress_given = false;
};

struct AccountLookupResult {
  const StorageTarget* target = nullptr;  ///< null when neither region nor kind was given
  bool listed_region = false;
  std::string error;          ///< unknown target or region, with "did you mean"; empty when fine
  bool region_error = false;  ///< the error is about the region (else the target name)
};

/// `standard_gpv2` with a region is the standard account of that region (listed regions get
/// the higher limits); a region alone means that; another target name is taken as it is. An
/// unknown region is an error unless the egress was given or a target other than standard
/// GPv2 was named (its limits do not depend on the region).
AccountLookupResult LookUpAccount(const KnowledgeBase& kb, const AccountLookup& lookup);

}  // namespace feedcheck
