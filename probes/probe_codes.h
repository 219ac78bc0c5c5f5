// Diagnostic codes of the probes' own notes (P1xx preflight stages, P3xx listing, P4xx disk,
// P5xx NIC, P6xx small files), in one place so each code keeps one meaning and tests compare
// through the names. The probe workflows' codes (bad flag, probe status) are W1xx in
// app/probe_messages.h. Codes are user-visible and stable.
#pragma once

namespace feedcheck {

/// note: a local path target skips the storage-protocol stages (latency, throughput).
inline constexpr const char* kCodeStagesSkippedOnPath = "P101";
/// warning: the listing stopped early (budget, page limit, Ctrl-C); the message says why.
inline constexpr const char* kCodeListingIncomplete = "P301";
/// warning: entries of a local listing could not be read or stat'ed.
inline constexpr const char* kCodeEntriesUnreadable = "P302";
/// note: what the disk probe learnt about the device (RAID, cache, ephemeral disk).
inline constexpr const char* kCodeDiskDeviceNote = "P401";
/// warning: the block device under the path could not be identified.
inline constexpr const char* kCodeDiskDeviceUnknown = "P402";
/// note: how the disk was written (page cache not bypassed, O_DIRECT refused).
inline constexpr const char* kCodeDiskWriteNote = "P403";
/// note: the NIC reports no link speed (a virtual NIC).
inline constexpr const char* kCodeNicNoLinkSpeed = "P501";
/// warning: a synthetic NIC without an accelerated-networking VF.
inline constexpr const char* kCodeNicNotAccelerated = "P502";
/// warning: the link is slower than the VM size's bandwidth.
inline constexpr const char* kCodeNicBelowVmSize = "P503";
/// warning: read times did not grow with object size, so no overhead/bandwidth fit.
inline constexpr const char* kCodeSmallFilesNoFit = "P601";
/// note: how one object size was read (whole objects or ranged reads, how many).
inline constexpr const char* kCodeSmallFilesSizePlan = "P602";

}  // namespace feedcheck
