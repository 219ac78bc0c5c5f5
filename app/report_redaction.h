// The last step before any report is rendered, in every format: the Report with every secret
// taken out of every string it holds (a log line quoting AccountKey=, a snippet of an
// environment dump, a re-rendered saved result, a setting named AZURE_STORAGE_KEY), so no
// reporter has to remember to redact, and a field added later is covered too.
#pragma once

#include "reports/report.h"

namespace feedcheck::app {

/// `report` unchanged when it holds no secret; otherwise the same report with each secret
/// replaced by "REDACTED": every string goes through RedactText (core/redact.h), and the value
/// of any setting or fact whose name names a secret (runtime.setting.AZURE_STORAGE_KEY) goes
/// whole. The walk runs over the report's JSON form (reports/report_json.h), which holds every
/// field a reporter shows.
Report RedactReport(const Report& report);

}  // namespace feedcheck::app
