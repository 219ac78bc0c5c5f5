#include "core/measurement_caveat.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "diagnosis/evidence_sources.h"
#include "reports/reporter.h"

using namespace feedcheck;

namespace {

Provenance Measured() { return {FactOrigin::kMeasured, "probe target http://127.0.0.1:10000/x"}; }

FactSet TargetFacts(bool loopback, bool emulator) {
  FactSet f;
  f.Set(BoolFact("target.loopback", loopback, Measured()));
  f.Set(BoolFact("target.emulator", emulator, Measured()));
  return f;
}

Finding Resting(const std::string& key) {
  Finding f;
  f.rule_id = "r";
  f.title = "t";
  f.severity = Severity::kWarning;
  f.evidence.push_back(NumberFact(key, 1, Unit::kGbps, Measured()));
  return f;
}

}  // namespace

TEST_CASE("the caveat comes from the target facts", "[reports][caveat]") {
  CHECK_FALSE(CaveatOf(FactSet()).any());
  CHECK_FALSE(CaveatOf(TargetFacts(false, false)).any());
  MeasurementCaveat loop = CaveatOf(TargetFacts(true, false));
  CHECK(loop.loopback);
  CHECK(loop.banner.find("this machine (loopback)") != std::string::npos);
  MeasurementCaveat emu = CaveatOf(TargetFacts(true, true));
  CHECK(emu.emulator);
  CHECK(emu.banner.find("storage emulator") != std::string::npos);
}

TEST_CASE("only findings resting on storage-target figures are marked", "[reports][caveat]") {
  MeasurementCaveat emu = CaveatOf(TargetFacts(true, true));
  CHECK_FALSE(FindingCaveat(Resting("probe.throughput.gbps"), emu).empty());
  CHECK_FALSE(FindingCaveat(Resting("preflight.requests"), emu).empty());
  // The node's own disk and NIC are measured the same whatever the target.
  CHECK(FindingCaveat(Resting("probe.disk.read_gbps"), emu).empty());
  CHECK(FindingCaveat(Resting("probe.nic.link_gbps"), emu).empty());
  CHECK(FindingCaveat(Resting("metrics.egress_gbps_peak"), emu).empty());
  // Beside another source, the note names the suspect figures instead.
  Finding mixed = Resting("probe.errors.throttled_egress");
  mixed.evidence.push_back(NumberFact("runtime.throttled.egress", 368, Unit::kCount,
                                      {FactOrigin::kObserved, "rslex.log"}));
  mixed.evidence.push_back(
      NumberFact("account.egress_gbps", 200, Unit::kGbps, {FactOrigin::kKnowledge, "kb"}));
  CHECK(FindingCaveat(mixed, emu) ==
        "Part of its evidence (probe.errors.throttled_egress) was measured against a storage "
        "emulator, not Azure storage.");
  CHECK(FindingCaveat(Resting("probe.throughput.gbps"), emu) ==
        "Rests on figures measured against a storage emulator, not Azure storage.");
  // A real target marks nothing.
  CHECK(FindingCaveat(Resting("probe.throughput.gbps"), CaveatOf(FactSet())).empty());
}

TEST_CASE("emulator probe figures are no agreeing source", "[reports][caveat][diagnosis]") {
  Fact probe = NumberFact("probe.throughput.gbps", 7.5, Unit::kGbps, Measured());
  using diagnosis::SourceKind;
  CHECK(diagnosis::SourcesOf(probe).count(SourceKind::kProbe) == 1);
  CHECK(diagnosis::SourcesOf(probe, /*probes_saw_storage=*/false).empty());
  // The NIC probe still counts: it measured this node, not the target.
  Fact nic = NumberFact("probe.nic.link_gbps", 100, Unit::kGbps, Measured());
  CHECK(diagnosis::SourcesOf(nic, false).count(SourceKind::kProbe) == 1);
}

TEST_CASE("every format carries the caveat in its banner and on the finding", "[reports][caveat]") {
  Report r;
  r.title = "Pre-flight check";
  r.verdict = "at risk";
  r.verdict_level = VerdictLevel::kWarning;
  r.evidence.facts = TargetFacts(true, true);
  r.findings.push_back(Resting("probe.throughput.gbps"));
  for (const char* format : {"term", "md", "html", "json"}) {
    std::ostringstream out;
    MakeReporter(format)->Render(r, out);
    std::string text = out.str();
    INFO(format << "\n" << text);
    size_t banner = text.find("measured against a storage emulator (Azurite)");
    CHECK(banner != std::string::npos);
    CHECK(text.find("Rests on figures measured against a storage emulator") != std::string::npos);
  }
}
