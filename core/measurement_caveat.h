// Whether a result's probe figures were measured against this machine (a loopback host) or a
// storage emulator, read from the target.loopback / target.emulator facts the probes set. Every
// format puts the caveat in its verdict banner and marks each finding that rests on such figures,
// also after the figures were merged into a post-mortem (--with).
#pragma once

#include <string>
#include <string_view>

#include "core/fact_set.h"
#include "core/finding.h"

namespace feedcheck {

struct MeasurementCaveat {
  bool loopback = false;
  bool emulator = false;
  bool any() const { return loopback || emulator; }
  /// One sentence for the verdict banner; "" when the target was real storage.
  std::string banner;
};

MeasurementCaveat CaveatOf(const FactSet& facts);

/// Whether `key` is a figure about the probed storage target (throughput, latency, listing,
/// small files, the pre-flight's requests), as opposed to this node's own disk or NIC.
bool MeasuresStorageTarget(std::string_view key);

/// The note for a finding resting on such figures ("" when it does not or the target was real):
/// "Rests on ..." when its only observed or measured evidence is about the storage target, else
/// "Part of its evidence (keys) ...".
std::string FindingCaveat(const Finding& finding, const MeasurementCaveat& caveat);

}  // namespace feedcheck
