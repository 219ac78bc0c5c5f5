// `cleanup`: removes the test data a --create-test-data run left behind when it could not clean
// up (kill -9, a lost node). Only blobs under this tool's own feedcheck-test-* prefixes, and only
// after the whole listing was read (probes/leftover_test_data); a dry run deletes nothing.
#pragma once

#include "app/outcome.h"
#include "app/probe_session.h"

namespace feedcheck::app {

struct CleanupRequest {
  ProbeSessionRequest session;  ///< the container, credential and budget (--duration 10min)
  bool dry_run = false;
  int max_pages = 1000;  ///< listing pages of up to 5,000 blobs
  bool force = false;    ///< also prefixes from the last 24 hours (a run may still use them)
};

/// The Report ("Cleanup") has the counts in `result` (prefixes, blobs_found, blobs_deleted,
/// delete_failures, listing_complete, dry_run and the run's status) and one row per prefix found
/// in the "Test-data prefixes" table (left out when there is none). Refused anonymously: a note
/// with the next step (the credential to set). The budget statement goes to `callbacks` before the
/// first request. Status: kOk when everything found was removed, recent prefixes skipped on purpose
/// aside (or nothing was found, or a dry run read the whole listing); kProbeFailed when something
/// was left or the listing was cut short; kInputError when the container cannot be reached; kUsage
/// for a bad flag or target.
Outcome RunCleanup(const CleanupRequest& request, const ProbeCallbacks& callbacks = {});

}  // namespace feedcheck::app
