#include "app/outcome.h"

namespace feedcheck::app {

Outcome Stopped(ExitStatus status, const char* code, std::string message) {
  Outcome outcome;
  outcome.status = status;
  AddMessage(&outcome.diagnostics, code, std::move(message));
  return outcome;
}

void AddMessage(DiagnosticList* diagnostics, const char* code, std::string message,
                DiagnosticSeverity severity) {
  Diagnostic d;
  d.code = code;
  d.severity = severity;
  d.message = std::move(message);
  diagnostics->Add(std::move(d));
}

}  // namespace feedcheck::app
