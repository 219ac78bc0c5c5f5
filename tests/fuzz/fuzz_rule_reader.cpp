// libFuzzer target: a whole rules file (YAML reader, compiler, templates) on any bytes, then an
// evaluation of whatever compiled. Must never crash or hang.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rules/rule_set.h"

using namespace feedcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  rules::RuleSet set;
  DiagnosticList diagnostics;
  set.LoadText("fuzz.yaml", std::move(text), &diagnostics);
  for (const auto& d : diagnostics.kept()) (void)FormatDiagnostic(d);
  FactSet facts;
  facts.Set(NumberFact("node.count", 12, Unit::kCount, {}));
  facts.Set(NumberFact("dataset.median_file_bytes", 500e3, Unit::kBytes, {}));
  (void)set.Evaluate(facts);
  return 0;
}
