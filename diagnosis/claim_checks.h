// The verdict's claims checked against the timeline and facts of the same run before it is
// printed: refusals blamed for a failure must coincide with the activity that failed; "never got
// past its input" cannot be said of a job whose input was read and whose GPUs then ran; the
// findings' shares never sum past the GPU time lost; a named cause explains some of it; flags
// already given are not asked for again; a node called "not storage" read nothing. Each failure
// is a contradiction, i.e. a bug.
#pragma once

#include <string>
#include <vector>

#include "core/evidence.h"
#include "diagnosis/postmortem.h"

namespace feedcheck::diagnosis {

/// When the data-runtime lane has a failed activity and the access lane has refusals, but no
/// refusal falls within two minutes of a failed activity and the runtime named no StreamAccess
/// error: why the refusals did not end the job ("the 404s at ... came 58 min before the upload
/// that failed at ..."). "" otherwise.
std::string AccessRefusalsMissFailure(const Evidence& evidence);

/// True when an input activity (download or mount) ended in Success before `epoch_s`.
bool InputReadBefore(const Evidence& evidence, double epoch_s);

/// Every claim of `postmortem` that its own evidence contradicts, as sentences; empty when none.
std::vector<std::string> ContradictedClaims(const Postmortem& postmortem);

}  // namespace feedcheck::diagnosis
