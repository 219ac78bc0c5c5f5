// `report RESULT.json`: a saved result (any command's --json, or a bare facts.json) read back, to
// be rendered again in another format. Reading is reports/report_json's; rendering the
// reporters'.
#pragma once

#include <string>

#include "app/outcome.h"

namespace feedcheck::app {

struct ReportRequest {
  std::string input;  ///< RESULT.json
};

/// The Outcome holds the saved report as it was (its own `result`, tables, findings, evidence);
/// entries that could not be read are diagnostics naming the JSON path, the rest is kept. A file
/// that cannot be read, is not JSON or is not a report: kInputError, no report.
Outcome RunReport(const ReportRequest& request);

}  // namespace feedcheck::app
