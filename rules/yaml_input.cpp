#include "rules/yaml_input.h"

#include <fstream>
#include <sstream>

#include "rules/rule_messages.h"

namespace feedcheck::rules {

bool ReadInputFile(const std::string& path, std::string_view what, const char* code,
                   std::string* out, DiagnosticList* diagnostics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics->Add(Diagnostic{code,
                                DiagnosticSeverity::kError,
                                "cannot read the " + std::string(what),
                                {path, 0, 0},
                                "",
                                ""});
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
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
    return true;
  } catch (const YAML::Exception& e) {
    diagnostics->Add(YamlExceptionDiagnostic(name, e, kCodeYamlSyntax));
    return false;
  }
}

}  // namespace feedcheck::rules
