// libFuzzer target: a saved result, as `feedcheck report FILE` reads it (app/report_workflow):
// the JSON read into the Report model (ReportFromJson), its post-mortem and fleet sections laid
// out again from their JSON (RestoreSections), then rendered by every reporter. A result file
// is the user's to edit, so every field may hold anything JSON can. The text goes through the
// checked parse (core/json_input: nesting limit, numbers out of range) and the typed reads, as
// every JSON input does; the same bytes are also read as az's answers (app/az_commands) and as a
// facts file.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "app/az_commands.h"
#include "app/postmortem_report.h"
#include "core/diagnostic_codes.h"
#include "core/evidence_json.h"
#include "core/json_input.h"
#include "reports/report_charts.h"
#include "reports/report_json.h"
#include "reports/reporter.h"

using namespace feedcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    app::AzJob job;
    app::AzDatastore datastore;
    std::string id, error;
    app::ParseAzJob(text, &job, &error);
    app::ParseAzDatastore(text, &datastore, &error);
    app::ParseAzResourceId(text, &id, &error);
    app::ParseAzComputeSize(text);
    app::AzMetricsHaveData(text);
  }
  DiagnosticList diagnostics;
  const std::optional<nlohmann::json> json =
      ParseJsonInput(text, JsonSource{"result.json", codes::kReportUnreadable, &diagnostics});
  if (!json) return 0;
  Evidence evidence;
  EvidenceFromJson(*json, "facts.json", &evidence, &diagnostics);
  Report report;
  if (!ReportFromJson(*json, "result.json", &report, &diagnostics)) return 0;
  app::RestoreSections(&report);
  DecideCharts(&report);  // as the app renders it: the charts drawn from the fuzzed evidence
  for (std::string_view format : ReporterNames()) {
    for (bool verbose : {false, true}) {
      ReporterOptions options;
      options.verbose = verbose;
      std::ostringstream out;
      MakeReporter(format, options)->Render(report, out);
    }
  }
  return 0;
}
