// What the probed target itself says about the figures measured against it: a loopback host or
// a storage emulator (Azurite) measures this machine, not an Azure storage account. Facts, so
// the mark travels with the measurements into saved results and post-mortems (--with).
#pragma once

#include "core/fact_set.h"
#include "transport/target.h"

namespace feedcheck {

/// Sets target.loopback and target.emulator (measured) for a storage or http target; nothing
/// for a local path.
void AddTargetFacts(const Target& target, FactSet* facts);

/// Azurite's well-known development account: a URL naming it is an emulator wherever it runs.
inline constexpr const char* kEmulatorAccount = "devstoreaccount1";

}  // namespace feedcheck
