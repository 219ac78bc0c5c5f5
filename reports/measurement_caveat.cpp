#include "reports/measurement_caveat.h"

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
  for (const auto& fact : finding.evidence) {
    if (fact.provenance.origin != FactOrigin::kMeasured || !MeasuresStorageTarget(fact.key))
      continue;
    return caveat.emulator ? "Rests on figures measured against a storage emulator, not Azure "
                             "storage."
                           : "Rests on figures measured against this machine (loopback), not "
                             "Azure storage.";
  }
  return "";
}

}  // namespace feedcheck
