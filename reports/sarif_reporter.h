// The report as a SARIF 2.1.0 log (`-f sarif`, `-o FILE.sarif`), so code-scanning UIs show each
// problem on its file's line: the report's code descriptions as the tool's rules, the rows of its
// located-problem tables as results, its diagnostics as tool execution notifications.
#pragma once

#include <string>

#include "reports/reporter.h"

namespace feedcheck {

class SarifReporter : public Reporter {
 public:
  /// `base_dir`: the directory paths are relative to (the working directory): files under it get
  /// the uriBaseId %SRCROOT%, which code scanning resolves to the checkout.
  explicit SarifReporter(std::string base_dir) : base_dir_(std::move(base_dir)) {}
  /// One run: the tool's rules (report.codes), one result per located problem with level
  /// error/warning/note, the message and the change, the file and line (1 for a problem about
  /// the whole file). A report that is not complete (the run stopped: exit 3) has no results
  /// and every diagnostic as a notification, so an upload step never gets an empty file; a
  /// complete one lists only its error diagnostics.
  void Render(const Report& report, std::ostream& out) const override;

 private:
  std::string base_dir_;
};

}  // namespace feedcheck
