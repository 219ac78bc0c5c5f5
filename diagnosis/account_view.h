// What the storage account showed a post-mortem, from every source that saw it (the nodes'
// data-runtime logs, the account's metrics, its limits): whether it throttled, how far below its
// limits it ran, and whether a capacity finding describes this job at all.
#pragma once

#include <optional>
#include <string>

#include "core/fact_set.h"
#include "core/finding.h"

namespace feedcheck::diagnosis {

struct AccountView {
  bool have_metrics = false;
  bool have_rslex = false;
  double log_throttled = 0;  // per-node logs, any kind
  double log_server_busy = 0;
  double metrics_throttled = 0;  // account-wide
  double metrics_server_busy = 0;
  std::optional<double> egress_peak, egress_limit, requests_peak, requests_limit;

  bool EgressFarBelowLimit() const {
    return egress_peak && egress_limit && *egress_limit > 0 && *egress_peak < 0.5 * *egress_limit;
  }
  bool RequestsFarBelowLimit() const {
    return requests_peak && requests_limit && *requests_limit > 0 &&
           *requests_peak < 0.5 * *requests_limit;
  }
  // The account demonstrably was not the limit: metrics read, no throttling anywhere, and
  // egress (when its limit is known) far below it.
  bool Cleared() const {
    return have_metrics && log_throttled == 0 && metrics_throttled == 0 &&
           (!egress_limit || EgressFarBelowLimit());
  }
};

/// What `facts` say about the account.
AccountView ViewAccount(const FactSet& facts);

/// The account served the job fast: its metrics were read, nothing was refused, egress (and
/// requests, when their limit is known) stayed far below the limits, and requests spent about
/// as long end to end as in the service.
bool StorageServedFast(const AccountView& account, const FactSet& facts);

/// Why a capacity finding (arithmetic on paper) does not describe this job, or "".
std::string Contradiction(const Finding& finding, const AccountView& account);

}  // namespace feedcheck::diagnosis
