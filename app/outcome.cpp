#include "app/outcome.h"

#include "core/diagnostic_codes.h"

namespace feedcheck::app {

Outcome Stopped(ExitStatus status, const char* code, std::string message) {
  Outcome outcome;
  outcome.status = status;
  AddMessage(&outcome.diagnostics, code, std::move(message));
  return outcome;
}

Outcome Stopped(ExitStatus status, DiagnosticList diagnostics) {
  Outcome outcome;
  outcome.status = status;
  outcome.diagnostics = std::move(diagnostics);
  return outcome;
}

Outcome StoppedOnFlag(DiagnosticList diagnostics, std::string message) {
  AddMessage(&diagnostics, codes::kProbeBadFlag, std::move(message));
  return Stopped(ExitStatus::kUsage, std::move(diagnostics));
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
