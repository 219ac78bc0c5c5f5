// Which independent source a fact rests on: the data runtime's logs, the storage account's
// metrics, the GPU samples, a probe or the job's own definition (the settings it ran with, from
// job.yml or job.json in its folder). A verdict is "confirmed" only when two of them agree, so
// other declared and knowledge-base facts (flags, a profile: what someone wrote down about the
// job) are no source at all.
#pragma once

#include <set>
#include <string_view>

#include "core/fact.h"

namespace feedcheck::diagnosis {

enum class SourceKind { kDataRuntimeLog, kStorageMetrics, kGpuSamples, kProbe, kJobDefinition };

std::string_view SourceKindName(SourceKind kind);

/// The sources behind `fact` (a fact joining two, like the GPU time lost during the download,
/// rests on both). Empty for declared, knowledge and computed facts. `probes_saw_storage` is
/// false when the probes measured a loopback host or an emulator (reports/measurement_caveat.h):
/// their storage figures then describe that machine and confirm nothing about the account.
std::set<SourceKind> SourcesOf(const Fact& fact, bool probes_saw_storage = true);

}  // namespace feedcheck::diagnosis
