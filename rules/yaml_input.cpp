#include "rules/yaml_input.h"

#include "core/diagnostic_codes.h"
#include "core/input_file.h"
#include "rules/rule_messages.h"
#include "rules/yaml_duplicate_keys.h"

namespace feedcheck::rules {

bool ReadInputFile(const std::string& path, std::string_view what, const char* code,
                   std::string* out, DiagnosticList* diagnostics) {
  std::string error;
  if (!ReadBoundedRegularFile(path, kMaxConfigFileBytes, out, &error)) {
    diagnostics->Add(Diagnostic{code,
                                DiagnosticSeverity::kError,
                                "cannot read the " + std::string(what) + ": " + error,
                                {path, 0, 0},
                                "",
                                ""});
    return false;
  }
  return true;
}

Diagnostic YamlExceptionDiagnostic(const std::string& name, const YAML::Exception& e,
                                   const char* code) {
  return Diagnostic{code,
                    DiagnosticSeverity::kError,
                    YamlErrorMessage(e),
                    {name, e.mark.line + 1, e.mark.column + 1},
                    "",
                    ""};
}

bool ParseYaml(const std::string& name, const std::string& content, YAML::Node* out,
               DiagnosticList* diagnostics) {
  try {
    *out = YAML::Load(content);
  } catch (const YAML::Exception& e) {
    diagnostics->Add(YamlExceptionDiagnostic(name, e, codes::kYamlSyntax));
    return false;
  }
  // A key given twice would silently mean its first value: refused, both lines named.
  return FindDuplicateYamlKeys(name, content, diagnostics) == 0;
}

}  // namespace feedcheck::rules
