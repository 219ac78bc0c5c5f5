// libFuzzer target: the condition language (lexer, parser, type checker, evaluator) on any
// bytes. Must never crash, hang or recurse without bound; errors are fine.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/fact_registry.h"
#include "rules/condition_parser.h"
#include "rules/evaluator.h"
#include "rules/type_checker.h"

using namespace feedcheck;
using namespace feedcheck::rules;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ParseError error;
  ExprPtr expr = ParseCondition(text, &error);
  if (!expr) return 0;
  std::vector<CheckError> errors;
  if (!CheckExpression(*expr, FactRegistry::Builtin(), &errors)) return 0;
  static const FactSet facts = [] {
    FactSet f;
    f.Set(NumberFact("node.count", 12, Unit::kCount, {}));
    f.Set(NumberFact("node.nic_gbps", 24, Unit::kGbps, {}));
    f.Set(NumberFact("dataset.bytes", 0, Unit::kBytes, {}));
    f.Set(TextFact("workload.mode", "ro_mount", {}));
    f.Set(TextFact("runtime.setting.RSLEX_DOWNLOADER_THREADS", "8", {}));
    f.Set(BoolFact("account.same_region", true, {}));
    return f;
  }();
  std::vector<std::string> missing;
  Value v = Evaluate(*expr, facts, &missing);
  (void)FormatResult(*expr, v);
  return 0;
}
