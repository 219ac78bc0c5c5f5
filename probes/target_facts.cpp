#include "probes/target_facts.h"

#include "core/redact.h"

namespace feedcheck {

void AddTargetFacts(const Target& target, FactSet* facts) {
  if (target.kind == TargetKind::kLocalPath) return;
  Provenance p{FactOrigin::kMeasured, "probe target " + RedactUrl(target.Display())};
  bool emulator = target.kind == TargetKind::kEmulator || target.account == kEmulatorAccount;
  facts->Set(BoolFact("target.loopback", target.IsLoopback(), p));
  facts->Set(BoolFact("target.emulator", emulator, p));
}

}  // namespace feedcheck
