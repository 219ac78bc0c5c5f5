// The idle ledger in words and as the summary reports keep: the headline's split of the GPU
// time lost by state ("65% refused at the account's egress limit, 31% on node-2, which read
// nothing"), shares that never say "all" below 100%, and the per-node summary.
#pragma once

#include <string>

#include "core/diagnosis_summary.h"
#include "diagnosis/idle_ledger.h"

namespace feedcheck::diagnosis {

/// A share as a percentage: "<1%" for a sliver, "99%" for anything short of the whole (never
/// a rounded "100%" that is not), "100%" for all of it.
std::string SharePercent(double fraction);

/// How the headline says where a state's time went: "refused at the account's egress limit".
std::string_view StatePhrase(IdleState s);

/// How a table names a state, in a word or two: "account egress", "own code", "not placed".
std::string_view StateLabel(IdleState s);

/// "GPUs idle 13 min 32 s of 61 min (22%), 108 GPU-minutes: 65% refused at the account's
/// egress limit, 35% waiting for the download"; "all of it ..." only when one state holds all.
std::string LedgerHeadline(const GpuTimeLost& gpu, const IdleLedger& ledger);

LedgerSummary LedgerSummaryOf(const IdleLedger& ledger, IdleState cause);

}  // namespace feedcheck::diagnosis
