// The diagnostic codes of the probe workflows (app/probe_*, app/preflight_workflow): one code,
// one meaning, so a script or a test can tell a bad flag from an unreachable target.
#pragma once

namespace feedcheck::app::probe_codes {

/// A flag's value is unusable (the message names the flag); exit 2.
inline constexpr const char* kBadFlag = "W101";
/// The target cannot be used as given (a path where a URL is needed, a SAS signature in argv,
/// a credential over plain http); exit 2.
inline constexpr const char* kBadTarget = "W102";
/// The credential could not be resolved (unreadable key file, no identity endpoint); exit 3.
inline constexpr const char* kCredential = "W103";
/// A safety setting the user chose that weakens the run (--insecure).
inline constexpr const char* kWeakened = "W104";
/// The probe ended other than ok (partial, failed, unreachable): its status and why.
inline constexpr const char* kProbeStatus = "W105";
/// The storage refused an anonymous request: what to set instead (SAS, identity, role).
inline constexpr const char* kAccessDenied = "W106";
/// A probe's own notes and warnings (listing incomplete, page cache not bypassed).
inline constexpr const char* kProbeNote = "W107";
/// Test data the probe wrote could not all be removed.
inline constexpr const char* kTestDataLeft = "W108";
/// The knowledge base or a VM size could not be used.
inline constexpr const char* kKnowledge = "W109";

}  // namespace feedcheck::app::probe_codes
