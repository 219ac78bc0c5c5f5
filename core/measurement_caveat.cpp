#include "core/measurement_caveat.h"

#include <fmt/format.h>

#include <vector>

namespace feedcheck {

namespace {
bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
}  // namespace

MeasurementCaveat CaveatOf(const FactSet& facts) {
  MeasurementCaveat c;
  c.loopback = facts.Bool("target.loopback").value_or(false);
  c.emulator = facts.Bool("target.emulator").value_or(false);
  if (c.emulator)
    c.banner =
        "Probe figures were measured against a storage emulator (Azurite), not an Azure storage "
        "account: they say nothing about the account's limits or latency.";
  else if (c.loopback)
    c.banner =
        "Probe figures were measured against this machine (loopback), not an Azure storage "
        "account: they describe this host, not the storage.";
  return c;
}

bool MeasuresStorageTarget(std::string_view key) {
  if (StartsWith(key, "preflight.")) return true;
  if (!StartsWith(key, "probe.")) return false;
  // The node's own hardware is measured the same whatever the target.
  return !StartsWith(key, "probe.disk.") && !StartsWith(key, "probe.nic.");
}

std::string FindingCaveat(const Finding& finding, const MeasurementCaveat& caveat) {
  if (!caveat.any()) return "";
  std::vector<std::string> suspect;
  size_t other_sources = 0;
  for (const auto& fact : finding.evidence) {
    FactOrigin origin = fact.provenance.origin;
    if (origin == FactOrigin::kDeclared || origin == FactOrigin::kKnowledge) continue;
    if (origin == FactOrigin::kMeasured && MeasuresStorageTarget(fact.key))
      suspect.push_back(fact.key);
    else
      ++other_sources;
  }
  if (suspect.empty()) return "";
  const char* where = caveat.emulator ? "a storage emulator" : "this machine (loopback)";
  if (other_sources == 0)
    return fmt::format("Rests on figures measured against {}, not Azure storage.", where);
  return fmt::format("Part of its evidence ({}) was measured against {}, not Azure storage.",
                     fmt::join(suspect, ", "), where);
}

}  // namespace feedcheck
