// Places each idle GPU interval of a node in one state of the ledger, from the evidence on that
// node at that time: refusals and the limit they hit, writes, downloads and mounts, the read rate
// against the NIC, the latency cap and the mount's cache, and the job's own stops. It measures
// first what of the account's traffic was other clients'.
#pragma once

#include <memory>
#include <vector>

#include "core/evidence.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/ledger_unit.h"

namespace feedcheck::diagnosis::ledger {

class Placer {
 public:
  Placer(const Evidence& job, const LedgerJudgement& j, const std::vector<LedgerUnit>& units);
  ~Placer();
  Placer(const Placer&) = delete;
  Placer& operator=(const Placer&) = delete;

  /// The account's Egress that was surely not the job's (Gbit/s).
  double others_gbps() const;
  /// The state that held unit `u`'s GPUs at `t` (epoch s).
  IdleState Place(const LedgerUnit& u, double t) const;
  /// At `t`, a mount (not a download) served unit `u` from its own cache: the node's log shows
  /// no read then, and the account served next to nothing or the log was silent for minutes.
  bool FromCache(const LedgerUnit& u, double t) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace feedcheck::diagnosis::ledger
