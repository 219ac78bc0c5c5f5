// What the job's evidence says as a whole, before the idle ledger places each interval: whether
// and when the job failed on access, which limit its refusals hit, what held the reads that
// were not refused (a capped cache, request latency, nothing: storage served fast), and the
// limits a read rate is measured against. One reading, from the findings that describe this
// job and the facts; the ledger then charges each node's idle time by when it fell.
#pragma once

#include <vector>

#include "core/evidence.h"
#include "core/finding.h"
#include "diagnosis/account_view.h"
#include "diagnosis/idle_ledger.h"
#include "diagnosis/idle_nodes.h"

namespace feedcheck::diagnosis {

/// `findings`: the rules' findings, those that do not describe this job already marked
/// secondary; `idle_nodes`: nodes whose GPUs idled while their own log shows no read.
LedgerJudgement JudgeEvidence(const Evidence& evidence, const std::vector<Finding>& findings,
                              const AccountView& account,
                              const std::vector<IdleNodeReadingNothing>& idle_nodes);

/// Requests took far longer end to end than in the service (the client's network path: a
/// distant region, a congested link), from the account's latency metrics; or, without them
/// showing it, the account is in another region than the compute.
bool LatencyDwarfsServer(const FactSet& facts);

/// The account's latency metrics alone: end to end over twice the service's time and 20 ms
/// more.
bool EndToEndDwarfsServer(const FactSet& facts);

}  // namespace feedcheck::diagnosis

namespace feedcheck::diagnosis {

/// The job read none of its input: every input activity (download, mount) that ended failed,
/// or the data runtime gave up retrying without a single read. Whatever the error looked like
/// (a 403, a name that did not resolve, a refused connection), storage access failed. Without
/// the runtime's log: the account's metrics show no byte served while it answered requests
/// with client errors (403s, 404s), and the GPUs idled throughout.
bool InputNeverRead(const Evidence& evidence);

/// An input activity failed where the data runtime said the node's local disk was full ("No
/// space left on device"): the input did not fit it (a download), or the job's own files
/// filled it. Not an access failure: storage served what was asked.
bool InputFailedOnFullDisk(const Evidence& evidence);

/// The critical finding for it, with the mode to use and the disk it outgrew.
Finding FullDiskFinding(const Evidence& evidence);

/// The critical finding for a job that never read its input when no rule named the failure
/// (no HTTP status to match): its evidence, what the logs showed, and the next step.
Finding NeverReadFinding(const Evidence& evidence);

}  // namespace feedcheck::diagnosis
